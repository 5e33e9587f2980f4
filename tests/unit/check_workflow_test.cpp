// check's workflow (budget/check_workflow.h) on fake steps: which entries run, which baseline
// each is judged against, that auto sampling asks the budgets after each run, and that a
// baseline is re-accepted only when the rest of the run passed.
#include "budget/check_workflow.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "errors.h"
#include "report_fixtures.h"

namespace wcp::budget {
namespace {

using testing::clean_report;
using testing::compiled;

// Records what the workflow asked; measures by handing out `reports` in turn, one sample each
// run, calling `stop` after each like measure::measure does.
class FakeSteps final : public CheckSteps {
 public:
  Report measured = clean_report();
  int samples_to_offer = 1;
  std::optional<Report> branch_baseline;
  std::vector<std::string> measured_names, finished_names;
  std::vector<bool> finished_with_report;
  int history_asks = 0;
  int stop_asks = 0;
  std::optional<Report> baseline_seen;

  Report measure(const CommandEntry& entry, const std::optional<Report>& baseline,
                 const measure::StopSampling& stop) override {
    measured_names.push_back(entry.name);
    baseline_seen = baseline;
    Report report = measured;
    report.samples = 0;
    for (int sample = 1; sample <= samples_to_offer; ++sample) {
      report.samples = sample;
      if (stop) {
        ++stop_asks;
        if (stop(report)) break;
      }
    }
    return report;
  }
  // Arm A of --against-rev: `at_revision`, one pair per step, `stop` asked after each.
  Report at_revision = clean_report();
  std::vector<std::string> revisions_seen;
  int pairs_taken = 0;
  measure::AbReports measure_against_revision(const CommandEntry& entry, const std::string& revision, int most_pairs,
                                              const measure::StopPairs& stop, std::string& description) override {
    measured_names.push_back(entry.name);
    revisions_seen.push_back(revision);
    description = revision + " (fake)";
    measure::AbReports reports{at_revision, measured};
    for (auto* report : {&reports.baseline, &reports.candidate}) report->sample_results.clear();
    for (int pair = 1; pair <= most_pairs; ++pair) {
      pairs_taken = pair;
      for (auto [arm, source] :
           {std::pair{&reports.baseline, &at_revision}, std::pair{&reports.candidate, &measured}}) {
        SampleResult sample = source->sample_results.front();
        sample.index = pair;
        arm->sample_results.push_back(sample);
        arm->samples = pair;
      }
      if (stop && pair < most_pairs && stop(reports)) break;
    }
    return reports;
  }
  EarlierNoise earlier_noise(const Report&) override { return {}; }
  std::optional<Report> history_baseline(const CommandEntry&, const Report&, EvaluateOptions& options) override {
    ++history_asks;
    options.history_baseline = EvaluateOptions::HistoryBaseline{"the last 3 runs of main", ""};
    return branch_baseline;
  }
  void finished(const CommandEntry& entry, const Report* report, const CommandResult&) override {
    finished_names.push_back(entry.name);
    finished_with_report.push_back(report != nullptr);
  }
};

CommandEntry entry_named(std::string name, DeviceRequirement device = DeviceRequirement::any) {
  CommandEntry entry;
  entry.name = std::move(name);
  entry.device = device;
  entry.samples = 1;
  entry.auto_samples = false;
  entry.budgets.max_modules = 1;
  return entry;
}

TEST(CheckWorkflow, ACudaEntryIsNotRunWithoutADeviceAndTheOthersRunInOrder) {
  const CommandEntry cpu = entry_named("cpu"), gpu = entry_named("gpu", DeviceRequirement::cuda),
                     last = entry_named("last");
  CheckPlan plan;
  plan.selected = {&cpu, &gpu, &last};
  FakeSteps steps;
  const CheckResult result = run_check_workflow(plan, steps);
  EXPECT_EQ(steps.measured_names, (std::vector<std::string>{"cpu", "last"}));
  EXPECT_EQ(steps.finished_names, (std::vector<std::string>{"cpu", "gpu", "last"}));
  EXPECT_EQ(steps.finished_with_report, (std::vector<bool>{true, false, true}));
  ASSERT_EQ(result.commands.size(), 3u);
  EXPECT_TRUE(result.commands[1].not_run.has_value());
  EXPECT_FALSE(result.failed());
  EXPECT_EQ(outcome_word(result.commands[0]), "pass");
}

TEST(CheckWorkflow, BaselinesFromTheHistoryReplaceTheFiles) {
  const CommandEntry app = entry_named("app");
  CheckPlan plan;
  plan.selected = {&app};
  plan.baselines.emplace("app", clean_report());
  FakeSteps steps;
  run_check_workflow(plan, steps);
  EXPECT_EQ(steps.history_asks, 0);
  EXPECT_TRUE(steps.baseline_seen.has_value());  // the file's, for the first estimate

  plan.baselines_from_history = true;
  FakeSteps from_history;
  run_check_workflow(plan, from_history);
  EXPECT_EQ(from_history.history_asks, 1);
  EXPECT_FALSE(from_history.baseline_seen.has_value());
}

TEST(CheckWorkflow, AutoSamplingAsksTheBudgetsAfterEachRun) {
  CommandEntry app = entry_named("app");
  app.auto_samples = true;
  app.samples = 5;
  CheckPlan plan;
  plan.selected = {&app};
  FakeSteps steps;
  steps.samples_to_offer = 5;
  run_check_workflow(plan, steps);
  // max_modules is decided by the first run: nothing more to measure.
  EXPECT_EQ(steps.stop_asks, 1);
}

TEST(CheckWorkflow, ABaselineIsReacceptedOnlyWhenTheOtherBudgetsPass) {
  const auto dir = std::filesystem::temp_directory_path() / "wcp_check_workflow_test";
  std::filesystem::remove_all(dir);
  CommandEntry app = entry_named("app");
  app.baseline_report = dir / "app.json";
  CheckPlan plan;
  plan.selected = {&app};
  plan.update_baseline = true;
  plan.options.updating_baseline = true;

  FakeSteps passing;
  CheckResult result = run_check_workflow(plan, passing);
  ASSERT_TRUE(result.commands[0].baseline_written.has_value());
  EXPECT_TRUE(std::filesystem::is_regular_file(*app.baseline_report));

  std::filesystem::remove_all(dir);
  FakeSteps failing;
  failing.measured.modules = 2;
  failing.measured.module_events = {compiled("a", "aaaaaaa", 100), compiled("b", "bbbbbbb", 100)};
  result = run_check_workflow(plan, failing);
  EXPECT_EQ(result.commands[0].baseline_not_written, "budget max_modules failed");
  EXPECT_FALSE(std::filesystem::exists(*app.baseline_report));
  EXPECT_EQ(outcome_word(result.commands[0]), "fail");
  std::filesystem::remove_all(dir);
}

// The arms of --against-rev as `measure` writes them now: the build environment and each
// module's bytes, so that identity can decide.
Report recorded_arm(const std::string& hash, double cold_ms) {
  Report report = clean_report(cold_ms);
  report.build_environment = BuildEnvironment{"1.19.0", "warp-clang.so 1 bytes crc64 0", "", "cpu", "flags"};
  report.module_events[0].hash = hash;
  report.cache.modules[0].directory = "wp___main___" + hash;
  report.cache.modules[0].source_digest = hash;
  report.cache.modules[0].output_digest = hash;
  return report;
}

TEST(CheckWorkflow, AnEntryWhoseIdentitiesDidNotChangeIsDecidedAfterOnePairAgainstItsRevision) {
  CommandEntry app = entry_named("app");
  app.auto_samples = true;
  app.samples = 5;
  app.baseline_rev = "main";
  CheckPlan plan;
  plan.selected = {&app};
  FakeSteps steps;
  steps.at_revision = recorded_arm("aaaaaaa", 1000.0);
  steps.measured = recorded_arm("aaaaaaa", 1200.0);  // a slower moment of the runner: the same code
  const CheckResult result = run_check_workflow(plan, steps);
  EXPECT_EQ(steps.revisions_seen, std::vector<std::string>{"main"});
  EXPECT_EQ(steps.pairs_taken, 1);
  const auto& baseline = result.commands[0].outcomes.back();
  ASSERT_EQ(baseline.budget, "baseline");
  EXPECT_EQ(baseline.judgement->verdict, verdict::Verdict::unchanged);
  EXPECT_EQ(baseline.verdict, Verdict::pass);
  EXPECT_NE(baseline.note.find("against main (fake), measured in pairs"), std::string::npos) << baseline.note;
  EXPECT_NE(result.commands[0].sampling->summary.find("decided after 1 pair"), std::string::npos)
      << result.commands[0].sampling->summary;
}

TEST(CheckWorkflow, AChangedEntryIsJudgedOnPairsUntilTheyDecide) {
  CommandEntry app = entry_named("app");
  app.auto_samples = true;
  app.samples = 5;
  CheckPlan plan;
  plan.selected = {&app};
  plan.against_rev = "origin/main";  // the flag wins over the file for every entry
  FakeSteps steps;
  steps.at_revision = recorded_arm("aaaaaaa", 1000.0);
  steps.measured = recorded_arm("bbbbbbb", 1120.0);
  const CheckResult result = run_check_workflow(plan, steps);
  EXPECT_EQ(steps.revisions_seen, std::vector<std::string>{"origin/main"});
  // Identical pairs (MAD 0): the band is 1 % from 3 pairs, and the sign test needs 5 pairs all
  // one way (p = 1/32) to call it.
  EXPECT_EQ(steps.pairs_taken, 5);
  const auto& baseline = result.commands[0].outcomes.back();
  EXPECT_EQ(baseline.judgement->verdict, verdict::Verdict::regression);
  EXPECT_TRUE(baseline.judgement->module_work.paired);
  EXPECT_EQ(baseline.verdict, Verdict::fail);
}

TEST(CheckWorkflow, OnlyNamesAnEntryOrSaysWhichThereAre) {
  BudgetFile file;
  file.path = "/b/budget.yaml";
  file.commands = {entry_named("a"), entry_named("b")};
  EXPECT_EQ(select_entries(file, "").size(), 2u);
  EXPECT_EQ(select_entries(file, "b").front()->name, "b");
  try {
    select_entries(file, "c");
    FAIL() << "an unknown name was accepted";
  } catch (const UsageError& error) {
    EXPECT_EQ(std::string(error.what()), "--only c: no such command in /b/budget.yaml (has: a, b)");
  }
}

}  // namespace
}  // namespace wcp::budget
