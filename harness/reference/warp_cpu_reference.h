#pragma once
// The reference for Warp's CPU backend: one Python process per sample, run through the same
// isolated machinery as `measure` (private kernel cache, cold only), that builds a one-kernel
// module — which also builds the process's precompiled header, the 1-3 s every Warp CPU
// process pays on its first module — and then kWarpCpuReferenceModules modules of
// kWarpCpuReferenceKernels kernels with the header in place. The sample's cost is all of it:
// the header build is in every sample, as it is in every command's cold run, so it is fixed
// consistently rather than guessed out. Why this mix: docs/calibration.md#the-reference.
#include <string>

#include "reference/reference_runner.h"
#include "run/scratch_dir.h"

namespace wcp::reference {

inline constexpr int kWarpCpuReferenceKernels = 2;
inline constexpr int kWarpCpuReferenceModules = 4;

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

// The builds of one reference run, from its compiled module timings in load order (the first
// one includes the header build). A failure text instead when the count is not the expected one.
ReferenceSample warp_cpu_sample_from(int after_sample, const std::vector<double>& compiled_ms);

}  // namespace wcp::reference
