// `check BUDGET.yaml`: measure each command of a budget file and gate it on its budgets.
// Exit codes: 0 all pass, 1 a budget failed, 2 configuration error, 77 (kNotRun) nothing was
// run because every selected command needs a device this machine lacks (CTest SKIP_RETURN_CODE).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>

#include "bisect/revision_checkout.h"
#include "budget/budget_parse.h"
#include "budget/check_workflow.h"
#include "budget/cuda_device.h"
#include "budget/evaluate.h"
#include "calibrate/calibration.h"
#include "cli/command_progress.h"
#include "cli/commands.h"
#include "cli/common_options.h"
#include "cli/option_table.h"
#include "cli/outputs.h"
#include "codec/report_json.h"
#include "errors.h"
#include "history/branch_baseline.h"
#include "history/prior_noise.h"
#include "history/recorder.h"
#include "io/environment.h"
#include "io/file_io.h"
#include "measure/measure.h"
#include "reference/measure_with_reference.h"
#include "render/budget_ctest.h"
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
  std::string against_rev;
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
  return {.command = entry.command,
          .cwd = entry.cwd,
          .samples = entry.samples,
          .timeout = entry.timeout,
          .label = entry.name,
          .extra_environment = entry.env,
          .cold_only = false,
          .check_output = false,
          .ignore_output = {},
          .stable_hashes = entry.budgets.stable_hashes.value_or(false),
          .warm_cache = std::nullopt,
          .cuda_archs = entry.cuda_archs};
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

// The stored calibration is the fallback and the cross-check of a run's own reference. An
// explicit --calibration must exist; so must some calibration when units come only from it.
void load_calibration_for(const CheckArguments& arguments, const std::vector<const budget::CommandEntry*>& selected,
                          budget::EvaluateOptions& options, CliContext& context) {
  const bool needs_units = std::any_of(selected.begin(), selected.end(),
                                       [](const auto* entry) { return entry->budgets.cold_units.has_value(); });
  const bool explicit_calibration = !arguments.calibration_path.empty();
  if (!needs_units && !explicit_calibration) return;
  const auto path =
      explicit_calibration ? std::filesystem::path(arguments.calibration_path) : calibrate::default_calibration_path();
  options.calibration = calibrate::load_calibration(path);
  if (!options.calibration && (explicit_calibration || arguments.units_reference != "run")) {
    throw UsageError("calibration " + path.string() +
                     " does not exist: run `warp-compile-probe calibrate --warp-cpu` (or pass --calibration FILE)");
  }
  if (options.calibration) {
    options.calibration_source = path.string();
    context.out << "Calibration: " << path.string() << " (" << options.calibration->created_at << ")\n";
  }
}

// Every baseline is read before the first run, so a corrupt one fails in seconds, not after
// minutes of measuring.
std::map<std::string, Report> read_baselines(const std::vector<const budget::CommandEntry*>& selected) {
  std::map<std::string, Report> baselines;
  for (const auto* entry : selected) {
    const auto& path = entry->baseline_report;
    std::error_code ignored;
    if (path && std::filesystem::is_regular_file(*path, ignored))
      baselines.emplace(entry->name, load_report(path->string()));
  }
  return baselines;
}

// Made and probed up front, like the other outputs, so a bad destination costs no measuring.
void prepare_outputs(const CheckArguments& arguments) {
  if (!arguments.json_path.empty()) require_writable_destination(arguments.json_path, "--json");
  if (!arguments.markdown_path.empty()) require_writable_destination(arguments.markdown_path, "--markdown");
  const std::filesystem::path report_dir = arguments.report_dir;
  if (report_dir.empty()) return;
  std::error_code error;
  std::filesystem::create_directories(report_dir, error);
  if (error) throw UsageError("--report-dir " + report_dir.string() + ": " + error.message());
  require_writable_destination(report_dir / "report.json", "--report-dir");
}

// The check workflow's steps on the floors above budget/: measuring (with the machine
// reference where units are read), the history's noise and branch baselines, recording and
// printing each entry as it finishes.
class CheckWiring final : public budget::CheckSteps {
 public:
  CheckWiring(const CheckArguments& arguments, CliContext& context, const EnvironmentLookup& environment,
              const budget::CheckPlan& plan, history::Recorder* history)
      : arguments_(arguments),
        context_(context),
        plan_(plan),
        history_(history),
        prior_noise_(arguments.history, environment, context.interrupts, plan.options.calibration,
                     plan.options.calibration_source) {
    // A reference interpreter that does not exist is a usage error, found before anything runs.
    for (const auto* entry : plan.selected) {
      if (same_run_reference() && wants_reference(*entry, plan.baselines)) reference::validate(reference_setup(*entry));
    }
    // --against-branch: every entry's baseline comes from that branch's recent runs, read
    // before this check records its own (history/branch_baseline.h).
    if (plan.baselines_from_history) branch_runs_ = history_->results();
    // Every revision is resolved and checked out before the first run: a typo fails in a second.
    for (const auto* entry : plan.selected) {
      if (const auto revision = budget::revision_of(plan, *entry)) checkout_of(*revision, *entry);
    }
  }

