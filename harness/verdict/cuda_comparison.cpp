#include "verdict/cuda_comparison.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace wcp::verdict {
namespace {

using KernelCosts = std::map<std::pair<std::string, std::string>, double>;  // (module, kernel) → total ms

KernelCosts kernel_costs(const CudaBuildRun& run, int arch) {
  KernelCosts costs;
  for (const auto& build : run.modules) {
    if (build.arch != arch || !build.error.empty()) continue;
    for (const auto& kernel : build.kernels) {
      if (const auto total = kernel.total_ms())
        costs[{build.module, kernel.kernel.empty() ? kernel.mangled : kernel.kernel}] += *total;
    }
  }
  return costs;
}

std::optional<long long> output_bytes(const CudaBuildRun& run, int arch) {
  std::optional<long long> total;
  for (const auto& build : run.modules) {
    if (build.arch == arch && build.output_bytes) total = total.value_or(0) + *build.output_bytes;
  }
  return total;
}

std::optional<KernelMove> moved_most(const KernelCosts& baseline, const KernelCosts& candidate) {
  if (baseline.empty() || candidate.empty()) return std::nullopt;
  std::optional<KernelMove> most;
  const auto consider = [&most](const std::pair<std::string, std::string>& key, std::optional<double> before,
                                std::optional<double> after) {
    KernelMove move{key.second, key.first, before, after};
    if (!most || std::fabs(move.delta_ms()) > std::fabs(most->delta_ms())) most = std::move(move);
  };
  for (const auto& [key, ms] : baseline) {
    const auto found = candidate.find(key);
    consider(key, ms, found == candidate.end() ? std::nullopt : std::optional<double>(found->second));
  }
  for (const auto& [key, ms] : candidate) {
    if (!baseline.contains(key)) consider(key, std::nullopt, ms);
  }
  // Nothing moved (the same report, or identical builds): no kernel to name.
  if (most && std::fabs(most->delta_ms()) < 0.5) return std::nullopt;
  return most;
}

}  // namespace

std::vector<CudaArchComparison> compare_cuda_builds(const Report& baseline, const Report& candidate) {
  std::vector<CudaArchComparison> comparisons;
  if (!baseline.cuda_build || !candidate.cuda_build) return comparisons;
  for (const int arch : baseline.cuda_build->archs) {
    const auto& archs = candidate.cuda_build->archs;
    if (std::find(archs.begin(), archs.end(), arch) == archs.end()) continue;
    CudaArchComparison comparison;
    comparison.arch = arch;
    comparison.baseline_bytes = output_bytes(*baseline.cuda_build, arch);
    comparison.candidate_bytes = output_bytes(*candidate.cuda_build, arch);
    comparison.moved_most =
        moved_most(kernel_costs(*baseline.cuda_build, arch), kernel_costs(*candidate.cuda_build, arch));
    comparisons.push_back(std::move(comparison));
  }
  return comparisons;
}

std::string kernel_move_text(const KernelMove& move) {
  const auto ms = [](const std::optional<double>& value) {
    return value ? fmt::format("{:.0f} ms", *value) : std::string("none");
  };
  return fmt::format("{} ({}) {} → {} ({:+.0f} ms)", move.kernel, move.module, ms(move.baseline_ms),
                     ms(move.candidate_ms), move.delta_ms());
}

}  // namespace wcp::verdict
