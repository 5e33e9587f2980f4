#include "budget/baseline_compare.h"

#include <algorithm>
#include <sstream>

namespace wcp::budget {
namespace {

// Kernel and module names are erased: a fix that merges modules or renames kernels keeps the
// workload; what the app launches (shape, types, device, block_dim, adjoint) defines it.
Launch anonymous(Launch launch) {
  launch.kernel.clear();
  launch.module.clear();
  return launch;
}

std::string describe(const Launch& launch) {
  std::ostringstream text;
  text << (launch.kernel.empty() ? "?" : launch.kernel) << " dim=[";
  for (std::size_t i = 0; i < launch.dim.size(); ++i) text << (i ? "," : "") << launch.dim[i];
  text << "] on " << launch.device;
  if (launch.block_dim) text << " block_dim=" << launch.block_dim;
  if (launch.adjoint) text << " adjoint";
  return text.str();
}

}  // namespace

std::optional<std::string> workload_difference(const Report& baseline, const Report& candidate) {
  const auto before = expand_launches(baseline.launches);
  const auto after = expand_launches(candidate.launches);
  const std::size_t common = std::min(before.size(), after.size());
  for (std::size_t i = 0; i < common; ++i) {
    if (anonymous(before[i]) != anonymous(after[i])) {
      return "launch " + std::to_string(i + 1) + " differs: baseline " + describe(before[i]) + ", now " +
             describe(after[i]);
    }
  }
  if (before.size() != after.size()) {
    return std::to_string(after.size()) + " launches, baseline made " + std::to_string(before.size());
  }
  return std::nullopt;
}

BaselineComparison compare_to_baseline(const Report& baseline, const Report& candidate, double tolerance_percent) {
  BaselineComparison comparison;
  if (auto difference = workload_difference(baseline, candidate)) {
    comparison.workload_same = false;
    comparison.workload_difference = *difference;
  }
  comparison.baseline_ms = baseline.cold_module_ms.median;
  comparison.candidate_ms = candidate.cold_module_ms.median;
  comparison.band_ms = std::max({0.01 * comparison.baseline_ms, 2.0 * baseline.cold_module_ms.mad,
                                 tolerance_percent / 100.0 * comparison.baseline_ms});
  return comparison;
}

}  // namespace wcp::budget
