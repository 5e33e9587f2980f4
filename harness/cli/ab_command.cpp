// `ab [OPTIONS] -- BASELINE_CMD... --vs CANDIDATE_CMD...`: measure two commands interleaved
// (A B B A …, each sample isolated) and judge the candidate on paired samples. With
// --baseline-cwd and --candidate-cwd and no --vs, one command is measured in two checkouts.
// Exit codes as `compare`: 1 for INVALID and REGRESSION.

#include <algorithm>
#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/command_progress.h"
#include "cli/commands.h"
#include "cli/common_options.h"
#include "cli/option_table.h"
#include "codec/ab_json.h"
#include "codec/report_json.h"
#include "errors.h"
#include "history/recorder.h"
#include "history/result_from_report.h"
#include "io/environment.h"
#include "io/file_io.h"
#include "measure/ab.h"
#include "render/format.h"
#include "render/judgement_json.h"
#include "render/report_text.h"
#include "verdict/judge.h"
#include "verdict/paired_stop.h"

namespace wcp::cli {
namespace {

struct AbArguments {
  std::string samples = "5";
  std::string json_path;
  std::string baseline_json;
  std::string candidate_json;
  std::string cwd;
  std::string baseline_cwd;
  std::string candidate_cwd;
  double timeout_s = 900;
  bool quiet = false;
  history::HistoryChoice history;
  bool wall_clock = false;
  std::vector<std::string> commands;  // BASELINE_CMD... [--vs CANDIDATE_CMD...]
};

std::filesystem::path directory(const std::string& specific, const std::string& shared) {
  const std::string& chosen = specific.empty() ? shared : specific;
  return std::filesystem::absolute(chosen.empty() ? std::filesystem::current_path() : std::filesystem::path(chosen));
}

int run_ab(const AbArguments& arguments, CliContext& context) {
  const auto separator = std::find(arguments.commands.begin(), arguments.commands.end(), "--vs");
  measure::MeasureOptions a, b;
  a.command.assign(arguments.commands.begin(), separator);
  if (separator != arguments.commands.end()) {
    b.command.assign(separator + 1, arguments.commands.end());
  } else if (!arguments.baseline_cwd.empty() && !arguments.candidate_cwd.empty()) {
    b.command = a.command;  // one command, two checkouts
  } else {
    throw UsageError(
        "give the candidate after `--vs` (-- BASELINE_CMD... --vs CANDIDATE_CMD...), or one command with "
        "--baseline-cwd and --candidate-cwd");
  }
  if (a.command.empty() || b.command.empty()) throw UsageError("both arms need a command");
  a.cwd = directory(arguments.baseline_cwd, arguments.cwd);
  b.cwd = directory(arguments.candidate_cwd, arguments.cwd);
  if (a.command == b.command && a.cwd == b.cwd) {
    context.err << "warp-compile-probe: note: both arms run the same command in the same directory (an A/A run: "
                   "the verdict should be INCONCLUSIVE)\n";
  }
  for (auto* options : {&a, &b}) {
    options->timeout = std::chrono::milliseconds(static_cast<long long>(arguments.timeout_s * 1000.0));
  }
  a.label = "A";
  b.label = "B";
  for (const auto& [path, flag] :
       {std::pair{arguments.json_path, "--json"}, std::pair{arguments.baseline_json, "--baseline-json"},
        std::pair{arguments.candidate_json, "--candidate-json"}}) {
    if (!path.empty()) require_writable_destination(path, flag);
  }

  // A history that would be refused stops the command before anything runs.
  const auto history = history::Recorder::open_if_asked(arguments.history, process_environment(), context.interrupts);

  const auto [automatic, most_pairs] = parse_pair_count(arguments.samples, "--samples");
  verdict::JudgeOptions options;
  options.paired = true;
  options.forced_verdict = context.judge_fault;
  options.wall_clock = arguments.wall_clock;
  CommandProgress progress(context.err, arguments.quiet);
  measure::ProgressListener& listener = progress.listener();
  measure::StopPairs stop;
  if (automatic) {
    stop = [&options](const measure::AbReports& so_far) {
      const auto judgement = verdict::judge(so_far.baseline, so_far.candidate, options);
      return verdict::decide_pairs(judgement, so_far.baseline, so_far.candidate).decided;
    };
  }
  const measure::AbReports reports = measure::measure_ab(a, b, most_pairs, context.interrupts, listener, stop);
  const verdict::Judgement judgement = verdict::judge(reports.baseline, reports.candidate, options);
  const int pairs_taken =
      static_cast<int>(std::max(reports.baseline.sample_results.size(), reports.candidate.sample_results.size()));

  // Keep what was measured before anything else can fail.
  if (!arguments.baseline_json.empty())
    write_file_atomically(arguments.baseline_json, report_to_json_text(reports.baseline));
  if (!arguments.candidate_json.empty())
    write_file_atomically(arguments.candidate_json, report_to_json_text(reports.candidate));
  if (!arguments.json_path.empty()) {
    std::vector<std::string> order;
    for (int pair = 0; pair < pairs_taken; ++pair) order.push_back(measure::baseline_first(pair) ? "AB" : "BA");
    const nlohmann::json document =
        ab_to_json(reports.baseline, reports.candidate, order, render::judgement_to_json(judgement));
    write_file_atomically(arguments.json_path, document.dump(2) + "\n");
  }
  // Each arm is its own command's result (its label "A"/"B" is not a name a history can follow);
  // the comparison's verdict belongs to the candidate.
  if (history) {
    history->record_kept(reports.baseline, {history::Source::ab_baseline, a.cwd, history::command_name(a.command), ""});
    history->record_kept(reports.candidate, {history::Source::ab_candidate, b.cwd, history::command_name(b.command),
                                             std::string(verdict::to_string(judgement.verdict))});
  }
  context.out << "A (baseline)   " << render::format_command(a.command) << "   in " << a.cwd.string() << "\n";
  context.out << "B (candidate)  " << render::format_command(b.command) << "   in " << b.cwd.string() << "\n";
  context.out << "Interleaved in A B B A order, " << pairs_taken << " pair(s); clocks judged on paired samples\n";
  if (automatic) {
    const auto decision = verdict::decide_pairs(judgement, reports.baseline, reports.candidate);
    context.out << "Pairs (--samples auto, at most " << most_pairs
                << "): " << (decision.decided ? decision.how : "not decided: " + decision.how) << "\n";
  }
  context.out << "\n";
  render::write(judgement, render::Format::text, context.out);
  if (history) history->raise_if_failed();
  return judgement.exit_code;
}

}  // namespace

void add_ab_command(CLI::App& root, CliContext& context) {
  const auto [command, arguments] = register_command<AbArguments>(
      root, context, "ab",
      "Measure a baseline and a candidate command interleaved (A B B A …) and judge them on paired samples", run_ab);
  add_options(*command, {{"--samples", &arguments->samples,
                          "Pairs of samples to take (default 5), or auto: until they decide, at most 10"}});
  add_shared_options(*command, {.json = {&arguments->json_path, "both reports and the comparison (one document)"},
                                .cwd = {&arguments->cwd, "both commands"},
                                .timeout_s = &arguments->timeout_s,
                                .quiet = &arguments->quiet,
                                .history = {&arguments->history, "both arms' results"}});
  add_clock_option(*command, arguments->wall_clock);
  add_options(*command,
              {{"--baseline-json", &arguments->baseline_json, "Also write arm A's report (a `measure` report)"},
               {"--candidate-json", &arguments->candidate_json, "Also write arm B's report"},
               {"--baseline-cwd",
                &arguments->baseline_cwd,
                "Run arm A here (e.g. a checkout of the baseline)",
                {.check = CLI::ExistingDirectory}},
               {"--candidate-cwd", &arguments->candidate_cwd, "Run arm B here", {.check = CLI::ExistingDirectory}},
               {"commands", &arguments->commands, "-- BASELINE_CMD... --vs CANDIDATE_CMD...", {.required = true}}});
  command->positionals_at_end(true);
}

}  // namespace wcp::cli
