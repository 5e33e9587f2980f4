#pragma once
// Calibrates Warp's own CPU backend: generated Warp modules of 1, 2, 4 and 8 kernels are
// loaded by one process through the isolated `measure` machinery, after a warm-up module
// that absorbs the once-per-process precompiled header build. A line fitted through the
// family (Theil–Sen, so one slow module does not bend it) gives the fixed per-module and
// per-kernel cost; warm-up minus the one-kernel module gives the header build. Done with and
// without use_precompiled_headers, the two alternating sample by sample.
#include <functional>
#include <string>

#include "calibrate/calibration.h"

namespace wcp {
class InterruptWatch;
}

namespace wcp::calibrate {

struct WarpCpuInputs {
  std::string python;  // an interpreter with warp-lang
  int samples = 3;
};

// The module sizes of the family, in the order the driver loads them.
inline constexpr int kWarpCpuFamily[] = {1, 2, 4, 8};

// Python source of the generated app (driver + modules) into `directory`.
void write_warp_cpu_app(const std::filesystem::path& directory);

// Fits one sample: `module_ms` holds the warm-up module then the family, in load order.
struct WarpCpuSample {
  double fixed_ms = 0.0;
  double per_kernel_ms = 0.0;
  double r_squared = 0.0;
  double pch_build_ms = 0.0;  // warm-up − one-kernel module
};
WarpCpuSample fit_warp_cpu_sample(const std::vector<double>& module_ms);

WarpCpuCalibration run_warp_cpu_calibration(const WarpCpuInputs& inputs, InterruptWatch& interrupts,
                                            const std::function<void(const std::string&)>& progress);

}  // namespace wcp::calibrate
