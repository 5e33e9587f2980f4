// Churn is judged at one device and one block_dim. On CUDA block_dim is part of a module's hash
// (Warp 1.19: Module.get_module_hash(block_dim)), so one module launched at 128, 256 and 512 has
// three hashes by design: those builds are CS-5's, and only a further hash at one block_dim is
// CS-1/CS-3/CS-6/closure churn. docs/mechanisms.md, CS-5.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/diagnose.h"
#include "facts/rebuilds.h"
#include "report_fixtures.h"
#include "verdict/judge.h"

namespace wcp {
namespace {

using ::testing::HasSubstr;
using testing::kernel_in;
using testing::snapshot_load;

ModuleEvent build_at(const std::string& hash, int block_dim, double ms, const std::string& max_unroll,
                     int trigger_line) {
  ModuleEvent event = snapshot_load("__main__", hash, ms, {kernel_in("fill", "/src/app.py", 10)},
                                    {SourceLocation{"/src/app.py", trigger_line, "<module>"}}, "cuda:0");
  event.block_dim = block_dim;
  event.detail->options["max_unroll"] = max_unroll;
  return event;
}

LaunchSignature launch_at(int block_dim) {
  return LaunchSignature{"fill", "__main__", {1024}, "cuda:0", {"float32"}, block_dim, false};
}

// Launches at 256, 128, 256 and 512. `late`: wp.set_module_options({"max_unroll": 4}) after the
// first launch, so the second launch at 256 rebuilds the module there under a new hash; the twin
// sets it before the first launch: three builds, one per block_dim.
Report program(bool late) {
  Report report = testing::clean_report(1500);
  report.module_events.clear();
  if (late) {
    report.module_events = {build_at("a256aaa", 256, 500, "16", 30), build_at("a128aaa", 128, 450, "16", 31),
                            build_at("b256bbb", 256, 400, "4", 33), build_at("b512bbb", 512, 420, "4", 34)};
  } else {
    report.module_events = {build_at("b256bbb", 256, 500, "4", 30), build_at("b128bbb", 128, 450, "4", 31),
                            build_at("b512bbb", 512, 420, "4", 34)};
  }
  report.identities = report.module_events.size();
  report.compiled_events = report.module_events.size();
  auto& record = testing::launches(report);
  record = LaunchRecord{};
  for (int block_dim : {256, 128, 256, 512}) record.append(launch_at(block_dim));
  return report;
}

const analysis::Finding* find(const analysis::Diagnosis& diagnosis, Mechanism id) {
  const auto found = std::find_if(diagnosis.findings.begin(), diagnosis.findings.end(),
                                  [&](const analysis::Finding& finding) { return finding.mechanism == id; });
  return found == diagnosis.findings.end() ? nullptr : &*found;
}

std::string joined(const analysis::Finding& finding) {
  std::string text = finding.trigger + "\n";
  for (const auto& line : finding.evidence) text += line + "\n";
  return text;
}

TEST(BlockDimChurn, RebuildsAreClassifiedPerBlockDim) {
  const auto rebuilt = rebuilt_modules(program(true));
  ASSERT_EQ(rebuilt.size(), 1u);
  EXPECT_EQ(rebuilt[0].cause, RebuildCause::both);
  ASSERT_EQ(rebuilt[0].by_block_dim.size(), 3u);
  EXPECT_EQ(rebuilt[0].by_block_dim[0].block_dim, 256);
  EXPECT_EQ(rebuilt[0].by_block_dim[0].hashes, (std::vector<std::string>{"a256aaa", "b256bbb"}));
  EXPECT_EQ(rebuilt_modules(program(false))[0].cause, RebuildCause::block_dim_spread);
}

TEST(BlockDimChurn, AnOptionSetAfterLoadIsChurnAtItsBlockDimAndTheOthersAreSpread) {
  const auto diagnosis = analysis::diagnose(program(true));
  const auto* spread = find(diagnosis, Mechanism::block_dim_spread);
  const auto* option = find(diagnosis, Mechanism::late_option);
  ASSERT_NE(spread, nullptr);
  ASSERT_NE(option, nullptr);
  EXPECT_EQ(find(diagnosis, Mechanism::late_kernel), nullptr);
  EXPECT_EQ(find(diagnosis, Mechanism::late_generic), nullptr);
  EXPECT_EQ(find(diagnosis, Mechanism::closure_churn), nullptr);
  // CS-3 lists its own rebuild, at 256, with its cost; CS-5 the first build at each block_dim.
  EXPECT_THAT(joined(*option), HasSubstr("at block_dim 256"));
  EXPECT_THAT(joined(*option), HasSubstr("rebuild a256aaa -> b256bbb"));
  EXPECT_THAT(joined(*option), HasSubstr("max_unroll: 16 -> 4"));
  EXPECT_DOUBLE_EQ(option->cost_ms.value(), 400.0);
  EXPECT_THAT(joined(*spread), HasSubstr("256 (hash a256aaa, 500 ms), 128 (hash a128aaa, 450 ms), 512 (hash b512bbb"));
  EXPECT_DOUBLE_EQ(spread->cost_ms.value(), 450.0 + 420.0);
  // As facts: the module, its first build at each block_dim in order, and the block_dims.
  EXPECT_EQ(spread->facts.event, analysis::EventKind::built_at_several_block_dims);
  EXPECT_EQ(spread->facts.modules, (std::vector<std::string>{"__main__"}));
  EXPECT_EQ(spread->facts.block_dims, (std::vector<int>{256, 128, 512}));
  std::vector<std::string> hashes;
  for (const auto& identity : spread->facts.identities) hashes.push_back(identity.hash);
  EXPECT_EQ(hashes, (std::vector<std::string>{"a256aaa", "a128aaa", "b512bbb"}));
  EXPECT_FALSE(spread->trigger.empty());
  EXPECT_FALSE(option->trigger.empty());
}

TEST(BlockDimChurn, TheTwinWithTheOptionSetFirstIsSpreadOnly) {
  const auto diagnosis = analysis::diagnose(program(false));
  ASSERT_NE(find(diagnosis, Mechanism::block_dim_spread), nullptr);
  for (Mechanism churn : {Mechanism::late_kernel, Mechanism::late_option, Mechanism::late_generic,
                          Mechanism::closure_churn, Mechanism::identity_churn}) {
    EXPECT_EQ(find(diagnosis, churn), nullptr) << code(churn);
  }
  EXPECT_DOUBLE_EQ(find(diagnosis, Mechanism::block_dim_spread)->cost_ms.value(), 450.0 + 420.0);
}

TEST(BlockDimChurn, ComparingTheAppWithItsTwinIsNotInvalid) {
  const auto judgement = verdict::judge(program(true), program(false));
  EXPECT_NE(judgement.verdict, verdict::Verdict::invalid) << judgement.reason;
  EXPECT_EQ(judgement.workload.status, verdict::WorkloadStatus::equivalent) << judgement.workload.reason;
}

}  // namespace
}  // namespace wcp
