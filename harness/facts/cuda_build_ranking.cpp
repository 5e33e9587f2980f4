#include "facts/cuda_build_ranking.h"

#include <algorithm>

namespace wcp {
namespace {

CudaArchRanking rank_arch(const Report& report, const CudaBuildRun& run, int arch) {
  CudaArchRanking ranking;
  ranking.arch = arch;
  if (const auto found = report.cuda_compile_cpu_ms.find(arch); found != report.cuda_compile_cpu_ms.end())
    ranking.cpu_ms = found->second;
  double headers_total = 0.0;
  for (const auto& build : run.modules) {
    if (build.arch != arch) continue;
    ranking.modules.push_back(&build);
    if (!build.error.empty()) {
      ++ranking.modules_failed;
      continue;
    }
    ++ranking.modules_built;
    if (build.output_bytes) ranking.output_bytes = ranking.output_bytes.value_or(0) + *build.output_bytes;
    if (build.phases.total_ms && build.cpu_ms && *build.cpu_ms > 0.0)
      ranking.trace_wall_over_cpu =
          std::max(ranking.trace_wall_over_cpu.value_or(0.0), *build.phases.total_ms / *build.cpu_ms);
    if (build.phases.headers_ms) {
      headers_total += *build.phases.headers_ms;
      ++ranking.modules_with_headers;
    }
    if (!build.trace_unavailable.empty() && ranking.kernels_unavailable.empty())
      ranking.kernels_unavailable = build.module + ": " + build.trace_unavailable;
    for (const auto& kernel : build.kernels) {
      const auto total = kernel.total_ms();
      if (!total) continue;
      ranking.kernels.push_back({kernel.kernel.empty() ? kernel.mangled : kernel.kernel, build.module,
                                 kernel.forward_ms(), kernel.backward_ms(), *total});
    }
  }
  if (ranking.modules_with_headers > 0)
    ranking.headers_ms_per_module = headers_total / static_cast<double>(ranking.modules_with_headers);
  std::stable_sort(ranking.kernels.begin(), ranking.kernels.end(),
                   [](const RankedCudaKernel& a, const RankedCudaKernel& b) { return a.total_ms > b.total_ms; });
  if (!ranking.kernels.empty()) ranking.kernels_unavailable.clear();
  return ranking;
}

}  // namespace

std::optional<CudaBuildRanking> rank_cuda_build(const Report& report) {
  if (!report.cuda_build) return std::nullopt;
  const CudaBuildRun& run = *report.cuda_build;
  CudaBuildRanking ranking;
  ranking.unavailable = run.unavailable;
  ranking.workers = run.workers;
  ranking.added_wall_ms = run.added_wall_ms;
  for (const int arch : run.archs) ranking.archs.push_back(rank_arch(report, run, arch));
  return ranking;
}

std::optional<CudaBackwardCost> cuda_backward_cost(const Report& report, const std::string& module) {
  if (!report.cuda_build) return std::nullopt;
  for (const int arch : report.cuda_build->archs) {
    CudaBackwardCost cost{arch, 0.0, {}};
    for (const auto& build : report.cuda_build->modules) {
      if (build.arch != arch || build.module != module || !build.error.empty()) continue;
      for (const auto& kernel : build.kernels) {
        if (const auto ms = kernel.backward_ms()) {
          cost.ms += *ms;
          cost.kernels.emplace_back(kernel.kernel.empty() ? kernel.mangled : kernel.kernel, *ms);
        }
      }
    }
    if (cost.kernels.empty()) continue;
    std::stable_sort(cost.kernels.begin(), cost.kernels.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    return cost;
  }
  return std::nullopt;
}

std::optional<CudaModulesCost> cuda_cost_of_modules(const Report& report, const std::vector<std::string>& modules) {
  if (!report.cuda_build) return std::nullopt;
  for (const int arch : report.cuda_build->archs) {
    CudaModulesCost cost;
    cost.arch = arch;
    for (const auto& build : report.cuda_build->modules) {
      if (build.arch != arch || !build.error.empty() ||
          std::find(modules.begin(), modules.end(), build.module) == modules.end())
        continue;
      ++cost.modules_built;
      cost.cpu_ms += build.cpu_ms.value_or(0.0);
      if (build.phases.headers_ms) {
        ++cost.modules_with_headers;
        cost.headers_ms += *build.phases.headers_ms;
      }
      if (build.phases.optimizer_ms) cost.optimizer_ms = cost.optimizer_ms.value_or(0.0) + *build.phases.optimizer_ms;
      for (const auto& kernel : build.kernels) {
        const double ms = kernel.forward_optimizer_ms.value_or(0.0) + kernel.backward_optimizer_ms.value_or(0.0);
        if (kernel.forward_optimizer_ms || kernel.backward_optimizer_ms)
          cost.optimizer_kernels.emplace_back(kernel.kernel.empty() ? kernel.mangled : kernel.kernel, ms);
      }
    }
    if (cost.modules_built == 0) continue;
    std::stable_sort(cost.optimizer_kernels.begin(), cost.optimizer_kernels.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    return cost;
  }
  return std::nullopt;
}

}  // namespace wcp
