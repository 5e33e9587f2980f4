// The mapping from check's result to a bisection step: good, bad, skip or abort (and the exit
// code git reads), decided from check's JSON rather than its exit code.
#include "bisect/bisect_outcome.h"

#include <gtest/gtest.h>

namespace wcp::bisect {
namespace {

const char* kPass = R"({"file": "b.yaml", "passed": true, "commands": [
  {"name": "app", "status": "pass", "outcomes": [
    {"budget": "max_builds_per_module", "verdict": "pass", "measured": 1, "limit": 1}]}]})";

const char* kFail = R"({"file": "b.yaml", "passed": false, "commands": [
  {"name": "app", "status": "fail", "outcomes": [
    {"budget": "max_modules", "verdict": "pass", "measured": 1, "limit": 4},
    {"budget": "max_builds_per_module", "verdict": "fail", "measured": 2, "limit": 1}]}]})";

const char* kRunFailure = R"({"file": "b.yaml", "passed": false, "commands": [
  {"name": "app", "status": "fail", "run_failure": "every sample failed", "outcomes": []}]})";

TEST(BisectOutcome, EveryBudgetPassingIsGood) {
  const auto decision = decide_step(0, kPass);
  EXPECT_EQ(decision.outcome, StepOutcome::good);
  EXPECT_EQ(git_exit_code(decision.outcome), 0);
}

TEST(BisectOutcome, AFailedBudgetIsBadAndNamedWithItsNumbers) {
  const auto decision = decide_step(1, kFail);
  EXPECT_EQ(decision.outcome, StepOutcome::bad);
  EXPECT_EQ(decision.reason, "budget failed: app max_builds_per_module (measured 2, limit 1)");
  EXPECT_EQ(git_exit_code(decision.outcome), 1);
}

TEST(BisectOutcome, EverySampleFailedIsSkipNotBad) {
  // check exits 1 here too: the exit code alone would call this commit bad.
  const auto decision = decide_step(1, kRunFailure);
  EXPECT_EQ(decision.outcome, StepOutcome::skip);
  EXPECT_EQ(decision.reason, "app: every sample failed");
  EXPECT_EQ(git_exit_code(decision.outcome), 125);
}

TEST(BisectOutcome, TheJsonDecidesOverTheExitCode) {
  EXPECT_EQ(decide_step(0, kFail).outcome, StepOutcome::bad);
  EXPECT_EQ(decide_step(1, kPass).outcome, StepOutcome::good);
}

TEST(BisectOutcome, AFailedBudgetElsewhereOutweighsACommandThatCouldNotRun) {
  const char* mixed = R"({"commands": [
    {"name": "a", "run_failure": "every sample failed", "outcomes": []},
    {"name": "b", "outcomes": [{"budget": "max_modules", "verdict": "fail"}]}]})";
  const auto decision = decide_step(1, mixed);
  EXPECT_EQ(decision.outcome, StepOutcome::bad);
  EXPECT_EQ(decision.reason, "budget failed: b max_modules");
}

TEST(BisectOutcome, OneCommandThatCouldNotRunMakesThePassingRestASkip) {
  const char* mixed = R"({"commands": [
    {"name": "a", "run_failure": "every sample failed: exit 1", "outcomes": []},
    {"name": "b", "outcomes": [{"budget": "max_modules", "verdict": "pass"}]}]})";
  EXPECT_EQ(decide_step(1, mixed).outcome, StepOutcome::skip);
}

TEST(BisectOutcome, ACommandNotRunOnThisMachineIsIgnored) {
  const char* partly = R"({"commands": [
    {"name": "gpu", "status": "not_run", "not_run": "needs a CUDA device", "outcomes": []},
    {"name": "cpu", "outcomes": [{"budget": "max_modules", "verdict": "pass"}]}]})";
  EXPECT_EQ(decide_step(0, partly).outcome, StepOutcome::good);
  const char* none = R"({"commands": [{"name": "gpu", "not_run": "needs a CUDA device", "outcomes": []}]})";
  const auto decision = decide_step(0, none);
  EXPECT_EQ(decision.outcome, StepOutcome::abort);
  EXPECT_EQ(decision.abort_exit_code, 77);
}

TEST(BisectOutcome, ImprovedAndAcceptedVerdictsAreGood) {
  const char* improved = R"({"commands": [{"name": "a", "outcomes": [
    {"budget": "baseline", "verdict": "improved"}, {"budget": "max_modules", "verdict": "accepted"}]}]})";
  EXPECT_EQ(decide_step(0, improved).outcome, StepOutcome::good);
}

TEST(BisectOutcome, CheckUsageInternalAndNotRunAbortWithCheckCode) {
  for (const int code : {2, 3, 77}) {
    const auto decision = decide_step(code, kPass);
    EXPECT_EQ(decision.outcome, StepOutcome::abort) << code;
    EXPECT_EQ(decision.abort_exit_code, code);
    EXPECT_NE(decision.reason.find(std::to_string(code)), std::string::npos) << decision.reason;
  }
  EXPECT_EQ(git_exit_code(StepOutcome::abort), 128);
}

TEST(BisectOutcome, MissingOrUnreadableJsonAborts) {
  const auto missing = decide_step(1, std::nullopt);
  EXPECT_EQ(missing.outcome, StepOutcome::abort);
  EXPECT_EQ(missing.abort_exit_code, 3);
  EXPECT_EQ(decide_step(0, std::string("{not json")).outcome, StepOutcome::abort);
  EXPECT_EQ(decide_step(0, std::string(R"({"passed": true})")).outcome, StepOutcome::abort);
}

TEST(BisectOutcome, ACheckKilledBySignalAborts) {
  const auto decision = decide_step(130, kPass);
  EXPECT_EQ(decision.outcome, StepOutcome::abort);
  EXPECT_EQ(decision.abort_exit_code, 3);
}

TEST(BisectOutcome, WordsRoundTrip) {
  for (const auto outcome : {StepOutcome::good, StepOutcome::bad, StepOutcome::skip, StepOutcome::abort}) {
    EXPECT_EQ(step_outcome_from(to_string(outcome)), outcome);
  }
  EXPECT_EQ(step_outcome_from("maybe"), std::nullopt);
}

}  // namespace
}  // namespace wcp::bisect
