// Real NVRTC compiles of every calibration fixture, on a machine without a GPU: NVRTC only
// needs the toolkit, not a device.
#include <gtest/gtest.h>

#include "calibrate/calibration_fixtures.h"
#include "calibrate/compile_options.h"
#include "calibrate/gpu_target.h"
#include "calibrate/nvrtc_compiler.h"
#include "calibrate_test_support.h"
#include "errors.h"
#include "run/scratch_dir.h"

namespace wcp::calibrate {
namespace {

class CalibrateNvrtc : public ::testing::Test {
 protected:
  void SetUp() override {
    auto loaded = testing::try_load_nvrtc();
    if (!loaded.nvrtc) {
      if (testing::nvrtc_required()) GTEST_FAIL() << loaded.why_not;
      GTEST_SKIP() << loaded.why_not;
    }
    nvrtc_ = std::move(loaded.nvrtc);
    target_ = parse_gpu_target("sm_90", nvrtc_->supported_archs());
    texts_ = load_fixture_texts(testing::source_fixtures_dir());
  }

  CompileRequest request_for(const FixtureSource& fixture, const std::optional<std::filesystem::path>& warp_dir) {
    CompileRequest request;
    request.source = fixture.source;
    request.name = fixture.name + ".cu";
    request.output = target_.output;
    NvrtcFeatures features;
    features.no_cache = true;
    request.options = fixture_options(target_, features, warp_dir);
    return request;
  }

  std::optional<NvrtcLibrary> nvrtc_;
  GpuTarget target_;
  FixtureTexts texts_;
};

TEST_F(CalibrateNvrtc, ReportsAVersion) {
  const auto version = nvrtc_->version();
  EXPECT_GE(version.major, 11);
  EXPECT_FALSE(nvrtc_->supported_archs().empty());
  // The file that loaded, also when the loader's search found it by bare name.
  EXPECT_TRUE(std::filesystem::path(nvrtc_->path()).is_absolute()) << nvrtc_->path();
}

TEST_F(CalibrateNvrtc, MinimalFixtureCompilesToCubinAndPtx) {
  const auto fixtures = calibration_fixtures(texts_);
  const auto cubin = compile(*nvrtc_, request_for(fixtures.at(0), std::nullopt));
  EXPECT_FALSE(cubin.output.empty());
  EXPECT_EQ(cubin.output.substr(0, 4), std::string("\x7f"
                                                   "ELF",
                                                   4));  // CUBINs are ELF files
  EXPECT_GT(cubin.wall_ms, 0.0);

  target_ = parse_gpu_target("compute_90", nvrtc_->supported_archs());
  const auto ptx = compile(*nvrtc_, request_for(fixtures.at(0), std::nullopt));
  EXPECT_NE(ptx.output.find(".entry minimal_kernel"), std::string::npos);
}

TEST_F(CalibrateNvrtc, EveryWarpShapedFixtureCompiles) {
  const auto warp_dir = testing::find_warp_native_dir_for_tests();
  if (!warp_dir) GTEST_FAIL() << "warp-lang not found; set WCP_PYTHON or WCP_WARP_NATIVE_DIR";
  // PTX keeps this test quick (no PTX assembly) and lets the compiler's own output say how
  // many kernels each module really holds.
  target_ = parse_gpu_target("compute_90", nvrtc_->supported_archs());
  const auto fixtures = calibration_fixtures(texts_);
  ASSERT_EQ(fixtures.size(), 2 + kFamilyKernelCounts.size());
  for (const auto& fixture : fixtures) {
    SCOPED_TRACE(fixture.name);
    const auto ptx = compile(*nvrtc_, request_for(fixture, *warp_dir)).output;
    size_t entries = 0;
    for (auto at = ptx.find(".entry"); at != std::string::npos; at = ptx.find(".entry", at + 1)) ++entries;
    // Warp-shaped family kernels come as a forward and a backward entry point.
    const size_t expected = fixture.name.rfind("family_k", 0) == 0 ? 2 * static_cast<size_t>(fixture.kernels) : 1;
    EXPECT_EQ(entries, expected);
  }
}

TEST_F(CalibrateNvrtc, ProbesOptionSupport) {
  const ScratchDir scratch;
  const auto features = detect_features(*nvrtc_, target_, scratch.path());
  if (nvrtc_->version().major >= 13) {
    EXPECT_TRUE(features.no_cache);
    EXPECT_TRUE(features.phase_timing);
    EXPECT_TRUE(features.precompiled_headers);
  }
  // The probe's precompiled header went where it was told, not to a shared /tmp folder.
  if (features.precompiled_headers) {
    EXPECT_FALSE(std::filesystem::is_empty(scratch.path()));
  }
}

TEST_F(CalibrateNvrtc, UnknownOptionIsReportedNotThrown) {
  CompileRequest request;
  request.source = texts_.minimal;
  request.name = "minimal.cu";
  request.options = {target_.nvrtc_option(), "--definitely-not-an-nvrtc-option"};
  const auto outcome = try_compile(*nvrtc_, request);
  EXPECT_EQ(outcome.status, kNvrtcInvalidOption);
}

TEST_F(CalibrateNvrtc, BrokenFixtureErrorCarriesNvrtcLog) {
  CompileRequest request;
  request.source = "extern \"C\" __global__ void broken(float* a) { a[0] = undeclared_calibration_symbol; }\n";
  request.name = "broken_fixture.cu";
  request.options = {target_.nvrtc_option()};
  try {
    compile(*nvrtc_, request);
    FAIL() << "a broken fixture compiled";
  } catch (const RunError& error) {  // found mid-calibration: exit 1, not a usage error
    const std::string message = error.what();
    const auto first_line = message.substr(0, message.find('\n'));
    EXPECT_NE(first_line.find("broken_fixture.cu"), std::string::npos) << message;
    // The log below names the offending identifier, in NVRTC's words.
    EXPECT_NE(message.find("identifier \"undeclared_calibration_symbol\" is undefined"), std::string::npos) << message;
  }
}

TEST_F(CalibrateNvrtc, ArchNvrtcRejectsIsAClearError) {
  // Passes the syntax check (no list to compare against) but NVRTC itself refuses it.
  const auto target = parse_gpu_target("sm_11", {});
  const ScratchDir scratch;
  try {
    detect_features(*nvrtc_, target, scratch.path());
    FAIL() << "sm_11 was accepted";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("'sm_11'"), std::string::npos) << error.what();
  }
}

TEST(CalibrateNvrtcLibrary, BogusLibraryPathIsAClearError) {
  try {
    NvrtcLibrary::load({std::filesystem::path("/nonexistent/cuda/lib64/libnvrtc.so"), ""});
    FAIL() << "a missing library loaded";
  } catch (const UsageError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("cannot load NVRTC from /nonexistent/cuda/lib64/libnvrtc.so"), std::string::npos) << message;
    EXPECT_NE(message.find("--nvrtc-library"), std::string::npos) << message;
  }
}

TEST(CalibrateNvrtcLibrary, LibraryWithoutNvrtcSymbolsIsRefused) {
  // libm loads fine but is not NVRTC.
  try {
    NvrtcLibrary::load({std::filesystem::path("libm.so.6"), ""});
    FAIL() << "libm was taken for NVRTC";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("lacks nvrtcGetErrorString"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace wcp::calibrate
