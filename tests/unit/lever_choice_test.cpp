// levers/lever_choice.h: which levers a measured program gets, from hand-built reports and
// diagnoses (the standing levers, the finding-driven ones, what this Warp or this run lacks).
#include "levers/lever_choice.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "levers/lever_arms.h"
#include "levers/lever_protocol.h"
#include "levers/python_value.h"
#include "report_fixtures.h"

namespace wcp::levers {
namespace {

using testing::clean_report;
using testing::kernel_in;
using testing::snapshot_load;

const ChosenLever* find(const std::vector<ChosenLever>& levers, const std::string& id) {
  const auto it = std::find_if(levers.begin(), levers.end(),
                               [&](const ChosenLever& lever) { return lever.outcome.lever.id == id; });
  return it == levers.end() ? nullptr : &*it;
}

Report report_on(const std::string& warp_version) {
  Report report = clean_report();
  report.warp_version = warp_version;
  return report;
}

analysis::Finding finding_of(Mechanism mechanism, const std::string& module = "", std::optional<double> cost = {}) {
  analysis::Finding finding;
  finding.mechanism = mechanism;
  finding.module = module;
  finding.cost_ms = cost;
  return finding;
}

TEST(LeverChoice, EveryProgramGetsTheBackwardLeverAtTheEntryPointAndNothingThatChangesResults) {
  const auto levers = choose_levers(report_on("1.19.0"), analysis::Diagnosis{});
  const ChosenLever* backward = find(levers, "backward-off");
  ASSERT_NE(backward, nullptr);
  EXPECT_TRUE(backward->runnable());
  EXPECT_EQ(backward->outcome.lever.kind, LeverKind::config);
  EXPECT_EQ(backward->outcome.lever.name, "enable_backward");
  EXPECT_EQ(backward->outcome.lever.value_json, "false");
  EXPECT_NE(backward->outcome.behaviour.find("gradients"), std::string::npos);
  EXPECT_FALSE(backward->outcome.predicted_saving_ms.has_value());  // no CS-10 finding: nothing predicted
  // lineinfo and mode levers only where a build had them on; fast_math only with --numerics.
  EXPECT_EQ(find(levers, "lineinfo-off"), nullptr);
  EXPECT_EQ(find(levers, "release-mode"), nullptr);
  EXPECT_EQ(find(levers, "fast-math"), nullptr);
}

TEST(LeverChoice, LineinfoAndReleaseModeWhereABuildHadThemAndFastMathOnlyWithNumerics) {
  Report report = report_on("1.19.0");
  report.module_events = {snapshot_load("__main__", "aaaaaaa", 100.0, {kernel_in("k", "/app/app.py", 3)})};
  report.module_events.front().detail->options["lineinfo"] = "True";
  report.module_events.front().detail->options["mode"] = "'debug'";
  ChoiceOptions options;
  options.numerics = true;
  const auto levers = choose_levers(report, analysis::Diagnosis{}, options);
  ASSERT_NE(find(levers, "lineinfo-off"), nullptr);
  const ChosenLever* release = find(levers, "release-mode");
  ASSERT_NE(release, nullptr);
  EXPECT_EQ(release->outcome.lever.value_json, "\"release\"");
  const ChosenLever* fast = find(levers, "fast-math");
  ASSERT_NE(fast, nullptr);
  EXPECT_TRUE(fast->outcome.lever.changes_numerics);
  EXPECT_EQ(fast->outcome.lever.kind, LeverKind::module_option);
  EXPECT_EQ(fast->outcome.lever.modules, std::vector<std::string>{"*"});
}

TEST(LeverChoice, AnEntryPointLeverTheProgramAlreadyTakesIsNotRun) {
  // fixtures/unique_modules sets wp.config.enable_backward = False itself.
  Report report = report_on("1.19.0");
  report.module_events = {snapshot_load("fill_a45253e7", "aaaaaaa", 100.0, {kernel_in("fill", "/app/app.py", 3)})};
  report.module_events.front().detail->options["enable_backward"] = "False";
  const auto levers = choose_levers(report, analysis::Diagnosis{});
  const ChosenLever* backward = find(levers, "backward-off");
  ASSERT_NE(backward, nullptr);
  EXPECT_EQ(backward->outcome.status, LeverStatus::not_applicable);
  EXPECT_EQ(backward->outcome.reason,
            "every module this run built already has enable_backward = False: the program sets it");
  // One build still with backward on: the lever can change it, so it runs.
  report.module_events.push_back(snapshot_load("other", "bbbbbbb", 100.0, {kernel_in("g", "/app/app.py", 9)}));
  report.module_events.back().detail->options["enable_backward"] = "True";
  const auto again = choose_levers(report, analysis::Diagnosis{});
  EXPECT_TRUE(find(again, "backward-off")->runnable());
}

// The levers for a run whose one CS-10 finding is on `module`, costing 250 ms.
std::vector<ChosenLever> levers_for_unused_backward(const std::string& module) {
  analysis::Diagnosis diagnosis;
  diagnosis.findings.push_back(finding_of(Mechanism::unused_backward, module, 250.0));
  return choose_levers(report_on("1.19.0"), diagnosis);
}

TEST(LeverChoice, UnusedBackwardGetsOneModuleLeverPerFindingWithItsPrediction) {
  const auto levers = levers_for_unused_backward("pipeline");
  const ChosenLever* module = find(levers, "backward-off:pipeline");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->outcome.lever.kind, LeverKind::module_option);
  EXPECT_EQ(module->outcome.lever.modules, std::vector<std::string>{"pipeline"});
  ASSERT_TRUE(module->outcome.predicted_saving_ms.has_value());
  EXPECT_DOUBLE_EQ(*module->outcome.predicted_saving_ms, 250.0);
  // The entry-point lever predicts what all CS-10 findings together cost.
  ASSERT_TRUE(find(levers, "backward-off")->outcome.predicted_saving_ms.has_value());
  EXPECT_EQ(find(levers, "backward-off")->outcome.lever.mechanism, Mechanism::unused_backward);
}

TEST(LeverChoice, OptionsWarpOneNineLacksAreNotApplicableThereWithTheReason) {
  analysis::Diagnosis diagnosis;
  diagnosis.findings.push_back(finding_of(Mechanism::precompiled_header));
  diagnosis.findings.push_back(finding_of(Mechanism::lto_dominated));
  for (const std::string version : {"1.9.1", "1.19.0"}) {
    const auto levers = choose_levers(report_on(version), diagnosis);
    const ChosenLever* pch = find(levers, "pch-flip");
    const ChosenLever* mathdx = find(levers, "mathdx-gemm-off");
    ASSERT_NE(pch, nullptr);
    ASSERT_NE(mathdx, nullptr);
    EXPECT_EQ(pch->runnable(), version == "1.19.0") << version;
    EXPECT_EQ(mathdx->runnable(), version == "1.19.0") << version;
    if (version == "1.9.1") {
      EXPECT_EQ(pch->outcome.status, LeverStatus::not_applicable);
      EXPECT_NE(pch->outcome.reason.find("use_precompiled_headers"), std::string::npos) << pch->outcome.reason;
    } else {
      EXPECT_EQ(pch->outcome.lever.value_json, "false");  // the header was in use (Warp's default): flipped off
    }
  }
}

TEST(LeverChoice, TheLoadWorkersLeverIsCudaOnlyAndNeverRunsWhenALoadTargetsTheCpu) {
  analysis::Diagnosis diagnosis;
  diagnosis.findings.push_back(finding_of(Mechanism::serial_builds));
  const auto on_cpu = choose_levers(report_on("1.19.0"), diagnosis);
  ASSERT_NE(find(on_cpu, "load-workers"), nullptr);
  EXPECT_EQ(find(on_cpu, "load-workers")->outcome.status, LeverStatus::not_applicable);
  EXPECT_NE(find(on_cpu, "load-workers")->outcome.reason.find("CPU"), std::string::npos);

  Report cuda = report_on("1.19.0");
  cuda.module_events = {snapshot_load("__main__", "aaaaaaa", 100.0, {kernel_in("k", "/app/app.py", 3)}, {}, "cuda:0")};
  ChoiceOptions options;
  options.workers = 8;
  const auto on_gpu = choose_levers(cuda, diagnosis, options);
  const ChosenLever* workers = find(on_gpu, "load-workers");
  ASSERT_NE(workers, nullptr);
  EXPECT_TRUE(workers->runnable());
  EXPECT_TRUE(workers->outcome.lever.cuda_only);
  EXPECT_EQ(workers->outcome.lever.value_json, "8");
  EXPECT_TRUE(is_scheduling(workers->outcome.lever));
  EXPECT_EQ(workers->outcome.judged_on, "compile elapsed");
  // And never on 1.9.1, which has no such option.
  cuda.warp_version = "1.9.1";
  EXPECT_FALSE(find(choose_levers(cuda, diagnosis, options), "load-workers")->runnable());
}

TEST(LeverChoice, RecordedCacheClearsBecomeNoOpLevers) {
  Report report = report_on("1.19.0");
  report.instrumentation.cache_clears = {{"clear_kernel_cache", SourceLocation{"/app/app.py", 7, "<module>"}},
                                         {"clear_kernel_cache", std::nullopt}};
  analysis::Diagnosis diagnosis;
  diagnosis.findings.push_back(finding_of(Mechanism::cache_not_reused, "", 900.0));
  const auto levers = choose_levers(report, diagnosis);
  const ChosenLever* noop = find(levers, "noop:clear_kernel_cache");
  ASSERT_NE(noop, nullptr);
  EXPECT_EQ(noop->outcome.lever.kind, LeverKind::noop_call);
  EXPECT_EQ(noop->outcome.lever.name, "clear_kernel_cache");
  EXPECT_NE(noop->outcome.take_it.find("app.py:7"), std::string::npos) << noop->outcome.take_it;
  EXPECT_EQ(find(levers, "noop:clear_lto_cache"), nullptr);
}

TEST(LeverChoice, AnOptionThatMissedItsDeadlineIsAppliedWhereItWouldArrive) {
  analysis::Diagnosis diagnosis;
  OptionReceipt config;
  config.write.api = OptionApi::config;
  config.write.target = std::string(kConfigTarget);
  config.write.key = "enable_backward";
  config.write.value = "False";
  config.outcome = ReceiptOutcome::reached_nothing;
  config.finding = Mechanism::config_deadline;
  OptionReceipt module;
  module.write.api = OptionApi::set_module_options;
  module.write.target = "stages";
  module.write.key = "max_unroll";
  module.write.value = "4";
  module.outcome = ReceiptOutcome::reached_nothing;
  module.finding = Mechanism::option_never_arrived;
  OptionReceipt reached = module;  // an option that arrived gets no lever
  reached.write.target = "other";
  reached.finding.reset();
  diagnosis.option_receipts = std::vector<OptionReceipt>{config, module, reached};
  const auto levers = choose_levers(report_on("1.19.0"), diagnosis);
  const ChosenLever* entry = find(levers, "config-at-entry:enable_backward");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->outcome.lever.kind, LeverKind::config);
  EXPECT_EQ(entry->outcome.lever.value_json, "false");
  const ChosenLever* creation = find(levers, "option-at-creation:max_unroll:stages");
  ASSERT_NE(creation, nullptr);
  EXPECT_EQ(creation->outcome.lever.kind, LeverKind::module_option);
  EXPECT_EQ(creation->outcome.lever.modules, std::vector<std::string>{"stages"});
  EXPECT_EQ(creation->outcome.lever.value_json, "4");
  EXPECT_EQ(find(levers, "option-at-creation:max_unroll:other"), nullptr);
}

