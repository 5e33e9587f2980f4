#pragma once
// Options several measuring commands take, spelled and explained once.
#include <CLI/CLI.hpp>

#include <filesystem>
#include <string>
#include <string_view>

#include <vector>
#include "history/recorder.h"

namespace wcp::cli {

// An option and what it is for, in the words its help text completes; a null target is an
// option the command does not take.
struct PathOption {
  std::string* path = nullptr;
  std::string_view what;
};
struct FlagOption {
  bool* flag = nullptr;
  std::string_view what;
};

// --history, --machine-class and --branch: `what` is what gets appended.
struct HistoryOption {
  history::HistoryChoice* choice = nullptr;
  std::string_view what;
};

// The output and run options that measuring and reporting commands share (`measure`, `check`,
// `ab`, `report`), so each is spelled and explained once. Each one given is added, in this order:
//   --json PATH      "Also write <json.what> as JSON to this path"
//   --markdown PATH  "Also write <markdown.what> as Markdown to this path"
//   --cwd DIR        "Run <cwd.what> in this directory (default: current)", an existing directory
//   --timeout S      seconds each run may take (a positive number)
//   --quiet          no progress line on stderr
//   --verbose        as add_verbose_flag; --reference-python and --history as theirs below
// (`{}` on each member: GCC warns of a member a designated initializer leaves out otherwise.)
struct SharedOptions {
  PathOption json{};
  PathOption markdown{};
  PathOption cwd{};
  double* timeout_s = nullptr;
  bool* quiet = nullptr;
  FlagOption verbose{};
  PathOption reference_python{};
  HistoryOption history{};
};
void add_shared_options(CLI::App& command, const SharedOptions& options);

// The two reports a change is judged on, as the positionals BASELINE and CANDIDATE (existing
// files). With `ab_document`, BASELINE may instead be an `ab --json` document holding both, so
// CANDIDATE may be left out.
enum class ReportPair { two_reports, or_ab_document };
void add_report_pair(CLI::App& command, std::string& baseline, std::string& candidate, ReportPair accepted);

// --verbose: print `what` (the full text) instead of one screen, as `diagnose --verbose` does.
void add_verbose_flag(CLI::App& command, bool& verbose, std::string_view what);
// --history LOCATION, --machine-class NAME and --branch NAME: `what` is what gets appended ("the
// result", "each command's result"); "" for a command that only reads the history (its noise).
void add_history_option(CLI::App& command, history::HistoryChoice& choice, std::string_view what);
// --clock auto|wall: the clock cold module work is judged on (verdict/judge.h); `wall` sets
// `wall_clock`, for a team that wants the wall as before.
void add_clock_option(CLI::App& command, bool& wall_clock);
// --reference-python PYTHON: `whose` says whose interpreter is the default ("the command's").
void add_reference_python_option(CLI::App& command, std::string& python, std::string_view whose);
// The interpreter of the Warp CPU reference: --reference-python when given, else as
// reference::reference_python_for chooses for `command` run in `cwd`.
std::string reference_python_of(const std::string& option, const std::vector<std::string>& command,
                                const std::filesystem::path& cwd);

// A count of pairs as `ab --samples` and `levers --pairs` take it: a whole number >= 1, or `auto`
// (pairs until they decide, at most verdict::kMostAutoPairs). Throws UsageError naming `flag`.
struct PairCount {
  bool automatic = false;
  int most = 0;  // the fixed count, or the most `auto` takes
};
PairCount parse_pair_count(const std::string& text, std::string_view flag);

}  // namespace wcp::cli
