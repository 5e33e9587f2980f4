#pragma once
// The NVRTC options every fixture is compiled with, and which optional ones this NVRTC takes.
// Optional options are detected by trying them: NVRTC answers an option it does not know with
// NVRTC_ERROR_INVALID_OPTION, and the version number alone does not say what a build supports.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "calibrate/gpu_target.h"
#include "calibrate/nvrtc_library.h"

namespace wcp::calibrate {

struct NvrtcFeatures {
  // NVRTC 13 caches compilations in-process; without --no-cache every sample after the first
  // would time a cache hit instead of a compile.
  bool no_cache = false;
  bool phase_timing = false;         // --time=- (per-phase CSV in the program log)
  bool precompiled_headers = false;  // -pch with --pch-dir
};

// Compiles a trivial kernel with each candidate option. Throws UsageError (naming the arch,
// with NVRTC's log) when even the plain compile for `target` fails. `scratch_dir` receives
// the trial's throwaway precompiled header.
NvrtcFeatures detect_features(const NvrtcLibrary& nvrtc, const GpuTarget& target,
                             const std::filesystem::path& scratch_dir);

// Options shaped like the ones Warp passes for a release build (warp/native/warp.cu), plus the
// measurement options this NVRTC supports. `warp_native_dir` adds the include path that
// Warp's generated modules rely on.
std::vector<std::string> fixture_options(const GpuTarget& target, const NvrtcFeatures& features,
                                         const std::optional<std::filesystem::path>& warp_native_dir);

std::vector<std::string> pch_options(const std::filesystem::path& pch_dir);

}  // namespace wcp::calibrate
