#include "verdict/normalised.h"

#include "facts/queries.h"

#include <fmt/format.h>

#include <map>

namespace wcp::verdict {
namespace {

// Each successful sample's factor: target / its partner's cost. nullopt when one lacks a partner.
std::optional<std::map<int, double>> factors(const Report& report, double target_ms, std::string& why_not,
                                             const char* side) {
  std::map<int, double> costs;
  for (const auto& sample : report.reference->samples) {
    if (const auto cost = sample_cost(sample); cost && *cost > 0.0) costs[sample.after_sample] = *cost;
  }
  std::map<int, double> out;
  for (const auto& sample : report.sample_results) {
    if (!sample.cold_ok) continue;
    const auto cost = costs.find(sample.index);
    if (cost == costs.end()) {
      why_not = fmt::format("the {}'s sample {} has no reference partner", side, sample.index);
      return std::nullopt;
    }
    out[sample.index] = target_ms / cost->second;
  }
  return out;
}

// The report with every timing of sample k multiplied by its factor, summaries rebuilt by the
// report's own rules (measure/report_builder.cpp).
Report scaled(const Report& report, const std::map<int, double>& factor_of) {
  Report out = report;
  std::vector<double> cold_module, warm_module, cold_wall, warm_wall, elapsed;
  bool cold_module_unavailable = false;
  for (auto& sample : out.sample_results) {
    if (!sample.cold_ok) continue;
    const double factor = factor_of.at(sample.index);
    sample.cold_wall_ms *= factor;
    cold_wall.push_back(sample.cold_wall_ms);
    if (sample.cold_module_ms) {
      *sample.cold_module_ms *= factor;
      cold_module.push_back(*sample.cold_module_ms);
    } else {
      cold_module_unavailable = true;
    }
    if (sample.native_compile_ms) *sample.native_compile_ms *= factor;
    sample.cold_module_cpu_ms.reset();
    sample.warm_module_cpu_ms.reset();
    if (sample.warm_module_ms) {
      *sample.warm_module_ms *= factor;
      warm_module.push_back(*sample.warm_module_ms);
    }
    if (sample.warm_wall_ms) {
      *sample.warm_wall_ms *= factor;
      warm_wall.push_back(*sample.warm_wall_ms);
    }
    // The report's own rule: only a warm wall below its cold wall is a compile elapsed.
    if (const auto credited = sample_compile_elapsed(sample); credited.ms) elapsed.push_back(*credited.ms);
  }
  out.cold_module_ms = cold_module_unavailable ? std::nullopt : summarize(cold_module);
  out.native_compile_ms.reset();  // not judged; left out rather than half-scaled
  // A reference build is timed on the wall: its factor scales wall clocks, and a CPU figure
  // divided by it would mean nothing. Reference units judge the wall (docs/measurement.md).
  out.cold_module_cpu_ms.reset();
  out.warm_module_cpu_ms.reset();
  if (report.cold_module_cpu_ms) out.module_cpu_unavailable = "reference units scale the wall clock, not the CPU";
  out.warm_module_ms = summarize(warm_module);
  out.cold_wall_ms = summarize(cold_wall);
  out.warm_wall_ms = summarize(warm_wall);
  out.compile_elapsed_ms = summarize(elapsed);
  out.overlap_factor.reset();
  if (out.cold_module_ms && out.compile_elapsed_ms && out.compile_elapsed_ms->median > 0.0) {
    out.overlap_factor = out.cold_module_ms->median / out.compile_elapsed_ms->median;
  }
  return out;
}

bool has_cost(const Report& report) {
  return report.reference && report.reference->cost_ms;
}

}  // namespace

std::optional<ReferenceScaling> scale_to_baseline_reference(const Report& baseline, const Report& candidate,
                                                            std::string& why_not) {
  if (!has_cost(baseline) || !has_cost(candidate)) {
    why_not = fmt::format("{} no reference measured in its own run", !has_cost(baseline) && !has_cost(candidate)
                                                                         ? "neither report has"
                                                                     : !has_cost(baseline) ? "the baseline has"
                                                                                           : "the candidate has");
    return std::nullopt;
  }
  if (baseline.reference->name != candidate.reference->name) {
    why_not = fmt::format("the references differ ({} vs {})", baseline.reference->name, candidate.reference->name);
    return std::nullopt;
  }
  const double target = baseline.reference->cost_ms->median;
  if (target <= 0.0 || candidate.reference->cost_ms->median <= 0.0) {
    why_not = "a reference build's median cost is not above zero, so it is no scale";
    return std::nullopt;
  }
  const auto baseline_factors = factors(baseline, target, why_not, "baseline");
  if (!baseline_factors) return std::nullopt;
  const auto candidate_factors = factors(candidate, target, why_not, "candidate");
  if (!candidate_factors) return std::nullopt;
  return ReferenceScaling{scaled(baseline, *baseline_factors), scaled(candidate, *candidate_factors), target,
                          candidate.reference->cost_ms->median};
}

Judgement judge_normalised(const Report& baseline, const Report& candidate, const JudgeOptions& options) {
  std::string why_not;
  if (const auto scaling = scale_to_baseline_reference(baseline, candidate, why_not)) {
    // The reference already puts the runs on one machine's scale: the unchanged modules' speed
    // on top would correct the same difference twice.
    JudgeOptions in_units = options;
    in_units.runner_speed_from_unchanged = false;
    in_units.stored_baseline_drift_percent.reset();
    Judgement judgement = judge(scaling->baseline, scaling->candidate, in_units);
    judgement.notes.insert(
        judgement.notes.begin(),
        fmt::format("judged in reference units ({}): every sample divided by its own reference build and shown as ms "
                    "at the baseline's reference of {:.1f} ms (the candidate's run measured {:.1f} ms, {:+.0f}%)",
                    baseline.reference->name, scaling->baseline_reference_ms, scaling->candidate_reference_ms,
                    100.0 * (scaling->candidate_reference_ms / scaling->baseline_reference_ms - 1.0)));
    return judgement;
  }
  Judgement judgement = judge(baseline, candidate, options);
  if (baseline.reference || candidate.reference) {
    judgement.notes.insert(judgement.notes.begin(), "judged in milliseconds, not reference units: " + why_not);
  }
  return judgement;
}

}  // namespace wcp::verdict
