// Times one compile of the minimal calibration fixture through NVRTC: the floor under every
// module's compile cost on this machine, and a quick check that a toolkit upgrade did not
// move it.
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "calibrate/calibration_fixtures.h"
#include "calibrate/compile_options.h"
#include "calibrate/gpu_target.h"
#include "calibrate/nvrtc_compiler.h"
#include "calibrate/nvrtc_library.h"
#include "run/scratch_dir.h"

namespace {

using namespace wcp::calibrate;

void BM_NvrtcMinimalCompile(benchmark::State& state) {
  std::optional<NvrtcLibrary> nvrtc;
  try {
    // Without a toolkit, NVRTC comes from the project venv's wheel (ci/setup.sh).
    const char* python = std::getenv("WCP_PYTHON");
    nvrtc =
        NvrtcLibrary::load({std::nullopt, python != nullptr && *python != '\0' ? std::string(python)
                                                                               : WCP_SOURCE_DIR "/.venv/bin/python"});
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  const auto target = parse_gpu_target("sm_90", nvrtc->supported_archs());
  const wcp::ScratchDir scratch;
  const auto features = detect_features(*nvrtc, target, scratch.path());
  const auto texts = load_fixture_texts(std::filesystem::path(WCP_SOURCE_DIR) / "cuda_fixtures");
  CompileRequest request;
  request.source = texts.minimal;
  request.name = "minimal.cu";
  request.output = target.output;
  request.options = fixture_options(target, features, std::nullopt);
  compile(*nvrtc, request);  // the process's first compile is a start-up outlier
  for (auto _ : state) {
    const auto outcome = compile(*nvrtc, request);
    benchmark::DoNotOptimize(outcome.output.data());
    state.SetIterationTime(outcome.wall_ms / 1000.0);
  }
}
BENCHMARK(BM_NvrtcMinimalCompile)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(1.0);

}  // namespace