TEST(LeverChoice, OnlyAndSkipNameLeversOrWholeFamilies) {
  analysis::Diagnosis diagnosis;
  diagnosis.findings.push_back(finding_of(Mechanism::unused_backward, "a"));
  diagnosis.findings.push_back(finding_of(Mechanism::precompiled_header));
  auto levers = choose_levers(report_on("1.19.0"), diagnosis);
  auto exact = levers;
  apply_selection(exact, {"backward-off"}, {});
  EXPECT_TRUE(find(exact, "backward-off")->runnable());
  EXPECT_EQ(find(exact, "backward-off:a")->outcome.status, LeverStatus::skipped);
  EXPECT_EQ(find(exact, "pch-flip")->outcome.status, LeverStatus::skipped);
  apply_selection(levers, {"backward-off", "backward-off:*"}, {});
  EXPECT_TRUE(find(levers, "backward-off:a")->runnable());
  apply_selection(levers, {}, {"backward-off:*"});
  EXPECT_TRUE(find(levers, "backward-off")->runnable());
  EXPECT_EQ(find(levers, "backward-off:a")->outcome.status, LeverStatus::skipped);
}

TEST(LeverProtocol, ValuesCrossBetweenJsonAndPythonAndTheProbeGetsItsArray) {
  EXPECT_EQ(python_repr("false"), "False");
  EXPECT_EQ(python_repr("\"release\""), "'release'");
  EXPECT_EQ(python_repr("4"), "4");
  EXPECT_EQ(python_repr("[1]"), std::nullopt);
  EXPECT_EQ(json_of_repr("True"), "true");
  EXPECT_EQ(json_of_repr("'debug'"), "\"debug\"");
  EXPECT_EQ(json_of_repr("0.5"), "0.5");
  EXPECT_EQ(json_of_repr("<object at 0x1>"), std::nullopt);

  Lever option;
  option.id = "backward-off:m";
  option.kind = LeverKind::module_option;
  option.name = "enable_backward";
  option.value_json = "false";
  option.modules = {"m"};
  Lever unique;
  unique.id = "drop-unique";
  unique.kind = LeverKind::drop_unique;
  unique.kernels = {{"make.<locals>.k", "/app/a.py"}};
  EXPECT_EQ(
      probe_levers_json({option, unique}),
      R"([{"id":"backward-off:m","kind":"module_option","modules":["m"],"name":"enable_backward","value":false},)"
      R"({"id":"drop-unique","kernels":[{"file":"/app/a.py","qualname":"make.<locals>.k"}],"kind":"drop_unique","name":""}])");
}

