// `report BASELINE.json CANDIDATE.json | report AB.json  [--ledger L.yaml] [--levers LEVERS.json]
//  [--markdown OUT.md] [--html OUT.html]`:
// the results report a reviewer needs (the seed's step 6). Prints one screen of it (the Markdown
// with --verbose); exits like
// `compare` (1 for INVALID and REGRESSION), since the verdict is part of the result.

#include "analysis/diagnose.h"
#include "cli/commands.h"
#include "cli/common_options.h"
#include "cli/fixed_cost_input.h"
#include "cli/option_table.h"
#include "cli/outputs.h"
#include "codec/ab_json.h"
#include "codec/document_kind.h"
#include "codec/lever_ledger_json.h"
#include "codec/report_json.h"
#include "errors.h"
#include "io/file_io.h"
#include "render/format.h"
#include "render/results_summary_text.h"
#include "results/ledger.h"
#include "results/results_report.h"
#include "verdict/judge.h"

namespace wcp::cli {
namespace {

struct ReportArguments {
  std::string baseline_path;
  std::string candidate_path;
  std::string ledger_path;
  std::string levers_path;
  std::string markdown_path;
  std::string html_path;
  bool verbose = false;
};

int run_report(const ReportArguments& arguments, CliContext& context) {
  for (const auto& [path, flag] :
       {std::pair{arguments.markdown_path, "--markdown"}, std::pair{arguments.html_path, "--html"}}) {
    if (!path.empty()) require_writable_destination(path, flag);
  }
  // One `ab --json` document holds both arms, measured interleaved: judge them on pairs.
  Report baseline, candidate;
  verdict::JudgeOptions options;
  if (arguments.candidate_path.empty()) {
    AbArms arms = ab_arms_from_json(
        parse_json_document(read_text_file(arguments.baseline_path, "report"), arguments.baseline_path),
        arguments.baseline_path);
    baseline = std::move(arms.baseline);
    candidate = std::move(arms.candidate);
    options.paired = true;
  } else {
    baseline = load_report(arguments.baseline_path);
    candidate = load_report(arguments.candidate_path);
  }
  results::Ledger ledger;
  if (!arguments.ledger_path.empty()) ledger = results::load_ledger(arguments.ledger_path);
  std::optional<LeverLedger> levers;
  if (!arguments.levers_path.empty()) levers = load_lever_ledger(arguments.levers_path);

  const verdict::Judgement judgement = verdict::judge(baseline, candidate, options);
  const analysis::DiagnoseInputs before_inputs = calibrated_inputs(baseline, context);
  const analysis::DiagnoseInputs after_inputs = calibrated_inputs(candidate, context);
  auto results =
      results::build_results_report(baseline, candidate, judgement, analysis::diagnose(baseline, before_inputs),
                                    analysis::diagnose(candidate, after_inputs), std::move(ledger));
  results.levers = std::move(levers);
  write_outputs(results,
                {{arguments.markdown_path, render::Format::markdown}, {arguments.html_path, render::Format::html}});
  if (arguments.verbose) {
    render::write(results, render::Format::text, context.out);
  } else {
    render::render_results_summary_text(results, context.out);
  }
  return judgement.exit_code;
}

}  // namespace

void add_report_command(CLI::App& root, CliContext& context) {
  const auto [command, arguments] = register_command<ReportArguments>(
      root, context, "report",
      "Write the results of a change for a reviewer: clocks, residual, mechanisms, ledger, levers, charts", run_report);
  add_report_pair(*command, arguments->baseline_path, arguments->candidate_path, ReportPair::or_ab_document);
  add_options(*command, {{"--ledger",
                          &arguments->ledger_path,
                          "YAML of options measured and not taken (docs/cli.md#report)",
                          {.check = CLI::ExistingFile}},
                         {"--levers",
                          &arguments->levers_path,
                          "The levers measured for this program (`levers --json`), as their own section",
                          {.check = CLI::ExistingFile}}});
  add_shared_options(*command, {.markdown = {&arguments->markdown_path, "the report"},
                                .verbose = {&arguments->verbose, "the full report (the Markdown)"}});
  add_options(*command, {{"--html", &arguments->html_path, "Also write a self-contained HTML page with charts here"}});
}

}  // namespace wcp::cli
