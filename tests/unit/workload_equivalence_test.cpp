// Workload equivalence is judged on launch topology, never on kernel names.
#include <gtest/gtest.h>

#include "report_fixtures.h"

#include "verdict/workload.h"

namespace wcp::verdict {
namespace {

LaunchSignature launch(const std::string& kernel, std::int64_t dim, bool adjoint = false) {
  return LaunchSignature{kernel, "__main__", {dim}, "cpu", {"float32"}, 0, adjoint};
}

Report with_launches(const std::vector<std::pair<LaunchSignature, std::uint64_t>>& runs) {
  Report report;
  report.instrumentation.attached = true;
  testing::main_record(report).launches_recorded = true;
  for (const auto& [item, count] : runs) testing::launches(report).append(item, count);
  return report;
}

TEST(WorkloadEquivalence, SameTopologyIsEquivalentAndRenamesAreAdvisory) {
  const Report base = with_launches({{launch("make__locals__scale", 64), 3}, {launch("fill", 32), 1}});
  const Report cand = with_launches({{launch("scale", 64), 3}, {launch("fill", 32), 1}});
  const WorkloadCheck check = check_workload(base, cand);
  EXPECT_EQ(check.status, WorkloadStatus::equivalent);
  ASSERT_EQ(check.renames.size(), 1u);
  EXPECT_EQ(check.renames[0].baseline, "__main__.make__locals__scale");
  EXPECT_EQ(check.renames[0].candidate, "__main__.scale");
}

TEST(WorkloadEquivalence, RunLengthsThatSplitDifferentlyStillMatch) {
  const Report base = with_launches({{launch("a", 64), 1000000}});
  Report cand = with_launches({{launch("a", 64), 400000}});
  testing::launches(cand).append(launch("b", 64), 600000);  // a different name, the same launch
  EXPECT_EQ(check_workload(base, cand).status, WorkloadStatus::equivalent);
}

TEST(WorkloadEquivalence, ADroppedLaunchIsADifferenceWithCountsAndFirstDivergence) {
  const Report base = with_launches({{launch("fill", 64), 1}, {launch("scale", 64, false), 3}, {launch("sum", 1), 1}});
  const Report cand = with_launches({{launch("fill", 64), 1}, {launch("scale", 64, false), 2}, {launch("sum", 1), 1}});
  const WorkloadCheck check = check_workload(base, cand);
  EXPECT_EQ(check.status, WorkloadStatus::different);
  ASSERT_TRUE(check.first_divergence.has_value());
  EXPECT_EQ(check.first_divergence->index, 3u);
  ASSERT_EQ(check.count_differences.size(), 1u);
  EXPECT_EQ(check.count_differences[0].baseline, 4u);
  EXPECT_EQ(check.count_differences[0].candidate, 3u);
}

TEST(WorkloadEquivalence, AdjointDimDtypeAndOrderAllCount) {
  const Report base = with_launches({{launch("a", 64), 1}, {launch("b", 32), 1}});
  EXPECT_EQ(check_workload(base, with_launches({{launch("a", 64, true), 1}, {launch("b", 32), 1}})).status,
            WorkloadStatus::different);
  EXPECT_EQ(check_workload(base, with_launches({{launch("a", 65), 1}, {launch("b", 32), 1}})).status,
            WorkloadStatus::different);
  const WorkloadCheck reordered = check_workload(base, with_launches({{launch("b", 32), 1}, {launch("a", 64), 1}}));
  EXPECT_EQ(reordered.status, WorkloadStatus::different);
  EXPECT_TRUE(reordered.count_differences.empty());
  EXPECT_EQ(reordered.reason, "the same launches in a different order");
  Report other_dtype = base;
  testing::launches(other_dtype).signatures[0].dtypes = {"float64"};
  EXPECT_EQ(check_workload(base, other_dtype).status, WorkloadStatus::different);
}

// Issue 50: a run that differs only in one launch's block_dim says so, naming the kernel.
TEST(WorkloadEquivalence, TheFirstDivergenceNamesWhatChangedAndForWhichKernel) {
  const Report base = with_launches({{launch("fill", 64), 1}, {launch("shift", 64), 1}});
  Report cand = base;
  testing::launches(cand).signatures[1].block_dim = 64;
  const WorkloadCheck check = check_workload(base, cand);
  ASSERT_TRUE(check.first_divergence.has_value());
  EXPECT_EQ(check.first_divergence->kernel, "shift");
  EXPECT_EQ(check.first_divergence->changes, (std::vector<LaunchFieldChange>{{"block_dim", "default", "64"}}));
  EXPECT_EQ(divergence_changes_text(*check.first_divergence), "block_dim default → 64 for shift");

  Report wider = base;
  testing::launches(wider).signatures[1].block_dim = 256;
  testing::launches(cand).signatures[1].dim = {128};
  const WorkloadCheck both = check_workload(wider, cand);
  ASSERT_TRUE(both.first_divergence.has_value());
  EXPECT_EQ(divergence_changes_text(*both.first_divergence), "block_dim 256 → 64 and dim (64) → (128) for shift");
  // A side that ran out has nothing to compare field by field.
  const WorkloadCheck shorter = check_workload(base, with_launches({{launch("fill", 64), 1}}));
  ASSERT_TRUE(shorter.first_divergence.has_value());
  EXPECT_EQ(divergence_changes_text(*shorter.first_divergence), "");
}

TEST(WorkloadEquivalence, OnlyAMissingRecordIsUnverified) {
  Report empty;  // instrumented, launched nothing: a record with no launches
  empty.instrumentation.attached = true;
  testing::main_record(empty).launches_recorded = true;
  EXPECT_EQ(check_workload(empty, empty).status, WorkloadStatus::equivalent);
  Report blind;  // no instrumentation: its missing launches say nothing
  EXPECT_EQ(check_workload(blind, blind).status, WorkloadStatus::unverified);
  const WorkloadCheck one_side = check_workload(with_launches({{launch("a", 1), 1}}), blind);
  EXPECT_EQ(one_side.status, WorkloadStatus::unverified);
  EXPECT_NE(one_side.reason.find("the candidate report has no launch record"), std::string::npos) << one_side.reason;
  EXPECT_FALSE(one_side.candidate_launches.has_value());
  EXPECT_EQ(check_workload(with_launches({{launch("a", 1), 1}}), empty).status, WorkloadStatus::different);
}

TEST(WorkloadEquivalence, TheOriginalProbesRecordMatchesOursForTheSameLaunches) {
  // The original probe lists only the arguments that carry a dtype; ours lists "" for the rest.
  Report ours = with_launches({{LaunchSignature{"scale", "__main__", {64}, "cpu", {"float32", ""}, 0, false}, 2}});
  Report original;
  original.origin = ReportOrigin::original_probe;
  for (int i = 0; i < 2; ++i)
    testing::launches(original).append(LaunchSignature{"scale", "__main__", {64}, "cpu", {"float32"}, 0, false});
  EXPECT_EQ(check_workload(original, ours).status, WorkloadStatus::equivalent);
  EXPECT_EQ(check_workload(ours, original).status, WorkloadStatus::equivalent);
  // Between two of our reports every argument counts: a scalar that became an array is new work.
  Report other =
      with_launches({{LaunchSignature{"scale", "__main__", {64}, "cpu", {"float32", "float32"}, 0, false}, 2}});
  EXPECT_EQ(check_workload(ours, other).status, WorkloadStatus::different);
  // An original-probe report with no launches has no record at all.
  Report silent;
  silent.origin = ReportOrigin::original_probe;
  EXPECT_EQ(check_workload(silent, ours).status, WorkloadStatus::unverified);
}

}  // namespace
}  // namespace wcp::verdict
