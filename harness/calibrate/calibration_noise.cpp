#include "calibrate/calibration_noise.h"

#include <fmt/format.h>

#include <cmath>

namespace wcp::calibrate {

std::optional<Noise> calibration_noise(const Calibration& calibration, ReferenceKind kind,
                                       const std::filesystem::path& source) {
  const StoredReference* reference = calibration.reference_for(kind);
  if (!reference) return std::nullopt;
  const Summary& cost = reference->cost_ms;
  return noise_of_summary(cost, NoiseSource::calibration,
                          fmt::format("the {} reference build's spread over {} samples, calibration {} ({})",
                                      to_string(kind), cost.count, source.string(), calibration.created_at));
}

}  // namespace wcp::calibrate
