#pragma once
// Options several measuring commands take, spelled and explained once.
#include <CLI/CLI.hpp>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace wcp::cli {

// --verbose: print `what` (the full text) instead of one screen, as `diagnose --verbose` does.
void add_verbose_flag(CLI::App& command, bool& verbose, std::string_view what);
// --history FILE: `what` is what gets appended ("the result", "each command's result").
void add_history_option(CLI::App& command, std::string& path, std::string_view what);
// --reference-python PYTHON: `whose` says whose interpreter is the default ("the command's").
void add_reference_python_option(CLI::App& command, std::string& python, std::string_view whose);
// The interpreter of the Warp CPU reference: --reference-python when given, else as
// reference::reference_python_for chooses for `command` run in `cwd`.
std::string reference_python_of(const std::string& option, const std::vector<std::string>& command,
                                const std::filesystem::path& cwd);

}  // namespace wcp::cli
