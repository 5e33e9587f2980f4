// The test-only WCP_JUDGE_FAULT switch (verdict/judge_fault.h): it names a verdict or is an
// error, and a forced judgement gives that verdict and its exit code while its reason keeps
// what the rules said, so a forced run can never be mistaken for a real one.
#include <gtest/gtest.h>

#include "errors.h"
#include "facts/queries.h"
#include "report_fixtures.h"
#include "verdict/judge_fault.h"

namespace wcp::verdict {
namespace {

TEST(JudgeFault, UnsetOrEmptyForcesNothing) {
  EXPECT_FALSE(judge_fault(lookup_in({})));
  EXPECT_FALSE(judge_fault(lookup_in({{"WCP_JUDGE_FAULT", ""}})));
}

TEST(JudgeFault, NamesAVerdictInLowerCase) {
  EXPECT_EQ(judge_fault(lookup_in({{"WCP_JUDGE_FAULT", "inconclusive"}})), Verdict::inconclusive);
  EXPECT_EQ(judge_fault(lookup_in({{"WCP_JUDGE_FAULT", "regression"}})), Verdict::regression);
}

TEST(JudgeFault, AnythingElseIsAUsageError) {
  try {
    judge_fault(lookup_in({{"WCP_JUDGE_FAULT", "IMPROVED!"}}));
    FAIL() << "expected a UsageError";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("one of invalid, regression, improved, inconclusive, unverified"),
              std::string::npos)
        << error.what();
  }
}

TEST(JudgeFault, AForcedJudgementSaysSoAndKeepsWhatTheRulesSaid) {
  const Report baseline = testing::clean_report(1000);
  const Report candidate = testing::clean_report(500);  // half the module work: IMPROVED by the rule `improved`
  ASSERT_EQ(judge(baseline, candidate).verdict, Verdict::improved);

  JudgeOptions options;
  options.forced_verdict = Verdict::inconclusive;
  const Judgement forced = judge(baseline, candidate, options);
  EXPECT_EQ(forced.verdict, Verdict::inconclusive);
  EXPECT_EQ(forced.exit_code, 0);
  EXPECT_EQ(forced.rule, Rule::improved);
  EXPECT_EQ(forced.reason.rfind("INCONCLUSIVE forced by WCP_JUDGE_FAULT (test only); the rules said IMPROVED: ", 0), 0u)
      << forced.reason;

  options.forced_verdict = Verdict::regression;
  EXPECT_EQ(judge(baseline, candidate, options).exit_code, 1);
}

}  // namespace
}  // namespace wcp::verdict
