// The orchestration end to end with real NVRTC compiles, on tiny stand-in fixtures so it takes
// a second or two: a fake "builtin.h" plays Warp's runtime header.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "calibrate/calibration_fixtures.h"
#include "calibrate/calibration_run.h"
#include "calibrate/warp_native_dir.h"
#include "calibrate_test_support.h"
#include "errors.h"
#include "render/calibration_text.h"
#include "run/interrupt_watch.h"
#include "run/scratch_dir.h"

namespace wcp::calibrate {
namespace {

TEST(CalibrateRun, MeasuresEveryFixtureAndFitsTheFamily) {
  auto loaded = testing::try_load_nvrtc();
  if (!loaded.nvrtc) {
    if (testing::nvrtc_required()) GTEST_FAIL() << loaded.why_not;
    GTEST_SKIP() << loaded.why_not;
  }
  auto& nvrtc = loaded.nvrtc;
  const ScratchDir warp_dir;
  std::ofstream(warp_dir.path() / "builtin.h")
      << "#pragma once\nnamespace wp { struct launch_bounds_t { int size; }; }\n";

  CalibrationInputs inputs;
  inputs.target = parse_gpu_target("sm_90", nvrtc->supported_archs());
  inputs.warp_native_dir = warp_dir.path();
  inputs.fixtures.minimal = "extern \"C\" __global__ void minimal_kernel(float* a) { a[threadIdx.x] += 1.0f; }\n";
  inputs.fixtures.warp_prelude = "#include \"builtin.h\"\n";
  inputs.fixtures.family_kernel =
      "extern \"C\" __global__ void k_@INDEX@(wp::launch_bounds_t dim, float* a) { if (threadIdx.x < dim.size) "
      "a[threadIdx.x] *= 2.0f; }\n";
  inputs.samples = 2;

  std::vector<std::string> progress;
  const auto calibration = run_calibration(
      *nvrtc, inputs, [&](const std::string& line) { progress.push_back(line); }, nullptr);
  EXPECT_EQ(progress.size(), 3u);  // warm-up and two rounds
  const auto& cuda = calibration.cuda;
  EXPECT_EQ(cuda.arch, "sm_90");
  EXPECT_EQ(cuda.output, "cubin");
  EXPECT_EQ(cuda.samples, 2);
  const size_t plain = 2 + kFamilyKernelCounts.size();
  const size_t with_pch = cuda.precompiled_headers ? 1 + kFamilyKernelCounts.size() : 0;
  ASSERT_EQ(cuda.fixtures.size(), plain + with_pch);
  for (const auto& fixture : cuda.fixtures) {
    SCOPED_TRACE(fixture.name);
    EXPECT_EQ(fixture.samples_ms.size(), 2u);
    EXPECT_GT(fixture.median_ms, 0.0);
    if (cuda.phase_timing) {
      EXPECT_TRUE(fixture.front_end_ms.has_value());
    }
    if (fixture.precompiled_header) {
      EXPECT_TRUE(fixture.pch_reused);
    }
  }
  EXPECT_GT(cuda.without_pch.fixed_ms, 0.0);
  EXPECT_LE(cuda.without_pch.r_squared, 1.0);
  if (cuda.precompiled_headers) {
    EXPECT_TRUE(cuda.with_pch.has_value());
    EXPECT_TRUE(cuda.pch_build_ms.has_value());  // the warm-up built it
  }
  EXPECT_EQ(calibration.machine.hostname, current_hostname());
  EXPECT_GT(calibration.wall_ms, 0.0);

  std::ostringstream text;
  render::render_calibration_text(calibration, text);
  EXPECT_NE(text.str().find("family_k16"), std::string::npos);
  EXPECT_NE(text.str().find("per kernel (R²"), std::string::npos);
}

TEST(CalibrateRun, FixtureFolderIsFoundAndChecked) {
  EXPECT_TRUE(std::filesystem::exists(find_fixtures_dir(std::nullopt) / "family_kernel.cu.in"));
  const ScratchDir empty;
  try {
    find_fixtures_dir(empty.path());
    FAIL() << "an empty folder passed for the fixtures";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("--fixtures-dir " + empty.path().string()), std::string::npos);
  }
}

TEST(CalibrateRun, WarpNativeDirMustHoldBuiltinHeader) {
  InterruptWatch interrupts;
  const ScratchDir empty;
  EXPECT_THROW(find_warp_native_dir(empty.path(), "python3", interrupts), UsageError);
  try {
    find_warp_native_dir(std::nullopt, "/nonexistent/python", interrupts);
    FAIL() << "a missing interpreter found Warp";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("/nonexistent/python"), std::string::npos) << error.what();
  }
}

TEST(CalibrateRun, FindsWarpThroughPython) {
  const char* python = std::getenv("WCP_PYTHON");
  if (python == nullptr || *python == '\0') GTEST_FAIL() << "set WCP_PYTHON to a python with warp-lang";
  InterruptWatch interrupts;
  const auto dir = find_warp_native_dir(std::nullopt, python, interrupts);
  EXPECT_TRUE(std::filesystem::is_regular_file(dir / "builtin.h"));
}

}  // namespace
}  // namespace wcp::calibrate
