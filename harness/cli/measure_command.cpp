// `measure [OPTIONS] -- COMMAND...`: run COMMAND cold and warm in private caches, print the
// report and a brief of its diagnosis (one screen together; the full texts with --verbose),
// optionally save the report as JSON.

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "analysis/diagnose.h"
#include "cli/command_progress.h"
#include "cli/commands.h"
#include "cli/common_options.h"
#include "cli/fixed_cost_input.h"
#include "cli/option_table.h"
#include "cli/outputs.h"
#include "errors.h"
#include "facts/clock_facts.h"
#include "facts/rebuilds.h"
#include "facts/test_attribution.h"
#include "history/recorder.h"
#include "io/environment.h"
#include "io/file_io.h"
#include "measure/cuda_build_run.h"
#include "measure/measure.h"
#include "reference/measure_with_reference.h"
#include "render/diagnosis_brief_text.h"
#include "render/diagnosis_text.h"
#include "render/format.h"
#include "render/report_summary_text.h"
#include "render/trace_json.h"

namespace wcp::cli {
namespace {

struct MeasureArguments {
  int samples = 3;
  std::string json_path;
  std::string trace_path;
  std::string label;
  std::string cwd;
  double timeout_s = 900;
  bool warm = false;  // accepted for compatibility: the warm pass always runs
  bool quiet = false;
  bool verbose = false;
  bool reference = false;
  std::string reference_python;
  history::HistoryChoice history;
  bool check_output = false;
  std::vector<std::string> ignore_output;
  bool stable_hashes = false;
  std::string warm_cache;
  std::string prune_list;
  std::vector<std::string> cuda_archs;
  std::vector<std::string> command;
};

// `--cuda-arch sm_86,90 --cuda-arch sm_89`: each named architecture once, in order.
std::vector<int> parse_cuda_archs(const std::vector<std::string>& values, const std::string& option) {
  std::vector<int> archs;
  for (const auto& value : values) {
    std::size_t start = 0;
    while (start <= value.size()) {
      const auto comma = std::min(value.find(',', start), value.size());
      const std::string part = value.substr(start, comma - start);
      const auto arch = measure::parse_cuda_arch(part);
      if (!arch) throw UsageError(option + " " + part + ": not a CUDA architecture (sm_86, 86, sm_90, …)");
      if (std::find(archs.begin(), archs.end(), *arch) == archs.end()) archs.push_back(*arch);
      start = comma + 1;
    }
  }
  return archs;
}

// `--prune-list`: DIR's entries the audit pass never read nor wrote, one absolute path a line.
// Only from an audit that measured something: an unobserved pass read "nothing", which is no
// licence to delete everything.
void write_prune_list(const std::string& path, Report& report, std::ostream& err) {
  auto& audit = *report.cache_audit;
  if (!audit.measured()) {
    err << "warp-compile-probe: --prune-list not written: the warm cache was not audited\n";
    return;
  }
  std::string lines;
  for (const auto& entry : unused_entries(audit)) {
    auto entry_path = std::filesystem::path(audit.dir);
    if (!entry.group.empty()) entry_path /= entry.group;
    lines += (entry_path / entry.name).string() + "\n";
  }
  write_file_atomically(path, lines);
  audit.prune_list = std::filesystem::absolute(path).lexically_normal().string();
}

int run_measure(const MeasureArguments& arguments, CliContext& context) {
  measure::MeasureOptions options;
  options.command = arguments.command;
  options.samples = arguments.samples;
  options.label = arguments.label;
  options.cwd = std::filesystem::absolute(arguments.cwd.empty() ? std::filesystem::current_path()
                                                                : std::filesystem::path(arguments.cwd));
  options.timeout = std::chrono::milliseconds(static_cast<long long>(arguments.timeout_s * 1000.0));
  options.check_output = arguments.check_output;
  options.ignore_output = arguments.ignore_output;
  options.stable_hashes = arguments.stable_hashes;
  if (!options.ignore_output.empty() && !options.check_output) {
    throw UsageError("--ignore-output only applies with --check-output");
  }
  if (!arguments.warm_cache.empty()) options.warm_cache = std::filesystem::absolute(arguments.warm_cache);
  if (!arguments.prune_list.empty() && !options.warm_cache)
    throw UsageError("--prune-list only applies with --warm-cache");
  if (!arguments.prune_list.empty()) require_writable_destination(arguments.prune_list, "--prune-list");
  if (!arguments.json_path.empty()) require_writable_destination(arguments.json_path, "--json");
  if (!arguments.trace_path.empty()) require_writable_destination(arguments.trace_path, "--trace");
  options.cuda_archs = parse_cuda_archs(arguments.cuda_archs, "--cuda-arch");
  measure::validate(options);
  reference::ReferenceSetup setup;
  if (arguments.reference) {
    setup.python = reference_python_of(arguments.reference_python, options.command, options.cwd);
    reference::validate(setup);
  }

  // A history that would be refused stops the command before anything runs.
  const auto history = history::Recorder::open_if_asked(arguments.history, process_environment(), context.interrupts);

  CommandProgress progress(context.err, arguments.quiet);
  measure::ProgressListener& listener = progress.listener();
  if (history) {
    if (const auto pass_ms = history->earlier_pass_ms(options.command, options.cwd))
      listener.expect(*pass_ms, "the history");
  }
  measure::Measurement measurement =
      arguments.reference ? reference::measure_with_reference(options, setup, context.interrupts, listener)
                          : measure::measure_with_trace(options, context.interrupts, listener);
  if (!arguments.prune_list.empty() && measurement.report.cache_audit) {
    write_prune_list(arguments.prune_list, measurement.report, context.err);
  }
  const Report& report = measurement.report;

  // The report is kept before anything else can fail.
  write_outputs(report, {{arguments.json_path, render::Format::json}});
  if (!arguments.trace_path.empty()) {
    write_file_atomically(arguments.trace_path, render::trace_to_json(measurement.trace).dump() + "\n");
  }
  if (history) history->record_kept(report, {history::Source::measure, options.cwd, "", ""});
  std::optional<TestCostRanking> tests;
  if (report.tests) tests = rank_tests(*report.tests, render::kSlowestTestsShown);
  const render::ReportView view{report,           compiled_identities(report), rebuilt_modules(report),
                                std::move(tests), clock_facts(report),         rank_cuda_build(report)};
  if (arguments.verbose) {
    render::write(view, render::Format::text, context.out);
  } else {
    render::render_report_summary_text(view, context.out);
  }
  if (report.measured()) {
    // The measured process inherited this environment, so what it says about the CUDA driver
    // cache is known here and only here (a saved report does not record it).
    analysis::DiagnoseInputs inputs = calibrated_inputs(report, context);
    inputs.cuda_cache_disabled_env = flag_set(process_environment(), "CUDA_CACHE_DISABLE");
    const analysis::Diagnosis diagnosis = analysis::diagnose(report, inputs);
    if (arguments.verbose) {
      render::write(diagnosis, render::Format::text, context.out);
    } else {
      render::render_diagnosis_brief_text(diagnosis, arguments.json_path, context.out);
    }
  }
  if (history) history->raise_if_failed();
  if (!report.measured()) {
    context.err << "warp-compile-probe: every sample failed; nothing was measured\n";
    return kFailed;
  }
  if (report.failed_samples > 0) {
    context.err << "warp-compile-probe: warning: " << report.failed_samples << " of " << report.samples
                << " samples failed\n";
  }
  int failed_warm = 0;
  for (const auto& sample : report.sample_results) failed_warm += sample.cold_ok && !sample.warm_wall_ms ? 1 : 0;
  if (failed_warm > 0) {
    context.err << "warp-compile-probe: warning: " << failed_warm
                << " warm run(s) failed: warm figures and compile elapsed exclude them, and `compare` treats this "
                   "report as an invalid candidate\n";
  }
  if (report.output_check && !report.output_check->same()) {
    context.err << "warp-compile-probe: the program's output or exit status differs under the probe (see Output "
                   "check)\n";
    return kFailed;
  }
  return kOk;
}

}  // namespace

void add_measure_command(CLI::App& root, CliContext& context) {
  const auto [command, arguments] = register_command<MeasureArguments>(
      root, context, "measure", "Measure what Warp compiles for COMMAND, cold and warm, in private caches",
      run_measure);
  add_options(
      *command,
      {{"--samples", &arguments->samples, "Cold+warm samples to take (default 3)", {.check = CLI::PositiveNumber}}});
  add_shared_options(*command,
                     {.json = {&arguments->json_path, "the report"},
                      .cwd = {&arguments->cwd, "the command"},
                      .timeout_s = &arguments->timeout_s,
                      .quiet = &arguments->quiet,
                      .verbose = {&arguments->verbose, "the full report and the full diagnosis (`diagnose --verbose`)"},
                      .reference_python = {&arguments->reference_python, "the command's"},
                      .history = {&arguments->history, "the result"}});
  add_options(
      *command,
      {{"--trace", &arguments->trace_path,
        "Also write every sample's module builds as a Chrome/Perfetto trace (JSON) to this path"},
       {"--label", &arguments->label, "A name for this measurement, kept in the report"},
       {"--warm", &arguments->warm, "Accepted for compatibility; the warm pass always runs"},
       {"--reference", &arguments->reference,
        "Interleave a machine reference sample after each sample and report cold units (kept in the JSON, so "
        "baselines in units carry over between machines)"},
       {"--check-output", &arguments->check_output,
        "Also run the command without the probe (cold and warm) and check that its stdout, stderr and exit status "
        "are the same as under the probe (exit 1 when not)"},
       {"--ignore-output",
        &arguments->ignore_output,
        "With --check-output: leave lines matching this regex out of the comparison (repeatable)",
        {.every_value = true}},
       {"--stable-hashes", &arguments->stable_hashes,
        "Also run the hash experiments when no hash varied: two processes with PYTHONHASHSEED 0, one with 1, one "
        "from a copy of the working directory elsewhere (they always run when a hash varied); the outcome is in the "
        "report and the diagnosis, the exit status is unchanged (gate with `check`'s stable_hashes)"},
       {"--warm-cache",
        &arguments->warm_cache,
        "After the samples, one more warm pass against a private copy of this kernel cache (DIR is only read): "
        "which of its entries the command used, and which it never read",
        {.check = CLI::ExistingDirectory}},
       {"--prune-list", &arguments->prune_list,
        "With --warm-cache: write the absolute paths of DIR's entries the pass never used to this file, one per "
        "line (the tool deletes nothing)"},
       {"--cuda-arch",
        &arguments->cuda_archs,
        "After each cold run's own work, compile every module identity it loaded for this CUDA architecture "
        "(sm_86, 90, …; comma-separated or repeated) with Warp's NVRTC, without a GPU: the CUDA build's time, "
        "phases, output bytes and cost per kernel (docs/cuda-build.md)",
        {.every_value = true}},
       {"command", &arguments->command, "The command to measure, after --", {.required = true}}});
  command->positionals_at_end(true);
}

}  // namespace wcp::cli
