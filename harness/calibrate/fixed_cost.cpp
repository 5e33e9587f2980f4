#include "calibrate/fixed_cost.h"

#include <fmt/format.h>

namespace wcp::calibrate {

std::optional<FixedCostReference> fixed_cost_reference(const Calibration& calibration, Backend backend,
                                                       bool precompiled_headers, std::string& why) {
  const char* pch = precompiled_headers ? "with PCH" : "without PCH";
  FixedCostReference reference;
  if (backend == Backend::cuda) {
    if (calibration.cuda.fixtures.empty()) {
      why = "this run compiled for CUDA but the calibration has no NVRTC section: run `warp-compile-probe calibrate`";
      return std::nullopt;
    }
    reference.ms = calibration.cuda_fixed_ms(precompiled_headers);
    reference.basis = fmt::format("calibrated NVRTC fixed cost per module ({}, {})", pch, calibration.created_at);
  } else {
    if (!calibration.warp_cpu) {
      why = "this run compiled for the CPU but the calibration has no Warp CPU section: run "
            "`warp-compile-probe calibrate --warp-cpu`";
      return std::nullopt;
    }
    const auto& cpu = *calibration.warp_cpu;
    const auto& model = precompiled_headers && cpu.with_pch ? *cpu.with_pch : cpu.without_pch;
    reference.ms = model.fixed_ms;
    reference.basis = fmt::format("calibrated Warp CPU fixed cost per module ({}, {})", pch, calibration.created_at);
  }
  if (reference.ms <= 0.0) {
    why = "the calibrated fixed cost is not positive, so nothing can be divided by it: recalibrate on a quiet machine";
    return std::nullopt;
  }
  return reference;
}

std::optional<HeaderCosts> cpu_header_costs(const Calibration& calibration) {
  if (!calibration.warp_cpu || !calibration.warp_cpu->with_pch || !calibration.warp_cpu->pch_build_ms) return std::nullopt;
  const auto& cpu = *calibration.warp_cpu;
  return HeaderCosts{*cpu.pch_build_ms, cpu.with_pch->fixed_ms, cpu.without_pch.fixed_ms,
                     fmt::format("calibrated Warp CPU header and fixed costs ({})", calibration.created_at)};
}

}  // namespace wcp::calibrate
