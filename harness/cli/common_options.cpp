#include "cli/common_options.h"

#include <fmt/format.h>

#include <optional>

#include "errors.h"
#include "reference/reference_python.h"
#include "verdict/paired_stop.h"

namespace wcp::cli {

void add_shared_options(CLI::App& command, const SharedOptions& options) {
  if (options.json.path) {
    command.add_option("--json", *options.json.path,
                       fmt::format("Also write {} as JSON to this path", options.json.what));
  }
  if (options.markdown.path) {
    command.add_option("--markdown", *options.markdown.path,
                       fmt::format("Also write {} as Markdown to this path", options.markdown.what));
  }
  if (options.cwd.path) {
    command
        .add_option("--cwd", *options.cwd.path,
                    fmt::format("Run {} in this directory (default: current)", options.cwd.what))
        ->check(CLI::ExistingDirectory);
  }
  if (options.timeout_s) {
    command.add_option("--timeout", *options.timeout_s, "Seconds each run may take before it is stopped (default 900)")
        ->check(CLI::PositiveNumber);
  }
  if (options.quiet) command.add_flag("--quiet", *options.quiet, "No progress line on stderr");
  if (options.verbose.flag) add_verbose_flag(command, *options.verbose.flag, options.verbose.what);
  if (options.reference_python.path) {
    add_reference_python_option(command, *options.reference_python.path, options.reference_python.what);
  }
  if (options.history.choice) add_history_option(command, *options.history.choice, options.history.what);
}

void add_report_pair(CLI::App& command, std::string& baseline, std::string& candidate, ReportPair accepted) {
  const bool ab_document = accepted == ReportPair::or_ab_document;
  command
      .add_option(
          "baseline", baseline,
          ab_document ? "The report before the change (or an `ab --json` document)" : "The report before the change")
      ->required()
      ->check(CLI::ExistingFile);
  command.add_option("candidate", candidate, "The report after the change")
      ->required(!ab_document)
      ->check(CLI::ExistingFile);
}

void add_verbose_flag(CLI::App& command, bool& verbose, std::string_view what) {
  command.add_flag("--verbose", verbose, fmt::format("Print {} instead of one screen", what));
}

void add_history_option(CLI::App& command, history::HistoryChoice& choice, std::string_view what) {
  if (what.empty()) {
    command.add_option("--history", choice.location,
                       "Weigh changes by the noise of earlier runs in this history: a file, sqlite:FILE or "
                       "postgresql://… (default: $WCP_HISTORY; only read)");
  } else {
    command.add_option("--history", choice.location,
                       fmt::format("Append {} to this history: a file, sqlite:FILE or postgresql://… (default: "
                                   "$WCP_HISTORY when set)",
                                   what));
    command.add_option("--branch", choice.branch,
                       "The branch recorded with the result (default: $WCP_BRANCH, the CI's branch variable, else "
                       "git's)");
  }
  command.add_option("--machine-class", choice.machine_class,
                     "This runner's class in the history: only runs of one class are compared (default: "
                     "$WCP_MACHINE_CLASS, else CPU model, cores, memory and GPU)");
}

void add_clock_option(CLI::App& command, bool& wall_clock) {
  command
      .add_option_function<std::string>(
          "--clock", [&wall_clock](const std::string& clock) { wall_clock = clock == "wall"; },
          "Clock to judge cold module work on: auto (the CPU clock when both reports have it, else the wall; "
          "default) or wall")
      ->check(CLI::IsMember({"auto", "wall"}));
}

void add_reference_python_option(CLI::App& command, std::string& python, std::string_view whose) {
  command.add_option("--reference-python", python,
                     fmt::format("Interpreter with warp-lang for the Warp CPU reference (default: {} own interpreter "
                                 "when it starts with one, else $WCP_PYTHON, else python3)",
                                 whose));
}

std::string reference_python_of(const std::string& option, const std::vector<std::string>& command,
                                const std::filesystem::path& cwd) {
  return reference::reference_python_for(option.empty() ? std::nullopt : std::optional<std::string>(option), command,
                                         cwd);
}

PairCount parse_pair_count(const std::string& text, std::string_view flag) {
  if (text == "auto") return {true, verdict::kMostAutoPairs};
  try {
    std::size_t used = 0;
    const int count = std::stoi(text, &used);
    if (used == text.size() && count >= 1) return {false, count};
  } catch (const std::exception&) {
  }
  throw UsageError(fmt::format("{} must be auto or a whole number >= 1, got '{}'", flag, text));
}

}  // namespace wcp::cli
