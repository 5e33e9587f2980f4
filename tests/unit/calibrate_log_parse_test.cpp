#include <gtest/gtest.h>

#include "calibrate/gpu_target.h"
#include "calibrate/nvrtc_compiler.h"
#include "errors.h"

namespace wcp::calibrate {
namespace {

// A log as NVRTC 13.0 writes it with -pch and --time=-.
constexpr const char* kPchLog = R"("family_k4.cu": using precompiled header file "/tmp/x/family_k1_0.pch"

File name, phase name, metric, unit
family_k4.cu, CUDA C++ Frontend, 81, ms
family_k4.cu, NVVM Optimizer, 27, ms
family_k4.cu, PTX Translation, 30, ms
)";

TEST(CalibratePhaseTimes, SplitsFrontEndFromBackEnd) {
  const auto times = parse_phase_times(kPchLog);
  ASSERT_TRUE(times.has_value());
  EXPECT_DOUBLE_EQ(times->front_end_ms, 81.0);
  EXPECT_DOUBLE_EQ(times->back_end_ms, 57.0);
}

TEST(CalibratePhaseTimes, ConvertsUnitsAndSkipsJunk) {
  const auto times = parse_phase_times(
      "File name, phase name, metric, unit\n"
      "a,b.cu, CUDA C++ Frontend, 0.25, s\n"
      "not a row\n"
      "a,b.cu, ptxas, 500, us\n");
  ASSERT_TRUE(times.has_value());
  EXPECT_DOUBLE_EQ(times->front_end_ms, 250.0);
  EXPECT_DOUBLE_EQ(times->back_end_ms, 0.5);
}

TEST(CalibratePhaseTimes, NoCsvMeansNoTimes) {
  EXPECT_FALSE(parse_phase_times("").has_value());
  EXPECT_FALSE(parse_phase_times("warning: something\n").has_value());
  EXPECT_FALSE(parse_phase_times("File name, phase name, metric, unit\n").has_value());
}

TEST(CalibratePchUse, ReadsTheLog) {
  EXPECT_EQ(pch_use(kPchLog), PchUse::kUsed);
  EXPECT_EQ(pch_use(R"("m.cu": creating precompiled header file "/tmp/x/m_0.pch")"), PchUse::kCreated);
  EXPECT_EQ(pch_use("File name, phase name, metric, unit\n"), PchUse::kNone);
}

TEST(CalibrateGpuTarget, ParsesCubinAndPtxTargets) {
  const auto cubin = parse_gpu_target("sm_90", {75, 80, 90});
  EXPECT_EQ(cubin.number, 90);
  EXPECT_EQ(cubin.output, OutputKind::kCubin);
  EXPECT_EQ(cubin.nvrtc_option(), "--gpu-architecture=sm_90");
  const auto ptx = parse_gpu_target("compute_90a", {75, 80, 90});
  EXPECT_EQ(ptx.output, OutputKind::kPtx);
  EXPECT_EQ(ptx.number, 90);
}

TEST(CalibrateGpuTarget, UnknownArchErrorNamesIt) {
  for (const char* bad : {"sm90", "gfx1100", "sm_", "sm_9x"}) {
    try {
      parse_gpu_target(bad, {});
      FAIL() << bad << " was accepted";
    } catch (const UsageError& error) {
      EXPECT_NE(std::string(error.what()).find(std::string("'") + bad + "'"), std::string::npos) << error.what();
    }
  }
  try {
    parse_gpu_target("sm_35", {75, 80, 90});
    FAIL() << "sm_35 was accepted";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("'sm_35' is not supported"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace wcp::calibrate