  Report measure(const budget::CommandEntry& entry, const std::optional<Report>& baseline,
                 const measure::StopSampling& stop) override {
    if (!arguments_.quiet) {
      context_.err << "measuring " << entry.name
                   << (entry.auto_samples ? fmt::format(" (samples: auto, at most {})", entry.samples)
                                          : fmt::format(" ({} sample(s))", entry.samples))
                   << "\n";
    }
    CommandProgress progress(context_.err, arguments_.quiet);
    measure::ProgressListener& listener = progress.listener();
    // The first estimate: the last run of this command here, else the baseline's passes.
    if (const auto pass_ms = history_ ? history_->earlier_pass_ms(entry.command, entry.cwd) : std::nullopt) {
      listener.expect(*pass_ms, "the history");
    } else if (baseline && baseline->cold_wall_ms) {
      listener.expect(baseline->warm_wall_ms ? (baseline->cold_wall_ms->median + baseline->warm_wall_ms->median) / 2.0
                                             : baseline->cold_wall_ms->median,
                      "the baseline");
    }
    if (same_run_reference() && wants_reference(entry, plan_.baselines)) {
      return reference::measure_with_reference(measure_options_for(entry), reference_setup(entry), context_.interrupts,
                                               listener, stop)
          .report;
    }
    return measure::measure(measure_options_for(entry), context_.interrupts, listener, {}, stop);
  }

  measure::AbReports measure_against_revision(const budget::CommandEntry& entry, const std::string& revision,
                                              int most_pairs, const measure::StopPairs& stop,
                                              std::string& description) override {
    const auto& checkout = checkout_of(revision, entry);
    description = checkout->description();
    if (!arguments_.quiet) {
      context_.err << "measuring " << entry.name << " against " << checkout->description() << " in pairs (at most "
                   << most_pairs << ")\n";
    }
    CommandProgress progress(context_.err, arguments_.quiet);
    measure::MeasureOptions here = measure_options_for(entry);
    measure::MeasureOptions there = checkout->at_revision(here);
    there.label = entry.name + "@" + checkout->description();
    return measure::measure_ab(there, here, most_pairs, context_.interrupts, progress.listener(), stop);
  }

  budget::EarlierNoise earlier_noise(const Report& report) override {
    return {prior_noise_.for_report(report), prior_noise_.cpu_for_report(report)};
  }

  std::optional<Report> history_baseline(const budget::CommandEntry& entry, const Report& so_far,
                                         budget::EvaluateOptions& options) override {
    const auto query = history::branch_query_for(so_far, history_->machine(), arguments_.against_branch, entry.name,
                                                 arguments_.against_runs);
    auto found = history::branch_baseline(branch_runs_, query);
    options.history_baseline = budget::EvaluateOptions::HistoryBaseline{found.description, found.not_enough};
    return std::move(found.baseline);
  }

  void finished(const budget::CommandEntry& entry, const Report* report, const budget::CommandResult& result) override {
    if (report != nullptr) {
      // `bisect` compares two commits' structure from these, without measuring either again.
      if (!arguments_.report_dir.empty()) {
        write_file_atomically(std::filesystem::path(arguments_.report_dir) / (entry.name + ".json"),
                              report_to_json_text(*report));
      }
      if (history_) {
        history_->record_kept(*report, {history::Source::check, entry.cwd, entry.name, budget::outcome_word(result)});
      }
    }
    if (arguments_.verbose) {
      render::render_command_result(result, context_.out);
    } else {
      render::render_command_summary(result, context_.out);
    }
    if (report != nullptr && arguments_.ctest_measurements) render::render_ctest_measurements(result, context_.out);
    context_.out.flush();
  }

 private:
  const std::unique_ptr<bisect::RevisionCheckout>& checkout_of(const std::string& revision,
                                                               const budget::CommandEntry& entry) {
    auto& checkout = checkouts_[revision];
    if (!checkout) checkout = std::make_unique<bisect::RevisionCheckout>(revision, entry.cwd);
    return checkout;
  }
  bool same_run_reference() const { return arguments_.units_reference == "run"; }
  // Each entry's reference runs with its own command's interpreter unless one is given.
  reference::ReferenceSetup reference_setup(const budget::CommandEntry& entry) const {
    reference::ReferenceSetup setup;
    setup.python = reference_python_of(arguments_.reference_python, entry.command, entry.cwd);
    setup.kind = reference_kind_of(entry);
    return setup;
  }

