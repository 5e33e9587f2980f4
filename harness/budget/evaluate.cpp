#include "budget/evaluate.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <fmt/format.h>

#include "analysis/diagnose.h"
#include "budget/budget_keys.h"
#include "budget/offenders.h"
#include "calibrate/fixed_cost.h"
#include "model/queries.h"
#include "model/rebuilds.h"

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
  BudgetOutcome outcome =
      ceiling(key::max_builds_per_module, static_cast<double>(worst), static_cast<double>(limit), Unit::count);
  outcome.offenders = std::move(offenders);
  if (!allowed.empty()) outcome.note = fmt::format("exempt: {}", fmt::join(allowed, "; "));
  return outcome;
}

BudgetOutcome identities(std::uint64_t limit, const Report& report) {
  BudgetOutcome outcome =
      ceiling(key::max_identities, static_cast<double>(report.identities), static_cast<double>(limit), Unit::count);
  if (outcome.verdict == Verdict::fail) {
    for (const auto& module : rebuilt_modules(report)) outcome.offenders.push_back(rebuild_offender(module, report));
    if (outcome.offenders.empty()) outcome.offenders = module_offenders(report);
  }
  return outcome;
}

BudgetOutcome warm_near_zero_budget(const Report& report) {
  const auto near_zero = warm_near_zero(report);
  const double cold = report.cold_module_ms ? report.cold_module_ms->median : 0.0;
  BudgetOutcome outcome =
      ceiling(key::warm_near_zero, seconds(report.warm_module_ms), warm_allowance_ms(cold) / 1000.0, Unit::seconds);
  outcome.verdict = near_zero == true ? Verdict::pass : Verdict::fail;
  const auto compiles = warm_compiles(report);
  outcome.note = near_zero
                     ? fmt::format("warm compiles {}; limit max({:.0f}% of cold {:.2f} s, {:.2f} s)",
                                   compiles ? std::to_string(*compiles) : "unknown", 100.0 * kWarmShareOfCold,
                                   cold / 1000.0, kWarmFloorMs / 1000.0)
                     : "no successful warm run: the warm pass is unavailable, so it cannot pass";
  if (outcome.verdict == Verdict::fail) outcome.offenders = warm_offenders(report);
  return outcome;
}

BudgetOutcome baseline_budget(const Settings& budgets, const Report& report, const std::optional<Report>& baseline,
                              const EvaluateOptions& options) {
  BudgetOutcome outcome;
  outcome.budget = std::string(key::baseline);
  outcome.unit = Unit::seconds;
  outcome.measured = seconds(report.cold_module_ms);
  if (!baseline) {
    // Only reachable under --update-baseline with no baseline yet: this run becomes it.
    outcome.verdict = Verdict::accepted;
    outcome.note = "no baseline yet";
    return outcome;
  }
  verdict::JudgeOptions judge_options;
  judge_options.tolerance_percent = budgets.baseline_tolerance_percent.value_or(0.0);
  judge_options.gate_on_elapsed = budgets.gate_on_elapsed.value_or(false);
  verdict::Judgement judgement = verdict::judge(*baseline, report, judge_options);
  if (judgement.module_work.baseline && judgement.module_work.band_ms) {
    outcome.limit = (judgement.module_work.baseline->median + *judgement.module_work.band_ms) / 1000.0;
  }
  outcome.note = fmt::format("{}: {}", verdict::to_string(judgement.verdict), judgement.reason);
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
      outcome.verdict = Verdict::pass;
      break;
  }
  if (options.updating_baseline) outcome.verdict = Verdict::accepted;
  outcome.judgement = std::move(judgement);
  return outcome;
}

