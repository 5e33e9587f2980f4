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
  auto nvrtc = NvrtcLibrary::load({inputs.nvrtc_library, inputs.python});
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
  // NVRTC's first compile in a process pays a one-off start-up; it is not a sample.
  auto warm_up = request;
  if (features.precompiled_headers) {
    const auto extra = pch_options(scratch->make_subdir("warm-up"));
    warm_up.options.insert(warm_up.options.end(), extra.begin(), extra.end());
  }
  compile(nvrtc, warm_up);
  const std::string version = nvrtc.version().text();
  return std::unique_ptr<NvrtcReference>(new NvrtcReference(std::move(nvrtc), std::move(scratch), std::move(request),
                                                            features.precompiled_headers, version));
}

NvrtcReference::NvrtcReference(calibrate::NvrtcLibrary nvrtc, std::unique_ptr<ScratchDir> scratch,
                               calibrate::CompileRequest request, bool precompiled_header, std::string version)
    : nvrtc_(std::move(nvrtc)),
      scratch_(std::move(scratch)),
      request_(std::move(request)),
      precompiled_header_(precompiled_header),
      version_(std::move(version)) {}

std::string NvrtcReference::name() const {
  return fmt::format("nvrtc/{}/{}+{}x{}-kernel-modules/v1", kNvrtcReferenceArch,
                     precompiled_header_ ? "pch-build" : "no-pch", kNvrtcReferenceModules, kNvrtcReferenceKernels);
}

std::string NvrtcReference::description() const {
  return fmt::format("NVRTC {} compiles of a Warp-shaped CUDA module of {} kernels for {}: {}{} compiles", version_,
                     kNvrtcReferenceKernels, kNvrtcReferenceArch,
                     precompiled_header_ ? "one that builds the precompiled header, then " : "",
                     precompiled_header_ ? kNvrtcReferenceModules : kNvrtcReferenceModules + 1);
}

ReferenceSample NvrtcReference::take(int after_sample, InterruptWatch& interrupts, measure::ProgressListener&) {
  ReferenceSample sample;
  sample.after_sample = after_sample;
  auto request = request_;
  if (precompiled_header_) {
    // A fresh directory: the sample's first compile builds the header, as a Warp process's first module does.
    const auto extra = calibrate::pch_options(scratch_->make_subdir("sample-" + std::to_string(after_sample)));
    request.options.insert(request.options.end(), extra.begin(), extra.end());
  }
  try {
    for (int build = 0; build <= kNvrtcReferenceModules; ++build) {
      interrupts.throw_if_interrupted();
      sample.builds_ms.push_back(calibrate::compile(nvrtc_, request).wall_ms);
    }
  } catch (const RunError& error) {
    sample.builds_ms.clear();
    sample.failure = std::string("the NVRTC reference compile failed: ") + error.what();
  }
  return sample;
}

}  // namespace wcp::reference
