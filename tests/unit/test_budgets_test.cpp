// Test budgets (budget/test_budgets.h): per-test ceilings and no build after a warm-up, on
// crafted suites; under xdist a module two tests loaded is charged to neither.
#include <gtest/gtest.h>

#include <algorithm>

#include "budget/evaluate.h"
#include "report_fixtures.h"

namespace wcp::budget {
namespace {

using testing::clean_report;
using testing::compiled;

ModuleEvent built_by(const std::string& module, const std::string& hash, double ms, const std::string& test,
                     TestPhase phase = TestPhase::call, double start_s = 0.0, int pid = 100,
                     const std::string& worker = "", LoadStatus status = LoadStatus::compiled) {
  ModuleEvent event = compiled(module, hash, ms);
  event.status = status;
  LoadDetail detail;
  detail.pid = pid;
  detail.start_s = start_s;
  detail.end_s = start_s + ms / 1000.0;
  detail.test = TestContext{test, phase, worker};
  event.detail = std::move(detail);
  return event;
}

// A suite: collection builds `shapes`; test_warmup builds `solver`; test_step builds `contact`
// twice (two hashes) after the warm-up; test_io builds nothing new.
Report suite_report() {
  Report report = clean_report();
  report.module_events = {
      built_by("shapes", "aaaaaaa", 300, "", TestPhase::collection, 0.5),
      built_by("solver", "bbbbbbb", 900, "tests/test_sim.py::test_warmup", TestPhase::call, 1.0),
      built_by("contact", "ccccccc", 700, "tests/test_sim.py::test_step[cpu]", TestPhase::call, 3.0),
      built_by("contact", "ddddddd", 650, "tests/test_sim.py::test_step[cpu]", TestPhase::call, 4.0),
  };
  report.identities = 4;
  report.modules = 3;
  return report;
}

CommandEntry entry_with(Settings budgets) {
  CommandEntry entry;
  entry.name = "suite";
  entry.budgets = std::move(budgets);
  return entry;
}

const BudgetOutcome& outcome(const CommandResult& result, std::string_view budget) {
  const auto found = std::ranges::find_if(result.outcomes, [&](const auto& o) { return o.budget == budget; });
  if (found == result.outcomes.end()) throw std::runtime_error("no outcome " + std::string(budget));
  return *found;
}

TEST(TestBudgets, MaxTestBuildsNamesTheTestAndItsModules) {
  Settings budgets;
  budgets.max_test_builds = 1;
  budgets.allow_rebuilds = {{"contact", "test"}};
  const auto result = evaluate(entry_with(budgets), suite_report(), std::nullopt);
  const auto& builds = outcome(result, "max_test_builds");
  EXPECT_EQ(builds.verdict, Verdict::fail);
  EXPECT_EQ(builds.measured, 2.0);
  ASSERT_EQ(builds.offenders.size(), 1u);
  EXPECT_EQ(builds.offenders[0].test, "tests/test_sim.py::test_step[cpu]");
  EXPECT_TRUE(builds.offenders[0].module.empty());
  EXPECT_NE(builds.offenders[0].detail.find("contact"), std::string::npos) << builds.offenders[0].detail;
}

TEST(TestBudgets, CollectionIsNotChargedToAnyTest) {
  Settings budgets;
  budgets.max_test_builds = 2;
  budgets.max_test_cold_seconds = 1.0;
  budgets.allow_rebuilds = {{"contact", "test"}};
  const auto result = evaluate(entry_with(budgets), suite_report(), std::nullopt);
  EXPECT_EQ(outcome(result, "max_test_builds").verdict, Verdict::pass);
  // test_step: 0.70 + 0.65 s > 1.0 s; the collection's 0.30 s is charged to no test.
  const auto& seconds = outcome(result, "max_test_cold_seconds");
  EXPECT_EQ(seconds.verdict, Verdict::fail);
  EXPECT_NEAR(*seconds.measured, 1.35, 1e-9);
}

TEST(TestBudgets, NoBuildsAfterWarmupNamesTheLateBuilder) {
  Settings budgets;
  budgets.no_builds_after = "tests/test_sim.py::test_warmup";
  const auto result = evaluate(entry_with(budgets), suite_report(), std::nullopt);
  const auto& late = outcome(result, "no_builds_after");
  EXPECT_EQ(late.verdict, Verdict::fail);
  EXPECT_EQ(late.measured, 2.0);
  ASSERT_EQ(late.offenders.size(), 1u);
  EXPECT_EQ(late.offenders[0].test, "tests/test_sim.py::test_step[cpu]");
}

TEST(TestBudgets, NoBuildsAfterCollectionAcceptsOnlyImportPhases) {
  Settings budgets;
  budgets.no_builds_after = "collection";
  Report report = suite_report();
  EXPECT_EQ(outcome(evaluate(entry_with(budgets), report, std::nullopt), "no_builds_after").measured, 3.0);
  report.module_events.resize(1);  // only the collection's build
  EXPECT_EQ(outcome(evaluate(entry_with(budgets), report, std::nullopt), "no_builds_after").verdict, Verdict::pass);
}

TEST(TestBudgets, AWarmupThatLoadedNothingCannotPass) {
  Settings budgets;
  budgets.no_builds_after = "tests/test_sim.py::test_missing";
  const auto result = evaluate(entry_with(budgets), suite_report(), std::nullopt);
  const auto& late = outcome(result, "no_builds_after");
  EXPECT_EQ(late.verdict, Verdict::fail);
  EXPECT_NE(late.note.find("loaded no module"), std::string::npos) << late.note;
}

TEST(TestBudgets, ParametrisedIdMatchesEveryParameter) {
  Settings budgets;
  budgets.no_builds_after = "tests/test_sim.py::test_step";
  const auto result = evaluate(entry_with(budgets), suite_report(), std::nullopt);
  const auto& late = outcome(result, "no_builds_after");
  EXPECT_EQ(late.verdict, Verdict::pass) << late.note;
}

TEST(TestBudgets, UnderXdistAModuleTwoTestsLoadedIsChargedToNeither) {
  Report report = clean_report();
  report.module_events = {
      built_by("solver", "bbbbbbb", 900, "tests/test_a.py::test_one", TestPhase::call, 1.0, 101, "gw0"),
      built_by("solver", "bbbbbbb", 40, "tests/test_b.py::test_two", TestPhase::call, 1.5, 102, "gw1",
               LoadStatus::cached),
      built_by("extra", "eeeeeee", 500, "tests/test_b.py::test_two", TestPhase::call, 2.0, 102, "gw1"),
  };
  Settings budgets;
  budgets.max_test_builds = 0;
  const auto result = evaluate(entry_with(budgets), report, std::nullopt);
  const auto& builds = outcome(result, "max_test_builds");
  EXPECT_EQ(builds.verdict, Verdict::fail);
  ASSERT_EQ(builds.offenders.size(), 1u);  // test_one's only build is shared: not charged
  EXPECT_EQ(builds.offenders[0].test, "tests/test_b.py::test_two");
  EXPECT_NE(builds.note.find("xdist"), std::string::npos);
}

TEST(TestBudgets, ARunWithoutTestsCannotPass) {
  Settings budgets;
  budgets.max_test_builds = 10;
  const auto result = evaluate(entry_with(budgets), clean_report(), std::nullopt);
  const auto& builds = outcome(result, "max_test_builds");
  EXPECT_EQ(builds.verdict, Verdict::fail);
  EXPECT_FALSE(builds.measured.has_value());
  EXPECT_NE(builds.note.find("no load of this run carries a test"), std::string::npos) << builds.note;
}

TEST(TestBudgets, StructuralOffendersNameTheFirstTest) {
  Settings budgets;
  budgets.max_identities = 2;
  const auto result = evaluate(entry_with(budgets), suite_report(), std::nullopt);
  const auto& identities = outcome(result, "max_identities");
  EXPECT_EQ(identities.verdict, Verdict::fail);
  const auto contact = std::ranges::find_if(identities.offenders, [](const auto& o) { return o.module == "contact"; });
  ASSERT_NE(contact, identities.offenders.end());
  EXPECT_EQ(contact->test, "tests/test_sim.py::test_step[cpu]");
  EXPECT_NE(contact->explanation.find("rebuilt by tests/test_sim.py::test_step[cpu]"), std::string::npos)
      << contact->explanation;
}

}  // namespace
}  // namespace wcp::budget
