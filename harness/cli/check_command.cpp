// `check BUDGET.yaml`: measure each command of a budget file and gate it on its budgets.
// Exit codes: 0 all pass, 1 a budget failed, 2 configuration error, 77 (kNotRun) nothing was
// run because every selected command needs a device this machine lacks (CTest SKIP_RETURN_CODE).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "budget/auto_sampling.h"
#include "budget/budget_parse.h"
#include "budget/cuda_device.h"
#include "budget/evaluate.h"
#include "calibrate/calibration.h"
#include "cli/command_progress.h"
#include "cli/commands.h"
#include "cli/common_options.h"
#include "cli/prior_noise.h"
#include "codec/report_json.h"
#include "errors.h"
#include "history/branch_baseline.h"
#include "history/recorder.h"
#include "io/environment.h"
#include "io/file_io.h"
#include "measure/measure.h"
#include "reference/measure_with_reference.h"
#include "render/budget_ctest.h"
#include "render/budget_json.h"
#include "render/budget_markdown.h"
#include "render/budget_summary_text.h"
#include "render/budget_text.h"
#include "render/format.h"

namespace wcp::cli {
namespace {

struct CheckArguments {
  std::string budget_file;
  std::string only;
  std::string json_path;
  std::string markdown_path;
  std::string report_dir;
  bool update_baseline = false;
  bool fail_on_improvement = false;
  std::string calibration_path;
  std::string units_reference = "run";
  std::string reference_python;
  history::HistoryChoice history;
  std::string against_branch;
  std::size_t against_runs = 5;
  bool ctest_measurements = false;
  bool list = false;
  bool quiet = false;
  bool verbose = false;
};

// `name;samples;timeout_seconds;device` per entry, read by cmake/WarpCompileBudget.cmake.
int list_entries(const budget::BudgetFile& file, CliContext& context) {
  for (const auto& entry : file.commands) {
    // With samples: auto, the most it may take (CTest's timeout is sized from it).
    context.out << entry.name << ";" << entry.samples << ";"
                << std::chrono::duration_cast<std::chrono::seconds>(entry.timeout).count() << ";"
                << to_string(entry.device) << "\n";
  }
  return kOk;
}

// How a budget entry is measured: the bridge from the budget file to the measure stage lives
// here, at the composition root, so neither stage depends on the other.
measure::MeasureOptions measure_options_for(const budget::CommandEntry& entry) {
  measure::MeasureOptions options;
  options.command = entry.command;
  options.cwd = entry.cwd;
  options.samples = entry.samples;
  options.timeout = entry.timeout;
  options.label = entry.name;
  options.extra_environment = entry.env;
  options.stable_hashes = entry.budgets.stable_hashes.value_or(false);
  return options;
}

// Which reference an entry is normalised by, when its device says so up front; otherwise the
// first command sample decides (reference/measure_with_reference.h).
std::optional<ReferenceKind> reference_kind_of(const budget::CommandEntry& entry) {
  switch (entry.device) {
    case budget::DeviceRequirement::cpu:
      return ReferenceKind::warp_cpu;
    case budget::DeviceRequirement::cuda:
      return ReferenceKind::nvrtc;
    case budget::DeviceRequirement::any:
      return std::nullopt;
  }
  return std::nullopt;
}

// An entry takes reference samples beside its own when a budget reads units: cold_units, or a
// baseline recorded with a reference (its judgement is then made in units, so that it carries
// over between machines).
bool wants_reference(const budget::CommandEntry& entry, const std::map<std::string, Report>& baselines) {
  if (entry.budgets.cold_units) return true;
  const auto baseline = baselines.find(entry.name);
  return baseline != baselines.end() && baseline->second.reference && baseline->second.reference->cost_ms;
}

std::vector<const budget::CommandEntry*> select(const budget::BudgetFile& file, const std::string& only) {
  std::vector<const budget::CommandEntry*> selected;
  std::vector<std::string> names;
  for (const auto& entry : file.commands) {
    if (only.empty() || entry.name == only) selected.push_back(&entry);
    names.push_back(entry.name);
  }
  if (selected.empty()) {
    throw UsageError(
        fmt::format("--only {}: no such command in {} (has: {})", only, file.path.string(), fmt::join(names, ", ")));
  }
  return selected;
}

// Accepting a new normal only makes sense when everything else about the run is acceptable.
void update_baseline(const budget::CommandEntry& entry, const Report& report, budget::CommandResult& result) {
  for (const auto& outcome : result.outcomes) {
    if (outcome.verdict == budget::Verdict::fail) {
      result.baseline_not_written = "budget " + outcome.budget + " failed";
      return;
    }
  }
  if (result.run_failure) {
    result.baseline_not_written = "the command could not be measured";
    return;
  }
  const auto& path = *entry.baseline_report;
  std::filesystem::create_directories(path.parent_path());
  write_file_atomically(path, report_to_json_text(report));
  result.baseline_written = path;
}

// The one word a history keeps for an entry's outcome.
std::string history_verdict(const budget::CommandResult& result) {
  if (result.run_failure) return "not measured";
  if (result.failed()) return "fail";
  if (result.improved()) return "improved";
  return "pass";
}

int run_check(const CheckArguments& arguments, CliContext& context) {
  const auto environment = process_environment();
  budget::LoadOptions load_options;
  // Listing only names the entries (CMake's configure step calls it): a baseline not yet made
  // is for the check itself to refuse.
  load_options.baseline_may_be_missing = arguments.update_baseline || arguments.list;
  const budget::BudgetFile file = budget::load_budget_file(arguments.budget_file, environment, load_options);
  if (arguments.list) return list_entries(file, context);
  const auto selected = select(file, arguments.only);
  if (!arguments.json_path.empty()) require_writable_destination(arguments.json_path, "--json");
  if (!arguments.markdown_path.empty()) require_writable_destination(arguments.markdown_path, "--markdown");
  // Made and probed up front, like the other outputs, so a bad directory costs no measuring.
  const std::filesystem::path report_dir = arguments.report_dir;
  if (!report_dir.empty()) {
    std::error_code error;
    std::filesystem::create_directories(report_dir, error);
    if (error) throw UsageError("--report-dir " + report_dir.string() + ": " + error.message());
    require_writable_destination(report_dir / "report.json", "--report-dir");
  }

  // Every baseline is read before the first run, so a corrupt one fails in seconds, not after
  // minutes of measuring.
  std::map<std::string, Report> baselines;
  for (const auto* entry : selected) {
    const auto& path = entry->baseline_report;
    std::error_code ignored;
    if (path && std::filesystem::is_regular_file(*path, ignored))
      baselines.emplace(entry->name, load_report(path->string()));
  }

  const bool has_cuda = budget::cuda_device_present(environment);
  budget::EvaluateOptions evaluate_options{
      arguments.fail_on_improvement, arguments.update_baseline, {}, {}, {}, {}, {}};
  const bool same_run_reference = arguments.units_reference == "run";
  const bool needs_units = std::any_of(selected.begin(), selected.end(),
                                       [](const auto* entry) { return entry->budgets.cold_units.has_value(); });
  // The stored calibration is the fallback and the cross-check of a run's own reference. An
  // explicit --calibration must exist; so must some calibration when units come only from it.
  const bool explicit_calibration = !arguments.calibration_path.empty();
  if (needs_units || explicit_calibration) {
    const auto path = explicit_calibration ? std::filesystem::path(arguments.calibration_path)
                                           : calibrate::default_calibration_path();
    evaluate_options.calibration = calibrate::load_calibration(path);
    if (!evaluate_options.calibration && (explicit_calibration || !same_run_reference)) {
      throw UsageError("calibration " + path.string() +
                       " does not exist: run `warp-compile-probe calibrate --warp-cpu` (or pass --calibration FILE)");
    }
    if (evaluate_options.calibration) {
      evaluate_options.calibration_source = path.string();
      context.out << "Calibration: " << path.string() << " (" << evaluate_options.calibration->created_at << ")\n";
    }
  }
  // Each entry's reference runs with its own command's interpreter unless one is given.
  const auto reference_setup_for = [&arguments](const budget::CommandEntry& entry) {
    reference::ReferenceSetup setup;
    setup.python = reference_python_of(arguments.reference_python, entry.command, entry.cwd);
    setup.kind = reference_kind_of(entry);
    return setup;
  };
  // A reference interpreter that does not exist is a usage error, found before anything runs.
  for (const auto* entry : selected) {
    if (same_run_reference && wants_reference(*entry, baselines)) reference::validate(reference_setup_for(*entry));
  }
  // A history that would be refused stops the check before anything runs.
  const auto history = history::Recorder::open_if_asked(arguments.history, environment, context.interrupts);
  // --against-branch: every entry's baseline comes from that branch's recent runs, read before
  // this check records its own (history/branch_baseline.h).
  std::vector<history::Result> branch_runs;
  if (!arguments.against_branch.empty()) {
    if (!history) throw UsageError("--against-branch reads the history: pass --history or set WCP_HISTORY");
    if (arguments.update_baseline)
      throw UsageError("--against-branch takes its baseline from the history: drop --update-baseline");
    branch_runs = history->results();
  }
  const auto history_baseline_for = [&](const budget::CommandEntry& entry, const Report& so_far,
                                        budget::EvaluateOptions& options) -> std::optional<Report> {
    if (arguments.against_branch.empty()) return std::nullopt;
    const auto query = history::branch_query_for(so_far, history->machine(), arguments.against_branch, entry.name,
                                                 arguments.against_runs);
    auto found = history::branch_baseline(branch_runs, query);
    options.history_baseline = budget::EvaluateOptions::HistoryBaseline{found.description, found.not_enough};
    return std::move(found.baseline);
  };
  // Each command's noise when its own runs are too few to measure it: its earlier runs in the
  // history (read before this run is recorded), else the calibration.
  PriorNoise prior_noise(arguments.history, environment, context.interrupts, evaluate_options.calibration,
                         evaluate_options.calibration_source);
  budget::CheckResult result;
  result.file = file.path;
  render::render_budget_header(file.path, context.out);
  const auto render_command = [&arguments, &context](const budget::CommandResult& command_result) {
    if (arguments.verbose) {
      render::render_command_result(command_result, context.out);
    } else {
      render::render_command_summary(command_result, context.out);
    }
  };
  for (const auto* entry : selected) {
    if (entry->device == budget::DeviceRequirement::cuda && !has_cuda) {
      budget::CommandResult skipped;
      skipped.name = entry->name;
      skipped.line = entry->line;
      skipped.device = entry->device;
      skipped.not_run = "needs a CUDA device and this machine has none (set WCP_CUDA_DEVICE=1 to override)";
      render_command(skipped);
      result.commands.push_back(std::move(skipped));
      continue;
    }
    if (!arguments.quiet) {
      context.err << "measuring " << entry->name
                  << (entry->auto_samples ? fmt::format(" (samples: auto, at most {})", entry->samples)
                                          : fmt::format(" ({} sample(s))", entry->samples))
                  << "\n";
    }
    CommandProgress progress(context.err, arguments.quiet);
    measure::ProgressListener& listener = progress.listener();
    const auto found = baselines.find(entry->name);
    std::optional<Report> baseline = found == baselines.end() || !arguments.against_branch.empty()
                                         ? std::nullopt
                                         : std::optional<Report>(found->second);
    // The first estimate: the last run of this command here, else the baseline's passes.
    if (const auto pass_ms = history ? history->earlier_pass_ms(entry->command, entry->cwd) : std::nullopt) {
      listener.expect(*pass_ms, "the history");
    } else if (baseline && baseline->cold_wall_ms) {
      listener.expect(baseline->warm_wall_ms ? (baseline->cold_wall_ms->median + baseline->warm_wall_ms->median) / 2.0
                                             : baseline->cold_wall_ms->median,
                      "the baseline");
    }
    budget::EvaluateOptions entry_options = evaluate_options;
    // samples: auto stops once the runs so far decide every budget (budget/auto_sampling.h).
    measure::StopSampling stop;
    if (entry->auto_samples) {
      stop = [&](const Report& so_far) {
        // A new baseline is the level every later check is weighed against: it takes enough
        // runs to measure its own noise, so one slow or fast run never becomes the reference.
        if (arguments.update_baseline && entry->baseline_report &&
            so_far.samples < static_cast<int>(kMinimumNoiseSamples))
          return false;
        budget::EvaluateOptions options = evaluate_options;
        options.prior_noise = prior_noise.for_report(so_far);
        options.prior_cpu_noise = prior_noise.cpu_for_report(so_far);
        const auto from_history = history_baseline_for(*entry, so_far, options);
        auto trial =
            budget::evaluate(*entry, so_far, arguments.against_branch.empty() ? baseline : from_history, options);
        return budget::assess_sampling(trial, *entry, so_far, options.prior_noise, options.prior_cpu_noise);
      };
    }
    Report report;
    if (same_run_reference && wants_reference(*entry, baselines)) {
      report = reference::measure_with_reference(measure_options_for(*entry), reference_setup_for(*entry),
                                                 context.interrupts, listener, stop)
                   .report;
    } else {
      report = measure::measure(measure_options_for(*entry), context.interrupts, listener, {}, stop);
    }

    entry_options.prior_noise = prior_noise.for_report(report);
    entry_options.prior_cpu_noise = prior_noise.cpu_for_report(report);
    if (!arguments.against_branch.empty()) baseline = history_baseline_for(*entry, report, entry_options);
    auto command_result = budget::evaluate(*entry, report, baseline, entry_options);
    budget::assess_sampling(command_result, *entry, report, entry_options.prior_noise, entry_options.prior_cpu_noise);
    if (arguments.update_baseline && entry->baseline_report) update_baseline(*entry, report, command_result);
    // `bisect` compares two commits' structure from these, without measuring either again.
    if (!report_dir.empty()) write_file_atomically(report_dir / (entry->name + ".json"), report_to_json_text(report));
    if (history) {
      history->record_kept(report, {history::Source::check, entry->cwd, entry->name, history_verdict(command_result)});
    }
    render_command(command_result);
    if (arguments.ctest_measurements) render::render_ctest_measurements(command_result, context.out);
    context.out.flush();
    result.commands.push_back(std::move(command_result));
  }
  render::render_budget_summary(result, context.out);
  if (!arguments.verbose) render::render_budget_summary_pointer(context.out);

  for (const auto& [path, format] : {std::pair{arguments.json_path, render::Format::json},
                                     std::pair{arguments.markdown_path, render::Format::markdown}}) {
    if (path.empty()) continue;
    std::ostringstream text;
    render::write(result, format, text);
    write_file_atomically(path, text.str());
  }
  if (history) history->raise_if_failed();
  if (result.failed()) return kFailed;
  if (result.all_not_run()) return kNotRun;
  return kOk;
}

}  // namespace

void add_check_command(CLI::App& root, CliContext& context) {
  const auto [command, arguments] = register_command<CheckArguments>(
      root, context, "check", "Measure the commands of a budget file and gate them on their compile budgets",
      run_check);
  command->add_option("budget_file", arguments->budget_file, "The budget file (YAML, see docs/budgets.md)")->required();
  command->add_option("--only", arguments->only, "Check only the command entry with this name");
  command->add_option("--against-branch", arguments->against_branch,
                      "Judge every entry against this branch's recent runs in the history (same command, runner "
                      "class and toolchain) instead of a baseline file; fewer than 3 matching runs: not judged");
  command
      ->add_option("--against-runs", arguments->against_runs,
                   "With --against-branch: how many of the branch's newest runs make the baseline (default 5)")
      ->check(CLI::Range(3, 100));
  command->add_flag("--update-baseline", arguments->update_baseline,
                    "After a run whose other budgets pass, write its report over each baseline");
  command->add_flag("--fail-on-improvement", arguments->fail_on_improvement,
                    "Fail when a command beats its baseline beyond the noise band (ratcheting)");
  add_shared_options(*command, {.json = {&arguments->json_path, "the result"},
                                .markdown = {&arguments->markdown_path, "a summary (CI step summary, PR comment)"},
                                .quiet = &arguments->quiet,
                                .verbose = {&arguments->verbose, "every note, reference and offender of each budget"},
                                .reference_python = {&arguments->reference_python, "each command's"},
                                .history = {&arguments->history, "each command's result"}});
  command->add_option("--report-dir", arguments->report_dir,
                      "Also write each measured command's report (as `measure --json` writes it) to DIR/NAME.json");
  command->add_option("--calibration", arguments->calibration_path,
                      "Calibration file: the fallback and cross-check of cold_units' reference (default: this host's "
                      "file from `calibrate`)");
  command
      ->add_option("--units-reference", arguments->units_reference,
                   "Where cold_units' reference comes from: run (measured beside each command, interleaved with "
                   "its samples) or calibration (the stored one; faster, blind to this run's load)")
      ->check(CLI::IsMember({"run", "calibration"}))
      ->capture_default_str();
  command->add_flag("--ctest-measurements", arguments->ctest_measurements,
                    "Also print each budget's measured value and limit as <CTestMeasurement> lines (CTest/CDash "
                    "charts them; warp_add_compile_budgets passes this)");
  command->add_flag("--list", arguments->list,
                    "Validate the file and print name;samples;timeout;device per entry, run nothing");
}

}  // namespace wcp::cli
