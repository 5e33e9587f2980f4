// Judging in reference units (verdict/normalised.h): a baseline recorded on one machine keeps
// its meaning on a faster or slower one, and nothing is scaled that cannot be.
#include <gtest/gtest.h>

#include "facts/reference_units.h"
#include "report_fixtures.h"
#include "verdict/normalised.h"

namespace wcp::verdict {
namespace {

// A clean report whose single sample's reference build took `reference_ms`.
Report with_reference(double cold_ms, double reference_ms, const std::string& name = "warp_cpu/ref/v1") {
  Report report = testing::clean_report(cold_ms);
  MachineReference reference;
  reference.name = name;
  reference.samples = {ReferenceSample{1, {reference_ms}, ""}};
  finish_reference(reference, report.sample_results);
  report.reference = reference;
  return report;
}

// The same launches, one more compiled identity: new work, so a rise in work is a regression.
Report with_extra_identity(Report report) {
  report.module_events.push_back(testing::compiled("__main__", "bbbbbbb", 10.0));
  report.identities = 2;
  report.compiled_events = 2;
  return report;
}

TEST(JudgeNormalised, AFasterMachineEarnsNoCredit) {
  // Baseline on a slow machine: 4000 ms at a 400 ms reference (10 units). The candidate, on a
  // machine more than twice as fast, compiles more: 2400 ms at a 150 ms reference (16 units). One sample
  // each and no noise known: both moves are beyond the gross-change bound.
  const Report baseline = with_reference(4000.0, 400.0);
  const Report candidate = with_extra_identity(with_reference(2400.0, 150.0));
  EXPECT_EQ(judge(baseline, candidate).verdict, Verdict::improved);  // in ms: a false improvement
  const Judgement judgement = judge_normalised(baseline, candidate);
  EXPECT_EQ(judgement.verdict, Verdict::regression);
  ASSERT_TRUE(judgement.module_work.candidate);
  EXPECT_DOUBLE_EQ(judgement.module_work.candidate->median, 6400.0);  // 16 units at the baseline's 400 ms
  ASSERT_FALSE(judgement.notes.empty());
  EXPECT_NE(judgement.notes.front().find("judged in reference units"), std::string::npos) << judgement.notes.front();
}

TEST(JudgeNormalised, TheSameUnitsOnASlowerMachineAreNotARegression) {
  const Report baseline = with_reference(2000.0, 200.0);
  const Report candidate = with_extra_identity(with_reference(3000.0, 300.0));
  JudgeOptions in_ms;
  in_ms.runner_speed_from_unchanged = false;
  EXPECT_EQ(judge(baseline, candidate, in_ms).verdict, Verdict::regression);
  // The module both built identically tells the same slowdown without a reference.
  const Judgement at_speed = judge(baseline, candidate);
  ASSERT_TRUE(at_speed.runner_speed);
  EXPECT_DOUBLE_EQ(at_speed.runner_speed->ratio, 1.5);
  EXPECT_NE(at_speed.verdict, Verdict::regression);
  const Judgement judgement = judge_normalised(baseline, candidate);
  EXPECT_FALSE(judgement.runner_speed) << "the reference already scaled it: never twice";
  EXPECT_NE(judgement.verdict, Verdict::regression);
  EXPECT_EQ(judgement.module_work.direction, Direction::within_band);
}

TEST(JudgeNormalised, FallsBackToMillisecondsAndSaysWhy) {
  const Report baseline = with_reference(2000.0, 200.0);
  const Report other_reference = with_reference(3000.0, 300.0, "nvrtc/sm_90/pch/v1");
  std::string why;
  EXPECT_FALSE(scale_to_baseline_reference(baseline, other_reference, why));
  EXPECT_NE(why.find("differ"), std::string::npos);
  const Judgement judgement = judge_normalised(baseline, other_reference);
  EXPECT_NE(judgement.notes.front().find("judged in milliseconds"), std::string::npos);

  Report unpartnered = with_reference(3000.0, 300.0);
  unpartnered.reference->samples.front().after_sample = 7;
  EXPECT_FALSE(scale_to_baseline_reference(baseline, unpartnered, why));
  EXPECT_NE(why.find("no reference partner"), std::string::npos) << why;

  // Neither side measured a reference: the judgement is the plain one, with no extra note.
  const Judgement plain = judge_normalised(testing::clean_report(), testing::clean_report());
  EXPECT_EQ(plain.notes, judge(testing::clean_report(), testing::clean_report()).notes);
}

}  // namespace
}  // namespace wcp::verdict
