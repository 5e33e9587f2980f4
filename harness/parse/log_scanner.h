#pragma once
// Streams a process's combined output through the line parser and keeps only the facts:
// memory stays bounded however much the target prints.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/module_event.h"

namespace wcp::parse {

struct LogFacts {
  std::vector<ModuleEvent> module_events;  // in output order; `label` left empty
  double native_compile_ms = 0.0;
  std::size_t native_timers = 0;  // "Compile x86/CUDA took" lines seen
  std::vector<HashChange> hash_changes;
  std::vector<std::string> find_failures;  // whole lines containing "Failed to find"
  std::string warp_version;
  bool pch_generated = false;
  std::uint64_t bytes = 0;
  std::uint64_t lines = 0;
};

// Facts of two streams of one run (stdout, then stderr): Warp prints its timers on stdout, and a
// custom logger may print them on stderr.
LogFacts merge(const LogFacts& first, const LogFacts& second);

class LogScanner {
 public:
  void feed(std::string_view chunk);
  void finish();  // a last line without '\n' still counts
  const LogFacts& facts() const { return facts_; }

 private:
  void scan_complete_lines(std::string_view region);
  void on_line(std::string_view line);
  void on_message(std::string_view message);  // one Warp message of a line
  void note_find_failures(std::string_view region);

  LogFacts facts_;
  std::string partial_;  // the unfinished last line of the previous chunk
  bool skipping_overlong_ = false;
  std::string clean_storage_;
  std::optional<double> pending_native_ms_;  // a compile timer waiting for its module line
  bool pending_pch_ = false;
};

}  // namespace wcp::parse
