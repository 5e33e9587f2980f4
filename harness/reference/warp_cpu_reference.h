#pragma once
// The reference for Warp's CPU backend: one Python process per sample, run through the same
// isolated machinery as `measure` (private kernel cache, cold only), that builds a warm-up
// module and then kWarpCpuReferenceBuilds identical modules of kWarpCpuReferenceKernels
// kernels. The warm-up also builds the process's precompiled header (a one-off of 1-3 s that
// every Warp CPU process pays on its first module), so it is set aside: the sample's builds are
// the modules after it, all with the header in place, as in a default Warp process.
// Why this shape and not the fit intercept: docs/calibration.md#the-reference.
#include <string>

#include "reference/reference_runner.h"
#include "run/scratch_dir.h"

namespace wcp::reference {

inline constexpr int kWarpCpuReferenceKernels = 2;
inline constexpr int kWarpCpuReferenceBuilds = 4;

class WarpCpuReference final : public ReferenceRunner {
 public:
  // Writes the app into a private directory; `python` must have warp-lang. Throws RunError
  // when the app cannot be written.
  explicit WarpCpuReference(std::string python);

  ReferenceKind kind() const override { return ReferenceKind::warp_cpu; }
  std::string name() const override;
  std::string description() const override;
  ReferenceSample take(int after_sample, InterruptWatch& interrupts, measure::ProgressListener& progress) override;

 private:
  std::string python_;
  ScratchDir app_;
};

// The builds of one reference run, from its compiled module timings in load order: everything
// after the warm-up. A failure text instead when the count is not the expected one.
ReferenceSample warp_cpu_sample_from(int after_sample, const std::vector<double>& compiled_ms);

}  // namespace wcp::reference
