// The reports the GPU check of 2026-12-04 failed on (tests/data/cuda-2026-12-04/README.md),
// diagnosed here on the CPU: real Warp 1.19.0 on an H200, so the diagnosis is held to what a GPU
// recorded without needing one.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "analysis/diagnose.h"
#include "codec/report_json.h"

namespace wcp {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const fs::path kReports = fs::path(WCP_TEST_DATA_DIR) / "cuda-2026-12-04";

analysis::Diagnosis diagnose(const std::string& name) {
  return analysis::diagnose(load_report((kReports / (name + ".json")).string()));
}

const analysis::Finding* finding(const analysis::Diagnosis& diagnosis, Mechanism mechanism) {
  const auto found = std::find_if(diagnosis.findings.begin(), diagnosis.findings.end(),
                                  [&](const analysis::Finding& f) { return f.mechanism == mechanism; });
  return found == diagnosis.findings.end() ? nullptr : &*found;
}

const OptionReceipt* receipt_of(const analysis::Diagnosis& diagnosis, const std::string& key) {
  if (!diagnosis.option_receipts) return nullptr;
  const auto& receipts = *diagnosis.option_receipts;
  const auto found = std::find_if(receipts.begin(), receipts.end(),
                                  [&](const OptionReceipt& receipt) { return receipt.write.key == key; });
  return found == receipts.end() ? nullptr : &*found;
}

TEST(GpuFindingsReplay, CudaOutputReachesTheBuildsThatReadItFromWarpConfig) {
  // The module's own cuda_output stays None and the load's config snapshot does not hold the
  // global: Warp reads warp.config.cuda_output while it builds, so the write reached the build.
  for (const std::string name : {"ptx_cache_disabled_app", "ptx_cache_disabled_fixed"}) {
    SCOPED_TRACE(name);
    const auto diagnosis = diagnose(name);
    EXPECT_FALSE(diagnosis.found(Mechanism::option_never_arrived));
    const OptionReceipt* receipt = receipt_of(diagnosis, "cuda_output");
    ASSERT_NE(receipt, nullptr);
    EXPECT_EQ(receipt->outcome, ReceiptOutcome::reached);
    ASSERT_EQ(receipt->reached.size(), 1u);
  }
}

TEST(GpuFindingsReplay, PtxWithTheDriverCacheDisabledIsCacheNotReused) {
  const auto diagnosis = diagnose("ptx_cache_disabled_app");
  const analysis::Finding* cs2 = finding(diagnosis, Mechanism::cache_not_reused);
  ASSERT_NE(cs2, nullptr);
  EXPECT_THAT(cs2->trigger, HasSubstr("built as PTX"));
  EXPECT_TRUE(std::any_of(cs2->evidence.begin(), cs2->evidence.end(), [](const std::string& line) {
    return line.find("CUDA_CACHE_DISABLE") != std::string::npos;
  }));
  ASSERT_TRUE(cs2->cost_ms.has_value());
  EXPECT_GT(*cs2->cost_ms, 100.0);  // the warm load: 131-154 ms, Warp compiled nothing
  // The CUBIN twin with the driver's cache left alone: nothing for the driver to JIT.
  EXPECT_FALSE(diagnose("ptx_cache_disabled_fixed").found(Mechanism::cache_not_reused));
}

TEST(GpuFindingsReplay, OverlappingBuildsBoundNoFixedCost) {
  // force_load(max_workers=5): every build overlaps the others, so no build's time bounds one
  // module's fixed cost and CS-4 is not judged.
  const auto diagnosis = diagnose("parallel_preload_fixed");
  EXPECT_FALSE(diagnosis.found(Mechanism::granular_modules));
  EXPECT_TRUE(
      std::any_of(diagnosis.not_checked.begin(), diagnosis.not_checked.end(), [](const analysis::NotChecked& item) {
        return item.mechanism == Mechanism::granular_modules && item.reason.find("overlapping") != std::string::npos;
      }));
}

TEST(GpuFindingsReplay, SerialTinySiblingModulesStayGranular) {
  // The serial app: five two-kernel sibling modules built one after another (180-330 ms each),
  // as fixtures/granular_modules: CS-4 beside CS-13.
  const auto diagnosis = diagnose("parallel_preload_app");
  EXPECT_TRUE(diagnosis.found(Mechanism::granular_modules));
  EXPECT_TRUE(diagnosis.found(Mechanism::serial_builds));
}

TEST(GpuFindingsReplay, LtoGenerationIsNoFixedPerModuleCost) {
  // Two MathDx modules of 12-13 s each, 3 s of it in the native compiler: the rest is LTO
  // generation (CS-7), which a merged module pays too.
  for (const std::string name : {"clear_lto_mid_run_app", "clear_lto_mid_run_fixed"}) {
    SCOPED_TRACE(name);
    const auto diagnosis = diagnose(name);
    EXPECT_FALSE(diagnosis.found(Mechanism::granular_modules));
    EXPECT_TRUE(diagnosis.found(Mechanism::lto_dominated));
    EXPECT_TRUE(diagnosis.found(Mechanism::serial_builds));
  }
}

}  // namespace
}  // namespace wcp
