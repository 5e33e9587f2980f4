// `compare BASELINE.json CANDIDATE.json [--verbose] [--json OUT]`: did the change help, for the same work?
// Exit 1 for INVALID and REGRESSION (docs/cli.md), 0 otherwise.

#include "cli/commands.h"
#include "cli/common_options.h"
#include "cli/option_table.h"
#include "cli/outputs.h"
#include "codec/report_json.h"
#include "history/prior_noise.h"
#include "io/environment.h"
#include "io/file_io.h"
#include "render/format.h"
#include "render/judgement_summary_text.h"
#include "verdict/normalised.h"

namespace wcp::cli {
namespace {

struct CompareArguments {
  std::string baseline_path;
  std::string candidate_path;
  std::string json_path;
  history::HistoryChoice history;
  bool wall_clock = false;
  bool verbose = false;
};

int run_compare(const CompareArguments& arguments, CliContext& context) {
  if (!arguments.json_path.empty()) require_writable_destination(arguments.json_path, "--json");
  const Report baseline = load_report(arguments.baseline_path);
  const Report candidate = load_report(arguments.candidate_path);
  verdict::JudgeOptions options;
  options.forced_verdict = context.judge_fault;
  options.wall_clock = arguments.wall_clock;
  // Reports of one or two samples measured no noise of their own: a history of this command
  // (or the calibration) may have, else only a gross change is judged. A history also widens
  // the band of samples that read less noise than runs at other times show.
  history::PriorNoise prior(arguments.history, process_environment(), context.interrupts);
  options.prior_noise = prior.for_report(candidate);
  options.prior_cpu_noise = prior.cpu_for_report(candidate);
  const verdict::Judgement judgement = verdict::judge_normalised(baseline, candidate, options);
  if (arguments.verbose) {
    render::write(judgement, render::Format::text, context.out);
  } else {
    render::render_judgement_summary_text(judgement, context.out);
  }
  write_outputs(judgement, {{arguments.json_path, render::Format::json}});
  return judgement.exit_code;
}

}  // namespace

void add_compare_command(CLI::App& root, CliContext& context) {
  const auto [command, arguments] = register_command<CompareArguments>(
      root, context, "compare", "Compare a candidate report against a baseline report", run_compare);
  add_report_pair(*command, arguments->baseline_path, arguments->candidate_path, ReportPair::two_reports);
  add_options(*command, {{"--json", &arguments->json_path, "Also write the comparison as JSON to this path"}});
  add_history_option(*command, arguments->history, "");
  add_clock_option(*command, arguments->wall_clock);
  add_verbose_flag(*command, arguments->verbose, "the full comparison (every count, module hash, option and note)");
}

}  // namespace wcp::cli
