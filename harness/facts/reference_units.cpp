#include "facts/reference_units.h"

#include "facts/queries.h"

namespace wcp {
namespace {

std::optional<double> cold_work(const SampleResult& sample) {
  if (!sample.cold_ok) return std::nullopt;
  return sample.cold_module_ms;
}

// The report's own rule (measure/report_builder.cpp): when one successful sample has no cold
// module work, the figure is unavailable as a whole rather than a median of the others.
bool every_success_has_work(const std::vector<SampleResult>& samples) {
  for (const auto& sample : samples) {
    if (sample.cold_ok && !sample.cold_module_ms) return false;
  }
  return true;
}

}  // namespace

std::optional<Summary> paired_cold_units(const std::vector<SampleResult>& samples,
                                         const std::vector<ReferenceSample>& references) {
  if (!every_success_has_work(samples)) return std::nullopt;
  std::vector<double> units;
  for (const auto& sample : samples) {
    const auto work = cold_work(sample);
    if (!work) continue;
    for (const auto& reference : references) {
      if (reference.after_sample != sample.index) continue;
      // A partner that measured nothing (or nothing positive) leaves this sample without units.
      if (const auto cost = sample_cost(reference); cost && *cost > 0.0) units.push_back(*work / *cost);
      break;
    }
  }
  return summarize(std::move(units));
}

std::optional<Summary> cold_units_against(const std::vector<SampleResult>& samples, double reference_ms) {
  if (!(reference_ms > 0.0) || !every_success_has_work(samples)) return std::nullopt;
  std::vector<double> units;
  for (const auto& sample : samples) {
    if (const auto work = cold_work(sample)) units.push_back(*work / reference_ms);
  }
  return summarize(std::move(units));
}

void finish_reference(MachineReference& reference, const std::vector<SampleResult>& samples) {
  reference.cost_ms = reference_cost(reference.samples);
  reference.cold_units = paired_cold_units(samples, reference.samples);
}

ReferenceKind reference_kind_for(const Report& report) {
  return backend_of(report) == Backend::cuda ? ReferenceKind::nvrtc : ReferenceKind::warp_cpu;
}

double units_band(const Summary& units) { return noise_band(units); }

}  // namespace wcp
