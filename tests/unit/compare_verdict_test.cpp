// Every compare verdict path, from crafted report pairs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "analysis/compare.h"
#include "report/report_json.h"

namespace wcp::analysis {
namespace {

using ::testing::HasSubstr;

Report report(std::vector<double> module_ms, std::vector<double> elapsed_ms, std::vector<std::string> hashes) {
  Report r;
  r.command = {"python", "app.py"};
  r.samples = static_cast<int>(module_ms.size());
  r.cold_module_ms = summarize(module_ms);
  r.compile_elapsed_ms = summarize(elapsed_ms);
  r.instrumentation.attached = true;
  for (const auto& hash : hashes) {
    ModuleEvent event;
    event.name = "__main__";
    event.hash = hash;
    event.device = "cpu";
    event.label = "cold";
    event.ms = 100.0;
    r.module_events.push_back(event);
  }
  r.identities = hashes.size();
  r.compiled_events = hashes.size();
  r.modules = 1;
  r.cache.generated_source_bytes = 1000 * hashes.size();
  append_launch(r.launches, Launch{"k", "__main__", {64}, "cpu", {"float32"}, 0, false}, 2);
  return r;
}

TEST(CompareVerdict, FewerBuildsForTheSameWorkIsImproved) {
  const Comparison result = compare_reports(report({1000, 1010, 990}, {900, 910, 890}, {"aaaaaaa", "bbbbbbb"}),
                                            report({600, 610, 590}, {500, 510, 490}, {"bbbbbbb"}));
  EXPECT_EQ(result.verdict, Verdict::improved);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.module_work.direction, Direction::improved);
  ASSERT_EQ(result.modules.size(), 1u);
  EXPECT_TRUE(result.modules[0].changed);
}

TEST(CompareVerdict, MoreWorkIsARegression) {
  const Comparison result = compare_reports(report({600, 610, 590}, {500, 510, 490}, {"bbbbbbb"}),
                                            report({1000, 1010, 990}, {900, 910, 890}, {"aaaaaaa", "bbbbbbb"}));
  EXPECT_EQ(result.verdict, Verdict::regression);
  EXPECT_EQ(result.exit_code, 1);
}

TEST(CompareVerdict, InsideTheBandIsInconclusive) {
  // band = max(1% of 1000, 2 × MAD 10) = 20 ms; +15 ms is noise.
  const Comparison result = compare_reports(report({990, 1000, 1010}, {900, 900, 900}, {"aaaaaaa"}),
                                            report({1015, 1015, 1015}, {905, 905, 905}, {"aaaaaaa"}));
  EXPECT_DOUBLE_EQ(result.module_work.band, 20.0);
  EXPECT_EQ(result.verdict, Verdict::inconclusive);
  EXPECT_EQ(result.exit_code, 0);
}

TEST(CompareVerdict, SameWorkSlowerIsContentionNotARegression) {
  const Comparison result = compare_reports(report({1000, 1000, 1000}, {900, 900, 900}, {"aaaaaaa"}),
                                            report({1300, 1300, 1300}, {905, 905, 905}, {"aaaaaaa"}));
  EXPECT_EQ(result.verdict, Verdict::same_work_compiled);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_THAT(result.reasons.front(), HasSubstr("judge on compile elapsed"));
}

TEST(CompareVerdict, AChangedWorkloadIsInvalidEvenWhenFaster) {
  Report candidate = report({100, 100, 100}, {90, 90, 90}, {"ccccccc"});
  candidate.launches.clear();
  append_launch(candidate.launches, Launch{"k", "__main__", {64}, "cpu", {"float32"}, 0, false}, 1);
  const Comparison result = compare_reports(report({1000, 1000, 1000}, {900, 900, 900}, {"aaaaaaa"}), candidate);
  EXPECT_EQ(result.verdict, Verdict::invalid);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.reasons.front(), HasSubstr("workload changed"));
}

TEST(CompareVerdict, CandidateFailuresAreInvalid) {
  Report candidate = report({600, 600, 600}, {500, 500, 500}, {"bbbbbbb"});
  candidate.failed_samples = 1;
  candidate.samples = 4;
  EXPECT_EQ(compare_reports(report({1000, 1000, 1000}, {900, 900, 900}, {"aaaaaaa"}), candidate).verdict,
            Verdict::invalid);
  candidate.failed_samples = 0;
  candidate.error_events = 2;
  EXPECT_EQ(compare_reports(report({1000, 1000, 1000}, {900, 900, 900}, {"aaaaaaa"}), candidate).verdict,
            Verdict::invalid);
}

TEST(CompareVerdict, NoLaunchesAnywhereIsUnverified) {
  Report base = report({1000, 1000, 1000}, {900, 900, 900}, {"aaaaaaa", "bbbbbbb"});
  Report cand = report({600, 600, 600}, {500, 500, 500}, {"bbbbbbb"});
  base.launches.clear();
  cand.launches.clear();
  const Comparison result = compare_reports(base, cand);
  EXPECT_EQ(result.verdict, Verdict::unverified);
  EXPECT_EQ(result.exit_code, 0);
}

TEST(CompareVerdict, BelowTheNoiseFloorCountsDecide) {
  const Comparison fewer =
      compare_reports(report({3, 3, 3}, {2, 2, 2}, {"aaaaaaa", "bbbbbbb"}), report({4, 4, 4}, {3, 3, 3}, {"bbbbbbb"}));
  EXPECT_TRUE(fewer.module_work.below_noise_floor);
  EXPECT_EQ(fewer.verdict, Verdict::improved);
}

TEST(CompareVerdict, DifferentCommandsWarn) {
  Report candidate = report({1000, 1000, 1000}, {900, 900, 900}, {"aaaaaaa"});
  candidate.command = {"python", "fixed.py"};
  const Comparison result = compare_reports(report({1000, 1000, 1000}, {900, 900, 900}, {"aaaaaaa"}), candidate);
  ASSERT_EQ(result.warnings.size(), 1u);
  EXPECT_THAT(result.warnings[0], HasSubstr("different commands"));
}

TEST(CompareVerdict, ReadsTheOriginalProbeFormat) {
  const Report original = load_report(std::string(WCP_TEST_DATA_DIR) + "/reports/original_probe.json");
  EXPECT_EQ(original.command, std::vector<std::string>{"python train.py"});
  const Comparison result = compare_reports(original, original);
  EXPECT_EQ(result.workload.status, WorkloadStatus::equivalent);
  EXPECT_EQ(result.verdict, Verdict::inconclusive);
}

}  // namespace
}  // namespace wcp::analysis
