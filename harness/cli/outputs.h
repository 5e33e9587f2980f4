#pragma once
// A command's result written to the files its options name, one format each.
#include <initializer_list>
#include <sstream>
#include <string>
#include <utility>

#include "io/file_io.h"
#include "render/format.h"

namespace wcp::cli {

struct Output {
  const std::string& path;  // "" when the option was not given
  render::Format format;
};

// Each output written whole or not at all (io/file_io.h); an empty path is skipped.
template <typename Result>
void write_outputs(const Result& result, std::initializer_list<Output> outputs) {
  for (const Output& output : outputs) {
    if (output.path.empty()) continue;
    std::ostringstream text;
    render::write(result, output.format, text);
    write_file_atomically(output.path, text.str());
  }
}

}  // namespace wcp::cli
