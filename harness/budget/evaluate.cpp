#include "budget/evaluate.h"

#include <algorithm>
#include <fmt/format.h>

#include "analysis/diagnose.h"
#include "analysis/rebuilds.h"
#include "budget/baseline_compare.h"
#include "budget/offenders.h"

namespace wcp::budget {
namespace {

// How many offenders a timing or size failure lists: enough to act on, short enough to read.
constexpr std::size_t kTopOffenders = 3;

BudgetOutcome ceiling(std::string budget, double measured, double limit, Unit unit) {
  BudgetOutcome outcome;
  outcome.budget = std::move(budget);
  outcome.measured = measured;
  outcome.limit = limit;
  outcome.unit = unit;
  outcome.verdict = measured <= limit ? Verdict::pass : Verdict::fail;
  return outcome;
}

BudgetOutcome builds_per_module(const Budgets& budgets, const Report& report) {
  std::uint64_t worst = report.modules > 0 ? 1 : 0;
  std::vector<Offender> offenders;
  std::vector<std::string> allowed;
  for (const auto& module : analysis::rebuilt_modules(report)) {
    const auto builds = static_cast<std::uint64_t>(module.builds);
    if (builds <= budgets.max_builds_per_module) continue;
    if (auto reason = budgets.allow_rebuilds.find(module.name); reason != budgets.allow_rebuilds.end()) {
      allowed.push_back(fmt::format("{} ({} builds, allowed: {})", module.name, builds, reason->second));
      continue;
    }
    worst = std::max(worst, builds);
    offenders.push_back(rebuild_offender(module, report));
  }
  BudgetOutcome outcome = ceiling("max_builds_per_module", static_cast<double>(worst),
                                  static_cast<double>(budgets.max_builds_per_module), Unit::count);
  outcome.offenders = std::move(offenders);
  if (!allowed.empty()) {
    outcome.note = "exempt: ";
    for (std::size_t i = 0; i < allowed.size(); ++i) outcome.note += (i ? "; " : "") + allowed[i];
  }
  return outcome;
}

BudgetOutcome identities(std::uint64_t limit, const Report& report) {
  BudgetOutcome outcome = ceiling("max_identities", static_cast<double>(report.identities), static_cast<double>(limit), Unit::count);
  if (outcome.verdict == Verdict::fail) {
    for (const auto& module : analysis::rebuilt_modules(report)) outcome.offenders.push_back(rebuild_offender(module, report));
    if (outcome.offenders.empty()) outcome.offenders = module_offenders(report);
  }
  return outcome;
}

int warm_compiles(const Report& report) {
  int compiles = 0;
  for (const auto& sample : report.sample_results) compiles = std::max(compiles, sample.warm_compiled_events.value_or(0));
  return compiles;
}

BudgetOutcome warm_near_zero(const Report& report) {
  const double allowed_ms = std::max(kWarmShareOfCold * report.cold_module_ms.median, kWarmFloorMs);
  BudgetOutcome outcome = ceiling("warm_near_zero", report.warm_module_ms.median / 1000.0, allowed_ms / 1000.0, Unit::seconds);
  const int compiles = warm_compiles(report);
  outcome.note = fmt::format("warm compiles {}; limit max(5% of cold {:.2f} s, {:.2f} s)", compiles,
                             report.cold_module_ms.median / 1000.0, kWarmFloorMs / 1000.0);
  if (compiles > 0) outcome.verdict = Verdict::fail;
  if (outcome.verdict == Verdict::fail) outcome.offenders = warm_offenders(report);
  return outcome;
}

BudgetOutcome baseline_budget(const Budgets& budgets, const Report& report, const std::optional<Report>& baseline,
                              const EvaluateOptions& options) {
  BudgetOutcome outcome;
  outcome.budget = "baseline";
  outcome.unit = Unit::seconds;
  if (!baseline) {
    // Only reachable under --update-baseline with no baseline yet: this run becomes it.
    outcome.verdict = Verdict::accepted;
    outcome.measured = report.cold_module_ms.median / 1000.0;
    outcome.note = "no baseline yet";
    return outcome;
  }
  const BaselineComparison comparison = compare_to_baseline(*baseline, report, budgets.baseline_tolerance_percent);
  outcome.measured = comparison.candidate_ms / 1000.0;
  outcome.limit = (comparison.baseline_ms + comparison.band_ms) / 1000.0;
  const double change = comparison.baseline_ms > 0 ? 100.0 * (comparison.candidate_ms / comparison.baseline_ms - 1.0) : 0.0;
  outcome.note = fmt::format("baseline {:.3f} s, noise band {:.3f} s, change {:+.1f}%", comparison.baseline_ms / 1000.0,
                             comparison.band_ms / 1000.0, change);
  if (!comparison.workload_same) {
    outcome.verdict = Verdict::fail;
    outcome.note = "workload changed (" + comparison.workload_difference + "), so timings are not comparable; " + outcome.note;
  } else if (comparison.regressed()) {
    outcome.verdict = Verdict::fail;
    outcome.offenders = slowest_offenders(report, kTopOffenders);
    for (const auto& module : analysis::rebuilt_modules(report)) outcome.offenders.push_back(rebuild_offender(module, report));
  } else if (comparison.improved()) {
    outcome.verdict = options.fail_on_improvement ? Verdict::fail : Verdict::improved;
    outcome.note += options.fail_on_improvement
                        ? "; faster than the baseline beyond its band (--fail-on-improvement): run `check --update-baseline`"
                        : "; faster than the baseline: run `check --update-baseline` to lock it in";
  } else {
    outcome.verdict = Verdict::pass;
  }
  if (options.updating_baseline) outcome.verdict = Verdict::accepted;
  return outcome;
}

BudgetOutcome cold_units(double limit, const Report& report, const EvaluateOptions& options) {
  BudgetOutcome outcome;
  outcome.budget = "cold_units";
  outcome.limit = limit;
  outcome.unit = Unit::units;
  if (!options.calibration) {
    outcome.verdict = Verdict::fail;
    outcome.note = "no calibration found: cold_units needs one (run `warp-compile-probe calibrate --warp-cpu`, or "
                   "pass --calibration FILE)";
    return outcome;
  }
  std::string backend, why;
  const auto fixed_ms = fixed_module_cost_ms(report, *options.calibration, backend, why);
  if (!fixed_ms) {
    outcome.verdict = Verdict::fail;
    outcome.note = why + " (calibration " + options.calibration_source + ")";
    return outcome;
  }
  outcome.measured = report.cold_module_ms.median / *fixed_ms;
  outcome.verdict = outcome.measured <= limit ? Verdict::pass : Verdict::fail;
  outcome.note = fmt::format("median cold module work {:.1f} ms / fixed {:.1f} ms per module ({}; calibration {} of {})",
                             report.cold_module_ms.median, *fixed_ms, backend, options.calibration_source,
                             options.calibration->created_at);
  if (outcome.verdict == Verdict::fail) outcome.offenders = slowest_offenders(report, kTopOffenders);
  return outcome;
}

}  // namespace

std::optional<double> fixed_module_cost_ms(const Report& report, const calibrate::Calibration& calibration,
                                           std::string& backend, std::string& why) {
  bool cuda = false;
  for (const auto& event : report.module_events) cuda = cuda || event.device.starts_with("cuda");
  const bool pch = report.instrumentation.use_precompiled_headers.value_or(true);
  if (cuda) {
    backend = pch ? "CUDA/NVRTC with precompiled headers" : "CUDA/NVRTC";
    if (calibration.cuda.fixtures.empty()) {
      why = "this run compiled for CUDA but the calibration has no NVRTC section: run `warp-compile-probe calibrate`";
      return std::nullopt;
    }
    return calibration.cuda_fixed_ms(pch);
  }
  backend = pch ? "Warp CPU backend with precompiled headers" : "Warp CPU backend";
  if (!calibration.warp_cpu) {
    why = "this run compiled for the CPU but the calibration has no Warp CPU section: run "
          "`warp-compile-probe calibrate --warp-cpu`";
    return std::nullopt;
  }
  const auto& model = pch && calibration.warp_cpu->with_pch ? *calibration.warp_cpu->with_pch : calibration.warp_cpu->without_pch;
  if (model.fixed_ms <= 0.0) {
    why = "the calibrated fixed cost is not positive, so nothing can be divided by it: recalibrate on a quiet machine";
    return std::nullopt;
  }
  return model.fixed_ms;
}

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