TEST(LeverProtocol, AUniqueModuleTargetTravelsWithItsKernelKey) {
  Lever option;
  option.id = "backward-off:make__locals__k_0123abcd";
  option.kind = LeverKind::module_option;
  option.name = "enable_backward";
  option.value_json = "false";
  option.modules = {"make__locals__k_0123abcd", "plain"};
  EXPECT_EQ(probe_levers_json({option}), R"([{"id":"backward-off:make__locals__k_0123abcd","kind":"module_option",)"
                                         R"("modules":["make__locals__k_0123abcd","plain"],"name":"enable_backward",)"
                                         R"("unique_kernels":["make__locals__k"],"value":false}])");
}

TEST(LeverChoice, AUniqueModulesBackwardLeverSaysItsScopeAndTheKernelsOwnFix) {
  const auto levers = levers_for_unused_backward("make__locals__k_0123abcd");
  const ChosenLever* module = find(levers, "backward-off:make__locals__k_0123abcd");
  ASSERT_NE(module, nullptr);
  EXPECT_NE(module->outcome.scope.find("every module=\"unique\" kernel of that name"), std::string::npos)
      << module->outcome.scope;
  // No owner recorded: the user's own kernel, so the fix is its own module_options.
  EXPECT_NE(module->outcome.take_it.find("module_options={\"enable_backward\": False}) on kernel make__locals__k"),
            std::string::npos)
      << module->outcome.take_it;
}

TEST(LeverArms, EachArmIsAsOftenEarlyAsLateOverTwoRounds) {
  for (int arms : {2, 3, 5}) {
    std::vector<int> position_sum(static_cast<std::size_t>(arms), 0);
    for (int round = 0; round < 2; ++round) {
      const auto order = round_order(round, arms);
      ASSERT_EQ(static_cast<int>(order.size()), arms);
      for (int position = 0; position < arms; ++position)
        position_sum[static_cast<std::size_t>(order[position])] += position;
    }
    for (int arm = 0; arm < arms; ++arm) EXPECT_EQ(position_sum[static_cast<std::size_t>(arm)], arms - 1) << arms;
  }
  EXPECT_NE(round_order(0, 3), round_order(2, 3));  // the rotation moves on every second round
}

}  // namespace
}  // namespace wcp::levers
