#pragma once
// The reference for CUDA workloads: Warp-shaped CUDA modules (cuda_fixtures/: Warp's prelude
// and kNvrtcReferenceKernels Warp-generated kernels) compiled in this process by NVRTC, the
// compiler Warp itself uses for CUDA, with NVRTC's automatic precompiled header as in a default
// Warp process. NVRTC runs on the CPU, so this needs no GPU. Each sample mirrors the Warp CPU
// reference: in a fresh header directory, one compile that builds the header, then
// kNvrtcReferenceModules compiles that use it, with NVRTC's in-process cache off; its cost is
// all of them. One discarded compile at set-up absorbs NVRTC's start-up.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "calibrate/gpu_target.h"
#include "calibrate/nvrtc_compiler.h"
#include "calibrate/nvrtc_library.h"
#include "reference/reference_runner.h"
#include "run/scratch_dir.h"

namespace wcp::reference {

inline constexpr int kNvrtcReferenceKernels = 4;
inline constexpr int kNvrtcReferenceModules = 3;
inline constexpr const char* kNvrtcReferenceArch = "sm_90";

struct NvrtcReferenceInputs {
  // Asked where Warp's native headers are, unless warp_native_dir is given; its venv may hold NVRTC.
  std::string python;
  std::optional<std::filesystem::path> warp_native_dir;
  std::optional<std::filesystem::path> nvrtc_library;
  std::optional<std::filesystem::path> fixtures_dir;
};

class NvrtcReference final : public ReferenceRunner {
 public:
  // Loads NVRTC, finds the fixtures and Warp's headers, and compiles once to build the header.
  // Throws UsageError when any of them is missing, RunError when the warm-up compile fails.
  static std::unique_ptr<NvrtcReference> open(const NvrtcReferenceInputs& inputs, InterruptWatch& interrupts);

  ReferenceKind kind() const override { return ReferenceKind::nvrtc; }
  std::string name() const override;
  std::string description() const override;
  ReferenceSample take(int after_sample, InterruptWatch& interrupts, measure::ProgressListener& progress) override;

 private:
  NvrtcReference(calibrate::NvrtcLibrary nvrtc, std::unique_ptr<ScratchDir> scratch, calibrate::CompileRequest request,
                 bool precompiled_header, std::string version);

  calibrate::NvrtcLibrary nvrtc_;
  std::unique_ptr<ScratchDir> scratch_;  // the samples' header directories, removed with the runner
  calibrate::CompileRequest request_;    // without the header options, which are per sample
  bool precompiled_header_ = false;
  std::string version_;
};

}  // namespace wcp::reference
