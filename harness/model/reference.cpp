#include "model/reference.h"

#include <cmath>

namespace wcp {

std::string_view to_string(ReferenceKind kind) {
  switch (kind) {
    case ReferenceKind::warp_cpu: return "warp_cpu";
    case ReferenceKind::nvrtc: return "nvrtc";
  }
  return "";
}

std::optional<ReferenceKind> reference_kind_from_string(std::string_view text) {
  if (text == "warp_cpu") return ReferenceKind::warp_cpu;
  if (text == "nvrtc") return ReferenceKind::nvrtc;
  return std::nullopt;
}

std::optional<double> sample_cost(const ReferenceSample& sample) {
  if (sample.builds_ms.empty()) return std::nullopt;
  double total = 0.0;
  for (double build : sample.builds_ms) total += build;
  return total;
}

std::optional<Summary> reference_cost(const std::vector<ReferenceSample>& samples) {
  std::vector<double> costs;
  for (const auto& sample : samples) {
    if (const auto cost = sample_cost(sample)) costs.push_back(*cost);
  }
  return summarize(std::move(costs));
}

double reference_drift(double run_ms, double stored_ms) { return run_ms / stored_ms - 1.0; }

bool drift_worth_a_warning(double drift) { return std::fabs(drift) >= kReferenceDriftWarning; }

}  // namespace wcp
