#include "budget/evaluate.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "analysis/diagnose.h"
#include "budget/budget_keys.h"
#include "budget/cuda_budgets.h"
#include "budget/offenders.h"
#include "budget/stable_hashes.h"
#include "budget/test_budgets.h"
#include "facts/queries.h"
#include "facts/rebuilds.h"
#include "facts/reference_units.h"
#include "verdict/identity_changes.h"
#include "verdict/normalised.h"

namespace wcp::budget {
namespace {

// How many offenders a timing or size failure lists: enough to act on, short enough to read.
constexpr std::size_t kTopOffenders = 3;

BudgetOutcome ceiling(std::string_view budget, std::optional<double> measured, double limit, Unit unit) {
  BudgetOutcome outcome;
  outcome.budget = std::string(budget);
  outcome.measured = measured;
  outcome.limit = limit;
  outcome.unit = unit;
  // Missing is not zero: a ceiling on a value that was not measured cannot pass.
  outcome.verdict = measured && *measured <= limit ? Verdict::pass : Verdict::fail;
  if (!measured) outcome.note = "not measured in this run";
  return outcome;
}

// A count of module loads, when the run could see its loads at all.
std::optional<double> load_count(const Report& report, std::uint64_t value) {
  if (!report.loads_observed) return std::nullopt;
  return static_cast<double>(value);
}

BudgetOutcome load_ceiling(std::string_view budget, const Report& report, std::uint64_t value, double limit) {
  BudgetOutcome outcome = ceiling(budget, load_count(report, value), limit, Unit::count);
  if (!report.loads_observed) outcome.note = "not measured in this run: " + report.loads_unobserved;
  return outcome;
}

std::optional<double> seconds(const std::optional<Summary>& summary) {
  if (!summary) return std::nullopt;
  return summary->median / 1000.0;
}

BudgetOutcome builds_per_module(const Settings& budgets, const Report& report) {
  const std::uint64_t limit = budgets.max_builds_per_module.value_or(kDefaultMaxBuildsPerModule);
  std::uint64_t worst = report.modules > 0 ? 1 : 0;
  std::vector<Offender> offenders;
  std::vector<std::string> allowed;
  for (const auto& module : rebuilt_modules(report)) {
    const auto builds = static_cast<std::uint64_t>(module.builds);
    if (builds <= limit) continue;
    if (auto reason = budgets.allow_rebuilds.find(module.name); reason != budgets.allow_rebuilds.end()) {
      allowed.push_back(fmt::format("{} ({} builds, allowed: {})", module.name, builds, reason->second));
      continue;
    }
    worst = std::max(worst, builds);
    offenders.push_back(rebuild_offender(module, report));
  }
  BudgetOutcome outcome = load_ceiling(key::max_builds_per_module, report, worst, static_cast<double>(limit));
  outcome.offenders = std::move(offenders);
  if (!allowed.empty() && report.loads_observed) outcome.note = fmt::format("exempt: {}", fmt::join(allowed, "; "));
  return outcome;
}

BudgetOutcome identities(std::uint64_t limit, const Report& report) {
  BudgetOutcome outcome = load_ceiling(key::max_identities, report, report.identities, static_cast<double>(limit));
  if (outcome.verdict == Verdict::fail && report.loads_observed) {
    for (const auto& module : rebuilt_modules(report)) outcome.offenders.push_back(rebuild_offender(module, report));
    if (outcome.offenders.empty()) outcome.offenders = module_offenders(report);
  }
  return outcome;
}

BudgetOutcome warm_near_zero_budget(const Report& report) {
  // The diagnosis asks only whether the warm run compiled; this budget is a declared ceiling, so
  // it also holds the warm module work to the allowance the user signed up for.
  const auto warm_clean = warm_near_zero(report);
  const double cold = report.cold_module_ms ? report.cold_module_ms->median : 0.0;
  const auto near_zero =
      warm_clean && report.warm_module_ms
          ? std::optional<bool>(*warm_clean && report.warm_module_ms->median <= warm_allowance_ms(cold))
          : std::optional<bool>();
  BudgetOutcome outcome =
      ceiling(key::warm_near_zero, seconds(report.warm_module_ms), warm_allowance_ms(cold) / 1000.0, Unit::seconds);
  outcome.verdict = near_zero == true ? Verdict::pass : Verdict::fail;
  const auto compiles = warm_compiles(report);
  outcome.note = near_zero    ? fmt::format("warm compiles {}; limit max({:.0f}% of cold {:.2f} s, {:.2f} s)",
                                         compiles ? std::to_string(*compiles) : "unknown", 100.0 * kWarmShareOfCold,
                                            cold / 1000.0, kWarmFloorMs / 1000.0)
                 : warm_clean ? "no warm module work was measured, so it cannot pass"
                              : "whether the warm run compiled is not recorded (no successful warm run, or no "
                                "per-load record of it), so it cannot pass";
  if (outcome.verdict == Verdict::fail) outcome.offenders = warm_offenders(report);
  return outcome;
}

BudgetOutcome baseline_budget(const Settings& budgets, const Report& report, const std::optional<Report>& baseline,
                              const EvaluateOptions& options) {
  BudgetOutcome outcome;
  outcome.budget = std::string(key::baseline);
  outcome.unit = Unit::seconds;
  outcome.measured = seconds(report.cold_module_ms);
  if (options.history_baseline && !baseline) {
    outcome.verdict = Verdict::not_judged;
    outcome.note = options.history_baseline->not_enough;
    return outcome;
  }
  if (!baseline) {
    // Only reachable under --update-baseline with no baseline yet: this run becomes it.
    outcome.verdict = Verdict::accepted;
    outcome.note = "none yet: this run becomes it";
    return outcome;
  }
  verdict::JudgeOptions judge_options;
  judge_options.tolerance_percent = budgets.baseline_tolerance_percent.value_or(0.0);
  judge_options.gate_on_elapsed = budgets.gate_on_elapsed.value_or(false);
  judge_options.prior_noise = options.prior_noise;
  judge_options.prior_cpu_noise = options.prior_cpu_noise;
  judge_options.paired = options.paired_baseline;
  if (!options.paired_baseline) judge_options.stored_baseline_drift_percent = verdict::kStoredBaselineDriftPercent;
  // A band wider than the regression this budget must catch is no pass (issue 63).
  judge_options.threshold_percent =
      std::max(budgets.baseline_threshold_percent.value_or(kDefaultBaselineThresholdPercent),
               budgets.baseline_tolerance_percent.value_or(0.0));
  judge_options.how_to_decide =
      options.paired_baseline
          ? "take more pairs (samples) or run on a quieter runner"
          : "decide it with paired runs in one job: `check --against-rev <merge base>` (docs/budgets.md#against-rev)";
  // In reference units when both runs measured one: a baseline then carries over between machines.
  verdict::Judgement judgement = verdict::judge_normalised(*baseline, report, judge_options);
  if (judgement.module_work.baseline && judgement.module_work.band_ms) {
    outcome.limit = (judgement.module_work.baseline->median + *judgement.module_work.band_ms) / 1000.0;
  }
  // Beside its limit the measured value must be on the same scale: judged in reference units,
  // that is the candidate's work expressed at the baseline's reference.
  outcome.measured = seconds(judgement.module_work.candidate);
  outcome.note = fmt::format("{}: {}", verdict::to_string(judgement.verdict), judgement.reason);
  if (options.history_baseline) outcome.note += fmt::format(" (against {})", options.history_baseline->description);
  if (options.paired_baseline && !options.baseline_description.empty()) {
    outcome.note += fmt::format(" (against {}, measured in pairs in this job)", options.baseline_description);
  }
  switch (judgement.verdict) {
    case verdict::Verdict::invalid:
      outcome.verdict = Verdict::fail;
      break;
    case verdict::Verdict::regression:
      outcome.verdict = Verdict::fail;
      outcome.offenders = slowest_offenders(report, kTopOffenders);
      for (const auto& module : rebuilt_modules(report)) outcome.offenders.push_back(rebuild_offender(module, report));
      break;
    case verdict::Verdict::improved:
      outcome.verdict = options.fail_on_improvement ? Verdict::fail : Verdict::improved;
      outcome.note += options.fail_on_improvement
                          ? "; beats the baseline (--fail-on-improvement): run `check --update-baseline`"
                          : "; run `check --update-baseline` to lock it in";
      break;
    case verdict::Verdict::inconclusive:
    case verdict::Verdict::unverified:
    case verdict::Verdict::unchanged:
      outcome.verdict = Verdict::pass;
      break;
    case verdict::Verdict::not_judged:
      outcome.verdict = Verdict::not_judged;
      break;
  }
  if (options.updating_baseline && !options.history_baseline) outcome.verdict = Verdict::accepted;
  outcome.judgement = std::move(judgement);
  return outcome;
}

std::string why_no_same_run_reference(const Report& report) {
  if (!report.reference) return "this run took no reference";
  if (!report.reference->unavailable.empty())
    return "this run's reference was unavailable: " + report.reference->unavailable;
  for (const auto& sample : report.reference->samples) {
    if (!sample.failure.empty()) return "this run's reference samples failed: " + sample.failure;
  }
  return "no command sample had a reference partner with a cold module work";
}

// Units from the reference measured beside the command, cross-checked against the stored one.
ReferenceUse same_run_use(const MachineReference& reference, const calibrate::StoredReference* stored) {
  ReferenceUse use;
  use.kind = reference.kind;
  use.name = reference.name;
  use.description = reference.description;
  use.same_run = true;
  use.source = "this run";
  use.cost_ms = *reference.cost_ms;
  use.units = *reference.cold_units;
  if (stored && stored->name == reference.name && stored->cost_ms.median > 0.0) {
    use.stored_ms = stored->cost_ms.median;
    use.drift = reference_drift(use.cost_ms.median, *use.stored_ms);
  }
  return use;
}

BudgetOutcome cold_units(double limit, const Report& report, const EvaluateOptions& options,
                         std::vector<std::string>& notes) {
  BudgetOutcome outcome;
  outcome.budget = std::string(key::cold_units);
  outcome.limit = limit;
  outcome.unit = Unit::units;
  outcome.verdict = Verdict::fail;
  if (!report.cold_module_ms) {
    outcome.note = "cold module work was not measured in this run, so there are no units";
    return outcome;
  }
  const ReferenceKind kind = report.reference ? report.reference->kind : reference_kind_for(report);
  const calibrate::StoredReference* stored = options.calibration ? options.calibration->reference_for(kind) : nullptr;
  const bool have_same_run = report.reference && report.reference->cost_ms && report.reference->cold_units;
  ReferenceUse use;
  if (have_same_run) {
    use = same_run_use(*report.reference, stored);
  } else if (stored && stored->cost_ms.median > 0.0) {
    // The fallback: right for a machine like the one calibrated, blind to this run's load.
    use.kind = kind;
    use.name = stored->name;
    use.description = stored->description;
    use.same_run = false;
    use.source = fmt::format("calibration {} ({})", options.calibration_source, options.calibration->created_at);
    use.cost_ms = stored->cost_ms;
    use.stored_ms = stored->cost_ms.median;
    if (auto units = cold_units_against(report.sample_results, stored->cost_ms.median)) use.units = *units;
    notes.push_back(
        fmt::format("cold_units uses the stored {} reference ({}), which cannot see the load this run "
                    "ran under: {}",
                    to_string(kind), use.source, why_no_same_run_reference(report)));
  } else {
    outcome.note = why_no_same_run_reference(report) + "; and " +
                   (options.calibration ? fmt::format("calibration {} has no {} reference (run `warp-compile-probe "
                                                      "calibrate{}`)",
                                                      options.calibration_source, to_string(kind),
                                                      kind == ReferenceKind::warp_cpu ? " --warp-cpu" : "")
                                        : std::string("there is no calibration to fall back on"));
    return outcome;
  }
  if (use.units.count == 0) {
    outcome.note = "no sample had both a cold module work and a reference cost";
    return outcome;
  }
  use.band_units = units_band(use.units);
  outcome.measured = use.units.median;
  outcome.verdict = *outcome.measured <= limit ? Verdict::pass : Verdict::fail;
  outcome.note =
      fmt::format("median cold module work {:.1f} ms; reference {:.1f} ms (MAD {:.1f}, {}); band ±{:.2f} units",
                  report.cold_module_ms->median, use.cost_ms.median, use.cost_ms.mad.value_or(0.0),
                  use.same_run ? "measured in this run" : use.source, use.band_units);
  if (use.drift && drift_worth_a_warning(*use.drift)) {
    notes.push_back(fmt::format(
        "WARNING: this run's {} reference ({:.1f} ms) is {:+.0f}% off the stored calibration's "
        "({:.1f} ms, {}): the machine is busier, slower or faster than when it was "
        "calibrated; units follow this run's reference",
        to_string(use.kind), use.cost_ms.median, 100.0 * *use.drift, *use.stored_ms, options.calibration_source));
  }
  if (outcome.verdict == Verdict::fail) outcome.offenders = slowest_offenders(report, kTopOffenders);
  outcome.reference = std::move(use);
  return outcome;
}

// What a CI cache must hold for the command: the audit's needed entries when the report has an
// audit (`measure --warm-cache`), else everything the cold run wrote into its empty cache.
BudgetOutcome cache_bytes(std::uint64_t limit, const Report& report) {
  if (report.cache_audit) {
    const auto& audit = *report.cache_audit;
    std::optional<double> needed;
    if (audit.measured()) needed = static_cast<double>(totals_of(audit).needed_bytes);
    BudgetOutcome outcome = ceiling(key::max_cache_bytes, needed, static_cast<double>(limit), Unit::bytes);
    outcome.note = needed ? "entries the --warm-cache pass read or wrote"
                          : "not measured: the warm cache was not audited (" +
                                (audit.pass_ok ? audit.unavailable : audit.pass_failure) + ")";
    return outcome;
  }
  const auto& total = report.cache.total_bytes;
  BudgetOutcome outcome =
      ceiling(key::max_cache_bytes, total ? std::optional<double>(static_cast<double>(*total)) : std::nullopt,
              static_cast<double>(limit), Unit::bytes);
  outcome.note = total ? "all the cold run wrote into its empty private cache"
                       : "not measured: the report does not record its cache's size (a report before schema 7)";
  return outcome;
}

}  // namespace

CommandResult evaluate(const CommandEntry& entry, const Report& report, const std::optional<Report>& baseline,
                       const EvaluateOptions& options) {
  CommandResult result;
  result.name = entry.name;
  result.line = entry.line;
  result.device = entry.device;
  if (!report.measured()) {
    const auto& samples = report.sample_results;
    result.run_failure = samples.empty() || samples.front().failure.empty()
                             ? "every sample failed"
                             : "every sample failed: " + samples.front().failure;
    return result;
  }
  if (report.failed_samples > 0) {
    result.notes.push_back(
        fmt::format("{} of {} samples failed; budgets use the others", report.failed_samples, report.samples));
  }
  for (const auto& note : report.notes) result.notes.push_back(note);

  const Settings& budgets = entry.budgets;
  auto& outcomes = result.outcomes;
  if (budgets.max_modules) {
    outcomes.push_back(
        load_ceiling(key::max_modules, report, report.modules, static_cast<double>(*budgets.max_modules)));
    if (outcomes.back().verdict == Verdict::fail && report.loads_observed)
      outcomes.back().offenders = module_offenders(report);
  }
  if (budgets.max_identities) outcomes.push_back(identities(*budgets.max_identities, report));
  outcomes.push_back(builds_per_module(budgets, report));
  for (auto& outcome : test_budget_outcomes(budgets, report)) outcomes.push_back(std::move(outcome));
  if (budgets.cold_seconds) {
    outcomes.push_back(
        ceiling(key::cold_seconds, seconds(report.cold_module_ms), *budgets.cold_seconds, Unit::seconds));
    if (report.cold_module_ms) outcomes.back().note = "median cold module work";
    if (outcomes.back().verdict == Verdict::fail) outcomes.back().offenders = slowest_offenders(report, kTopOffenders);
  }
  if (budgets.cold_cpu_seconds) {
    outcomes.push_back(
        ceiling(key::cold_cpu_seconds, seconds(report.cold_module_cpu_ms), *budgets.cold_cpu_seconds, Unit::seconds));
    outcomes.back().note = report.cold_module_cpu_ms ? std::string("median cold module CPU")
                                                     : fmt::format("unavailable: {}; so it cannot pass",
                                                                   report.module_cpu_unavailable.empty()
                                                                       ? std::string("no CPU clock was measured")
                                                                       : report.module_cpu_unavailable);
    if (outcomes.back().verdict == Verdict::fail && report.cold_module_cpu_ms)
      outcomes.back().offenders = slowest_offenders(report, kTopOffenders);
  }
  if (budgets.cold_units) outcomes.push_back(cold_units(*budgets.cold_units, report, options, result.notes));
  if (budgets.compile_elapsed_seconds) {
    // Only credited samples: a warm wall not below its cold wall is no compile time (facts/queries.h).
    const auto elapsed = credited_compile_elapsed(report);
    const auto left_out = elapsed_left_out(report);
    outcomes.push_back(
        ceiling(key::compile_elapsed_seconds, seconds(elapsed), *budgets.compile_elapsed_seconds, Unit::seconds));
    outcomes.back().note =
        elapsed
            ? "median cold wall minus warm wall" +
                  (left_out.empty() ? std::string()
                                    : fmt::format(" of the credited samples (left out: {})", fmt::join(left_out, "; ")))
        : left_out.empty() ? "unavailable: no successful warm run, so it cannot pass"
                           : fmt::format("unavailable: {}; so it cannot pass", fmt::join(left_out, "; "));
    if (outcomes.back().verdict == Verdict::fail) outcomes.back().offenders = slowest_offenders(report, kTopOffenders);
  }
  if (budgets.warm_near_zero.value_or(false)) outcomes.push_back(warm_near_zero_budget(report));
  const bool judged_on_baseline = entry.baseline_report || options.history_baseline || options.paired_baseline;
  if (judged_on_baseline) outcomes.push_back(baseline_budget(budgets, report, baseline, options));
  if (judged_on_baseline && baseline) result.since_baseline = verdict::compare_identities(*baseline, report);
  if (budgets.max_generated_source_bytes) {
    outcomes.push_back(ceiling(key::max_generated_source_bytes,
                               static_cast<double>(report.cache.generated_source_bytes),
                               static_cast<double>(*budgets.max_generated_source_bytes), Unit::bytes));
    if (outcomes.back().verdict == Verdict::fail) outcomes.back().offenders = source_offenders(report, kTopOffenders);
  }
  if (budgets.max_lto_artifacts) {
    outcomes.push_back(ceiling(key::max_lto_artifacts, static_cast<double>(report.cache.lto_artifacts),
                               static_cast<double>(*budgets.max_lto_artifacts), Unit::count));
  }
  if (budgets.stable_hashes.value_or(false)) outcomes.push_back(stable_hashes_budget(report));
  if (budgets.max_cache_bytes) outcomes.push_back(cache_bytes(*budgets.max_cache_bytes, report));
  for (auto& outcome : cuda_budget_outcomes(entry, report)) outcomes.push_back(std::move(outcome));
  // The diagnosis runs only when something failed: it is the explanation, not a budget.
  if (result.failed()) {
    const analysis::Diagnosis diagnosis = analysis::diagnose(report);
    for (auto& outcome : outcomes) attach_findings(outcome.offenders, diagnosis);
  }
  return result;
}

}  // namespace wcp::budget
