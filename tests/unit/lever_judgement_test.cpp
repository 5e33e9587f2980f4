// levers/lever_judgement.h: behaviour first (exit status, workload), then arrival proved from
// the run, then the paired clocks; never a saving for a lever that did not arrive.
#include "levers/lever_judgement.h"

#include <gtest/gtest.h>

#include "report_fixtures.h"

namespace wcp::levers {
namespace {

using testing::clean_report;
using testing::launch_of;
using testing::launches;

Lever backward_off() {
  Lever lever;
  lever.id = "backward-off";
  lever.kind = LeverKind::config;
  lever.name = "enable_backward";
  lever.value_json = "false";
  return lever;
}

ArmResult arm_of(Report report) {
  ArmResult arm;
  arm.report = std::move(report);
  return arm;
}

Report with_hash(const std::string& hash, double cold_ms) {
  Report report = clean_report(cold_ms);
  report.module_events.front().hash = hash;
  return report;
}

TEST(LeverJudgement, AnOptionLeverArrivesWhenATargetModulesHashMoved) {
  const Report baseline = with_hash("aaaaaaa", 3000.0);
  EXPECT_NE(proven_arrival(backward_off(), baseline, with_hash("bbbbbbb", 2000.0)).find("__main__"), std::string::npos);
  EXPECT_EQ(proven_arrival(backward_off(), baseline, with_hash("aaaaaaa", 2000.0)), "");
  // A module lever aimed elsewhere did not reach __main__, whatever its hash did.
  Lever other = backward_off();
  other.kind = LeverKind::module_option;
  other.modules = {"elsewhere"};
  EXPECT_EQ(proven_arrival(other, baseline, with_hash("bbbbbbb", 2000.0)), "");
}

TEST(LeverJudgement, AUniqueModuleLeverArrivesThoughTheModulesNameMovedWithItsHash) {
  Report baseline = with_hash("aaaaaaa", 3000.0);
  baseline.module_events.front().name = "make__locals__k_aaaaaaaa";
  Report arm = with_hash("bbbbbbb", 2000.0);
  arm.module_events.front().name = "make__locals__k_bbbbbbbb";
  Lever lever = backward_off();
  lever.kind = LeverKind::module_option;
  lever.modules = {"make__locals__k_aaaaaaaa"};
  EXPECT_NE(proven_arrival(lever, baseline, arm).find("make__locals__k_aaaaaaaa (aaaaaaa -> bbbbbbb)"),
            std::string::npos);
  // Another factory's kernel is another module.
  arm.module_events.front().name = "other__locals__k_bbbbbbbb";
  EXPECT_EQ(proven_arrival(lever, baseline, arm), "");
}

TEST(LeverJudgement, ANoOpLeverArrivesOnlyByTheCallsItIntercepted) {
  Lever noop;
  noop.id = "noop:clear_kernel_cache";
  noop.kind = LeverKind::noop_call;
  noop.name = "clear_kernel_cache";
  Report arm = clean_report();
  EXPECT_EQ(proven_arrival(noop, clean_report(), arm), "");
  arm.lever_arrivals = {LeverArrival{noop.id, "applied", "", {}, 0, {}}};
  EXPECT_EQ(proven_arrival(noop, clean_report(), arm), "");
  arm.lever_arrivals.front().calls_intercepted = 2;
  EXPECT_NE(proven_arrival(noop, clean_report(), arm).find("2 call(s)"), std::string::npos);
}

TEST(LeverJudgement, ALeverThatChangesTheExitStatusIsNeededByTheProgramNeverASaving) {
  Report failed = with_hash("bbbbbbb", 1000.0);
  failed.sample_results.front().exit_code = 1;
  LeverOutcome outcome;
  outcome.lever = backward_off();
  judge_lever(arm_of(with_hash("aaaaaaa", 3000.0)), arm_of(failed), outcome);
  EXPECT_EQ(outcome.status, LeverStatus::needed_by_program);
  EXPECT_EQ(outcome.workload, LeverWorkload::program_failed);
  ASSERT_FALSE(outcome.behaviour_evidence.empty());
  EXPECT_NE(outcome.behaviour_evidence.front().find("exit status 1"), std::string::npos);
  EXPECT_FALSE(outcome.cold_module.after_ms.has_value());
}

TEST(LeverJudgement, ALeverThatLaunchesSomethingElseIsNeededWithTheFirstDifferingLaunch) {
  Report changed = with_hash("bbbbbbb", 1000.0);
  launches(changed).append(launch_of("k", 32), 1);
  LeverOutcome outcome;
  outcome.lever = backward_off();
  judge_lever(arm_of(with_hash("aaaaaaa", 3000.0)), arm_of(changed), outcome);
  EXPECT_EQ(outcome.status, LeverStatus::needed_by_program);
  EXPECT_EQ(outcome.workload, LeverWorkload::changed);
  ASSERT_FALSE(outcome.behaviour_evidence.empty());
  EXPECT_NE(outcome.behaviour_evidence.front().find("launch #4"), std::string::npos)
      << outcome.behaviour_evidence.front();
}

TEST(LeverJudgement, ALeverThatDidNotArriveSaysSoAndHasNoClocks) {
  LeverOutcome outcome;
  outcome.lever = backward_off();
  Report same = with_hash("aaaaaaa", 2900.0);
  same.lever_arrivals = {LeverArrival{"backward-off", "applied", "", {}, 0, {}}};
  judge_lever(arm_of(with_hash("aaaaaaa", 3000.0)), arm_of(same), outcome);
  EXPECT_EQ(outcome.status, LeverStatus::did_not_arrive);
  EXPECT_EQ(outcome.workload, LeverWorkload::same);
  EXPECT_FALSE(outcome.cold_module.after_ms.has_value());
  EXPECT_EQ(outcome.cold_module.verdict, "");
}

TEST(LeverJudgement, AModuleWhoseOptionsWereReplacedAfterTheLeverSaysWhoLostIt) {
  // example_darcy_ls_optimization: warp.fem assigns module.options to the modules it generates,
  // after their creation, so a per-module lever set there never reaches the build.
  LeverOutcome outcome;
  outcome.lever = backward_off();
  outcome.lever.kind = LeverKind::module_option;
  outcome.lever.modules = {"__main__.classify_boundary_sides_37f07b9f"};
  Report same = with_hash("aaaaaaa", 2900.0);
  same.lever_arrivals = {LeverArrival{"backward-off",
                                      "applied",
                                      "",
                                      {"__main__.classify_boundary_sides_37f07b9f"},
                                      0,
                                      {"__main__.classify_boundary_sides_37f07b9f"}}};
  judge_lever(arm_of(with_hash("aaaaaaa", 3000.0)), arm_of(same), outcome);
  EXPECT_EQ(outcome.status, LeverStatus::did_not_arrive);
  EXPECT_NE(outcome.reason.find("set at the creation of __main__.classify_boundary_sides_37f07b9f, but code after "
                                "that replaced or rewrote its options"),
            std::string::npos)
      << outcome.reason;
}

TEST(LeverJudgement, WhatTheProbeCannotApplyHereIsNotApplicable) {
  LeverOutcome outcome;
  outcome.lever = backward_off();
  Report arm = with_hash("aaaaaaa", 3000.0);
  arm.lever_arrivals = {
      LeverArrival{"backward-off", "not_applicable", "this Warp has no warp.config.enable_backward", {}, 0, {}}};
  judge_lever(arm_of(with_hash("aaaaaaa", 3000.0)), arm_of(arm), outcome);
  EXPECT_EQ(outcome.status, LeverStatus::not_applicable);
  EXPECT_NE(outcome.reason.find("no warp.config"), std::string::npos);
}

TEST(LeverJudgement, AnArrivedLeverIsJudgedOnItsPairedClocks) {
  LeverOutcome outcome;
  outcome.lever = backward_off();
  outcome.judged_on = "cold module work";
  judge_lever(arm_of(with_hash("aaaaaaa", 3000.0)), arm_of(with_hash("bbbbbbb", 1500.0)), outcome);
  EXPECT_EQ(outcome.status, LeverStatus::measured);
  EXPECT_EQ(outcome.workload, LeverWorkload::same);
  ASSERT_TRUE(outcome.cold_module.before_ms && outcome.cold_module.after_ms);
  EXPECT_DOUBLE_EQ(*outcome.cold_module.before_ms, 3000.0);
  EXPECT_DOUBLE_EQ(*outcome.cold_module.after_ms, 1500.0);
  ASSERT_TRUE(outcome.cold_module.delta_ms.has_value());
  EXPECT_DOUBLE_EQ(*outcome.cold_module.delta_ms, -1500.0);
  // One pair all one way cannot clear the sign test: the judge says so rather than claim a saving.
  EXPECT_FALSE(outcome.cold_module.verdict.empty());
  EXPECT_NE(outcome.arrival.find("moved"), std::string::npos);
}

TEST(LeverDecision, ALeverThatDidNotArriveIsDecidedByItsFirstPair) {
  Report same = with_hash("aaaaaaa", 2900.0);
  same.lever_arrivals = {LeverArrival{"backward-off", "applied", "", {}, 0, {}}};
  const auto decision = lever_decision(arm_of(with_hash("aaaaaaa", 3000.0)), arm_of(same), backward_off());
  EXPECT_TRUE(decision.decided);
  EXPECT_EQ(decision.how, "decided after 1 pair: it did not arrive");
}

TEST(LeverDecision, AnArrivedLeverWaitsWhileOnePairCannotMeasureItsNoise) {
  // Half the work at one pair: the sign test cannot credit it yet and no noise is measured, so
  // `--pairs auto` takes another round.
  const auto decision =
      lever_decision(arm_of(with_hash("aaaaaaa", 3000.0)), arm_of(with_hash("bbbbbbb", 1500.0)), backward_off());
  EXPECT_FALSE(decision.decided) << decision.how;
  EXPECT_NE(decision.how.find("noise not yet measured"), std::string::npos) << decision.how;
}

}  // namespace
}  // namespace wcp::levers