  const CheckArguments& arguments_;
  CliContext& context_;
  const budget::CheckPlan& plan_;
  history::Recorder* history_;
  history::PriorNoise prior_noise_;
  std::vector<history::Result> branch_runs_;
  // One scratch worktree per revision, kept for the whole check and removed with it.
  std::map<std::string, std::unique_ptr<bisect::RevisionCheckout>> checkouts_;
};

int run_check(const CheckArguments& arguments, CliContext& context) {
  const auto environment = process_environment();
  budget::LoadOptions load_options;
  // Listing only names the entries (CMake's configure step calls it): a baseline not yet made
  // is for the check itself to refuse.
  load_options.baseline_may_be_missing = arguments.update_baseline || arguments.list;
  const budget::BudgetFile file = budget::load_budget_file(arguments.budget_file, environment, load_options);
  if (arguments.list) return list_entries(file, context);
  budget::CheckPlan plan;
  plan.selected = budget::select_entries(file, arguments.only);
  prepare_outputs(arguments);
  plan.baselines = read_baselines(plan.selected);
  plan.cuda_present = budget::cuda_device_present(environment);
  plan.update_baseline = arguments.update_baseline;
  plan.options.fail_on_improvement = arguments.fail_on_improvement;
  plan.options.updating_baseline = arguments.update_baseline;
  load_calibration_for(arguments, plan.selected, plan.options, context);
  // A history that would be refused stops the check before anything runs.
  const auto history = history::Recorder::open_if_asked(arguments.history, environment, context.interrupts);
  if (!arguments.against_branch.empty()) {
    if (!history) throw UsageError("--against-branch reads the history: pass --history or set WCP_HISTORY");
    if (arguments.update_baseline)
      throw UsageError("--against-branch takes its baseline from the history: drop --update-baseline");
    plan.baselines_from_history = true;
  }
  if (!arguments.against_rev.empty()) {
    if (!arguments.against_branch.empty()) throw UsageError("--against-rev and --against-branch: choose one baseline");
    plan.against_rev = arguments.against_rev;
  }
  CheckWiring wiring(arguments, context, environment, plan, history ? &*history : nullptr);

  render::render_budget_header(file.path, context.out);
  budget::CheckResult result = budget::run_check_workflow(plan, wiring);
  result.file = file.path;
  render::render_budget_summary(result, context.out);
  if (!arguments.verbose) render::render_budget_summary_pointer(context.out);
  write_outputs(result,
                {{arguments.json_path, render::Format::json}, {arguments.markdown_path, render::Format::markdown}});
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
  add_options(
      *command,
      {{"budget_file", &arguments->budget_file, "The budget file (YAML, see docs/budgets.md)", {.required = true}},
       {"--only", &arguments->only, "Check only the command entry with this name"},
       {"--against-branch", &arguments->against_branch,
        "Judge every entry against this branch's recent runs in the history (same command, runner class and "
        "toolchain) instead of a baseline file; fewer than 3 matching runs: not judged"},
       {"--against-rev", &arguments->against_rev,
        "Judge every entry against this git revision (in CI, the merge base), measured in a scratch worktree "
        "interleaved with the working tree; entries whose compiled identities did not change are decided after one "
        "pair"},
       {"--against-runs",
        &arguments->against_runs,
        "With --against-branch: how many of the branch's newest runs make the baseline (default 5)",
        {.check = CLI::Range(3, 100)}},
       {"--update-baseline", &arguments->update_baseline,
        "After a run whose other budgets pass, write its report over each baseline"},
       {"--fail-on-improvement", &arguments->fail_on_improvement,
        "Fail when a command beats its baseline beyond the noise band (ratcheting)"}});
  add_shared_options(*command, {.json = {&arguments->json_path, "the result"},
                                .markdown = {&arguments->markdown_path, "a summary (CI step summary, PR comment)"},
                                .quiet = &arguments->quiet,
                                .verbose = {&arguments->verbose, "every note, reference and offender of each budget"},
                                .reference_python = {&arguments->reference_python, "each command's"},
                                .history = {&arguments->history, "each command's result"}});
  add_options(
      *command,
      {{"--report-dir", &arguments->report_dir,
        "Also write each measured command's report (as `measure --json` writes it) to DIR/NAME.json"},
       {"--calibration", &arguments->calibration_path,
        "Calibration file: the fallback and cross-check of cold_units' reference (default: this host's file from "
        "`calibrate`)"},
       {"--units-reference",
        &arguments->units_reference,
        "Where cold_units' reference comes from: run (measured beside each command, interleaved with its samples) or "
        "calibration (the stored one; faster, blind to this run's load)",
        {.show_default = true, .check = CLI::IsMember({"run", "calibration"})}},
       {"--ctest-measurements", &arguments->ctest_measurements,
        "Also print each budget's measured value and limit as <CTestMeasurement> lines (CTest/CDash charts them; "
        "warp_add_compile_budgets passes this)"},
       {"--list", &arguments->list, "Validate the file and print name;samples;timeout;device per entry, run nothing"}});
}

}  // namespace wcp::cli