BudgetOutcome cold_units(double limit, const Report& report, const EvaluateOptions& options) {
  BudgetOutcome outcome;
  outcome.budget = std::string(key::cold_units);
  outcome.limit = limit;
  outcome.unit = Unit::units;
  outcome.verdict = Verdict::fail;
  if (!options.calibration) {
    outcome.note = "no calibration found: cold_units needs one (run `warp-compile-probe calibrate --warp-cpu`, or "
                   "pass --calibration FILE)";
    return outcome;
  }
  std::string why;
  const auto reference =
      calibrate::fixed_cost_reference(*options.calibration, backend_of(report), uses_precompiled_headers(report), why);
  if (!reference) {
    outcome.note = why + " (calibration " + options.calibration_source + ")";
    return outcome;
  }
  if (!report.cold_module_ms) {
    outcome.note = "cold module work was not measured in this run";
    return outcome;
  }
  outcome.measured = report.cold_module_ms->median / reference->ms;
  outcome.verdict = *outcome.measured <= limit ? Verdict::pass : Verdict::fail;
  outcome.note = fmt::format("median cold module work {:.1f} ms / {:.1f} ms ({}; {})", report.cold_module_ms->median,
                             reference->ms, reference->basis, options.calibration_source);
  if (outcome.verdict == Verdict::fail) outcome.offenders = slowest_offenders(report, kTopOffenders);
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
    result.run_failure = samples.empty() || samples.front().failure.empty() ? "every sample failed"
                                                                            : "every sample failed: " + samples.front().failure;
    return result;
  }
  if (report.failed_samples > 0) {
    result.notes.push_back(fmt::format("{} of {} samples failed; budgets use the others", report.failed_samples, report.samples));
  }
  for (const auto& note : report.notes) result.notes.push_back(note);

  const Settings& budgets = entry.budgets;
  auto& outcomes = result.outcomes;
  if (budgets.max_modules) {
    outcomes.push_back(
        ceiling(key::max_modules, static_cast<double>(report.modules), static_cast<double>(*budgets.max_modules), Unit::count));
    if (outcomes.back().verdict == Verdict::fail) outcomes.back().offenders = module_offenders(report);
  }
  if (budgets.max_identities) outcomes.push_back(identities(*budgets.max_identities, report));
  outcomes.push_back(builds_per_module(budgets, report));
  if (budgets.cold_seconds) {
    outcomes.push_back(ceiling(key::cold_seconds, seconds(report.cold_module_ms), *budgets.cold_seconds, Unit::seconds));
    if (report.cold_module_ms) outcomes.back().note = "median cold module work";
    if (outcomes.back().verdict == Verdict::fail) outcomes.back().offenders = slowest_offenders(report, kTopOffenders);
  }
  if (budgets.cold_units) outcomes.push_back(cold_units(*budgets.cold_units, report, options));
  if (budgets.compile_elapsed_seconds) {
    outcomes.push_back(ceiling(key::compile_elapsed_seconds, seconds(report.compile_elapsed_ms),
                               *budgets.compile_elapsed_seconds, Unit::seconds));
    outcomes.back().note = report.compile_elapsed_ms ? "median cold wall minus warm wall"
                                                     : "unavailable: no successful warm run, so it cannot pass";
    if (outcomes.back().verdict == Verdict::fail) outcomes.back().offenders = slowest_offenders(report, kTopOffenders);
  }
  if (budgets.warm_near_zero.value_or(false)) outcomes.push_back(warm_near_zero_budget(report));
  if (entry.baseline_report) outcomes.push_back(baseline_budget(budgets, report, baseline, options));
  if (budgets.max_generated_source_bytes) {
    outcomes.push_back(ceiling(key::max_generated_source_bytes, static_cast<double>(report.cache.generated_source_bytes),
                               static_cast<double>(*budgets.max_generated_source_bytes), Unit::bytes));
    if (outcomes.back().verdict == Verdict::fail) outcomes.back().offenders = source_offenders(report, kTopOffenders);
  }
  if (budgets.max_lto_artifacts) {
    outcomes.push_back(ceiling(key::max_lto_artifacts, static_cast<double>(report.cache.lto_artifacts),
                               static_cast<double>(*budgets.max_lto_artifacts), Unit::count));
  }
  // The diagnosis runs only when something failed: it is the explanation, not a budget.
  if (result.failed()) {
    const analysis::Diagnosis diagnosis = analysis::diagnose(report);
    for (auto& outcome : outcomes) attach_findings(outcome.offenders, diagnosis);
  }
  return result;
}

}  // namespace wcp::budget
