#include "reference/nvrtc_reference.h"

#include <fmt/format.h>

#include "calibrate/calibration_fixtures.h"
#include "calibrate/compile_options.h"
#include "calibrate/warp_native_dir.h"
#include "errors.h"
#include "run/interrupt_watch.h"

namespace wcp::reference {

std::unique_ptr<NvrtcReference> NvrtcReference::open(const NvrtcReferenceInputs& inputs, InterruptWatch& interrupts) {
  using namespace calibrate;
  auto nvrtc = NvrtcLibrary::load(inputs.nvrtc_library);
  const auto target = parse_gpu_target(kNvrtcReferenceArch, nvrtc.supported_archs());
  const auto texts = load_fixture_texts(find_fixtures_dir(inputs.fixtures_dir));
  const auto native_dir = find_warp_native_dir(inputs.warp_native_dir, inputs.python, interrupts);
  auto scratch = std::make_unique<ScratchDir>("warp-compile-probe-reference-pch-");
  const auto features = detect_features(nvrtc, target, scratch->make_subdir("trial"));
  CompileRequest request;
  request.source = family_module_source(texts, kNvrtcReferenceKernels);
  request.name = fmt::format("reference_k{}.cu", kNvrtcReferenceKernels);
  request.output = target.output;
  request.options = fixture_options(target, features, native_dir);
  if (features.precompiled_headers) {
    const auto extra = pch_options(scratch->make_subdir("pch"));
    request.options.insert(request.options.end(), extra.begin(), extra.end());
  }
  compile(nvrtc, request);  // builds the header; its time is not a sample
  const std::string version = nvrtc.version().text();
  return std::unique_ptr<NvrtcReference>(
      new NvrtcReference(std::move(nvrtc), std::move(scratch), std::move(request), features.precompiled_headers, version));
}

NvrtcReference::NvrtcReference(calibrate::NvrtcLibrary nvrtc, std::unique_ptr<ScratchDir> scratch,
                               calibrate::CompileRequest request, bool precompiled_header, std::string version)
    : nvrtc_(std::move(nvrtc)),
      scratch_(std::move(scratch)),
      request_(std::move(request)),
      precompiled_header_(precompiled_header),
      version_(std::move(version)) {}

std::string NvrtcReference::name() const {
  return fmt::format("nvrtc/{}/{}/{}x{}-kernel-module/v1", kNvrtcReferenceArch, precompiled_header_ ? "pch" : "no-pch",
                     kNvrtcReferenceBuilds, kNvrtcReferenceKernels);
}

std::string NvrtcReference::description() const {
  return fmt::format("NVRTC {} compile of a Warp-shaped CUDA module of {} kernels for {}, {} (median of {} compiles "
                     "per sample)",
                     version_, kNvrtcReferenceKernels, kNvrtcReferenceArch,
                     precompiled_header_ ? "with the precompiled header in place" : "without a precompiled header",
                     kNvrtcReferenceBuilds);
}

ReferenceSample NvrtcReference::take(int after_sample, InterruptWatch& interrupts, measure::ProgressListener&) {
  ReferenceSample sample;
  sample.after_sample = after_sample;
  try {
    for (int build = 0; build < kNvrtcReferenceBuilds; ++build) {
      interrupts.throw_if_interrupted();
      sample.builds_ms.push_back(calibrate::compile(nvrtc_, request_).wall_ms);
    }
  } catch (const RunError& error) {
    sample.builds_ms.clear();
    sample.failure = std::string("the NVRTC reference compile failed: ") + error.what();
  }
  return sample;
}

}  // namespace wcp::reference