  const Budgets& budgets = entry.budgets;
  auto& outcomes = result.outcomes;
  if (budgets.max_modules) {
    outcomes.push_back(ceiling("max_modules", static_cast<double>(report.modules), static_cast<double>(*budgets.max_modules), Unit::count));
    if (outcomes.back().verdict == Verdict::fail) outcomes.back().offenders = module_offenders(report);
  }
  if (budgets.max_identities) outcomes.push_back(identities(*budgets.max_identities, report));
  outcomes.push_back(builds_per_module(budgets, report));
  if (budgets.cold_seconds) {
    outcomes.push_back(ceiling("cold_seconds", report.cold_module_ms.median / 1000.0, *budgets.cold_seconds, Unit::seconds));
    outcomes.back().note = "median cold module work";
    if (outcomes.back().verdict == Verdict::fail) outcomes.back().offenders = slowest_offenders(report, kTopOffenders);
  }
  if (budgets.cold_units) outcomes.push_back(cold_units(*budgets.cold_units, report, options));
  if (budgets.compile_elapsed_seconds) {
    outcomes.push_back(ceiling("compile_elapsed_seconds", report.compile_elapsed_ms.median / 1000.0,
                               *budgets.compile_elapsed_seconds, Unit::seconds));
    outcomes.back().note = "median cold wall minus warm wall";
    if (outcomes.back().verdict == Verdict::fail) outcomes.back().offenders = slowest_offenders(report, kTopOffenders);
  }
  if (budgets.warm_near_zero) outcomes.push_back(warm_near_zero(report));
  if (budgets.baseline) outcomes.push_back(baseline_budget(budgets, report, baseline, options));
  if (budgets.max_generated_source_bytes) {
    outcomes.push_back(ceiling("max_generated_source_bytes", static_cast<double>(report.cache.generated_source_bytes),
                               static_cast<double>(*budgets.max_generated_source_bytes), Unit::bytes));
    if (outcomes.back().verdict == Verdict::fail) outcomes.back().offenders = source_offenders(report, kTopOffenders);
  }
  if (budgets.max_lto_artifacts) {
    outcomes.push_back(ceiling("max_lto_artifacts", static_cast<double>(report.cache.lto_artifacts),
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
