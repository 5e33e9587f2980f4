#include "calibrate/compile_options.h"

#include "calibrate/nvrtc_compiler.h"
#include "errors.h"

namespace wcp::calibrate {
namespace {

constexpr const char* kTrialSource = R"(extern "C" __global__ void trial(float* data) { data[threadIdx.x] += 1.0f; })";

CompileRequest probe_request(const GpuTarget& target, std::vector<std::string> extra) {
  CompileRequest request;
  request.source = kTrialSource;
  request.name = "option_trial.cu";
  request.output = target.output;
  request.options = {target.nvrtc_option()};
  request.options.insert(request.options.end(), extra.begin(), extra.end());
  return request;
}

bool accepts(const NvrtcLibrary& nvrtc, const GpuTarget& target, std::vector<std::string> extra) {
  return try_compile(nvrtc, probe_request(target, std::move(extra))).succeeded();
}

}  // namespace

NvrtcFeatures detect_features(const NvrtcLibrary& nvrtc, const GpuTarget& target,
                             const std::filesystem::path& scratch_dir) {
  const auto plain = try_compile(nvrtc, probe_request(target, {}));
  if (!plain.succeeded()) {
    throw UsageError("NVRTC " + nvrtc.version().text() + " cannot compile for GPU architecture '" + target.name +
                     "' (" + nvrtc.error_string(plain.status) + "); pick another --arch. NVRTC log:\n" + plain.log);
  }
  NvrtcFeatures features;
  features.no_cache = accepts(nvrtc, target, {"--no-cache"});
  features.phase_timing = accepts(nvrtc, target, {"--time=-"});
  features.precompiled_headers = accepts(nvrtc, target, pch_options(scratch_dir));
  return features;
}

std::vector<std::string> fixture_options(const GpuTarget& target, const NvrtcFeatures& features,
                                         const std::optional<std::filesystem::path>& warp_native_dir) {
  std::vector<std::string> options = {
      target.nvrtc_option(),
      "--std=c++17",
      "--device-as-default-execution-space",
      "--define-macro=NDEBUG",
      "--undefine-macro=WP_VERIFY_FP",
      "--define-macro=WP_ENABLE_MATHDX=0",
      "--fmad=true",
      "--extra-device-vectorization",
      "--restrict",
      "--diag-suppress=177,550",
  };
  if (warp_native_dir) options.push_back("--include-path=" + warp_native_dir->string());
  if (features.no_cache) options.emplace_back("--no-cache");
  if (features.phase_timing) options.emplace_back("--time=-");
  return options;
}

std::vector<std::string> pch_options(const std::filesystem::path& pch_dir) {
  // Without --pch-dir NVRTC drops its headers in a shared /tmp directory it never cleans.
  return {"-pch", "--pch-dir=" + pch_dir.string()};
}

}  // namespace wcp::calibrate
