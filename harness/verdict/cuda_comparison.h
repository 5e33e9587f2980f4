#pragma once
// The CUDA build of two reports compared (issue 64, `measure --cuda-arch` on both sides): per
// architecture both measured, the CUDA compile CPU time against its own noise (each side's
// samples), the output bytes exactly, and the kernel whose cost moved most. judge() weighs it
// after the CPU build (the cuda_regressed rule); a side without it compares nothing.
#include <optional>
#include <string>
#include <vector>

#include "model/report.h"

namespace wcp::verdict {

struct KernelMove {
  std::string kernel;
  std::string module;
  std::optional<double> baseline_ms;   // absent: the kernel is new in the candidate
  std::optional<double> candidate_ms;  // absent: gone
  double delta_ms() const { return candidate_ms.value_or(0.0) - baseline_ms.value_or(0.0); }
};

struct CudaArchComparison {
  int arch = 0;
  std::optional<long long> baseline_bytes;
  std::optional<long long> candidate_bytes;
  std::optional<KernelMove> moved_most;  // absent without per-kernel figures on both sides
};

// Per arch both reports measured (in the baseline's order); empty when either has no CUDA build.
std::vector<CudaArchComparison> compare_cuda_builds(const Report& baseline, const Report& candidate);

// "heavy (__main__) 817 → 1650 ms (+833 ms)"
std::string kernel_move_text(const KernelMove& move);

}  // namespace wcp::verdict
