// Which test built what (schema 11, facts/test_attribution.h): rows per test and per phase of
// the suite, summing to the cold module work; the identities each built first; the rebuilds it
// caused and whom it rebuilt after; the JSON round trip; the ranking and its text; the rebuild
// finding naming the test.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "report_fixtures.h"

#include <sstream>

#include "codec/report_json.h"
#include "facts/queries.h"
#include "facts/test_attribution.h"
#include "render/report_text.h"

namespace wcp {
namespace {

using ::testing::HasSubstr;

ModuleEvent built_in(const std::string& name, const std::string& hash, double ms, const std::string& test,
                     TestPhase phase, const std::string& worker = "") {
  ModuleEvent event = testing::compiled(name, hash, ms);
  event.detail.emplace();
  event.detail->test = TestContext{test, phase, worker};
  return event;
}

Report suite_report() {
  Report report = testing::clean_report();
  ModuleEvent cached = built_in("solver", "1111111", 2.0, "t.py::test_cached", TestPhase::call);
  cached.status = LoadStatus::cached;
  ModuleEvent warm = built_in("solver", "1111111", 50.0, "t.py::test_a", TestPhase::call);
  warm.pass = Pass::warm;
  report.module_events = {
      built_in("t", "aaaaaaa", 100.0, "", TestPhase::collection, "gw0"),
      built_in("solver", "1111111", 300.0, "t.py::test_a", TestPhase::setup),
      built_in("solver", "2222222", 200.0, "t.py::test_b", TestPhase::call),
      built_in("helpers", "3333333", 40.0, "t.py::test_a", TestPhase::teardown),
      built_in("t", "aaaaaaa", 90.0, "", TestPhase::collection, "gw1"),  // another worker's build
      cached,
      warm,
  };
  report.sample_results[0].cold_module_ms = 730.0;
  return report;
}

TEST(TestAttribution, RowsPerTestAndPhaseAddUpToTheColdModuleWork) {
  const Report report = suite_report();
  const auto rows = test_attribution(report);
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows->size(), 3u);  // collection, test_a (setup + teardown), test_b; nothing for a cached load
  EXPECT_EQ((*rows)[0].id, "");
  EXPECT_EQ((*rows)[0].suite_phase, TestPhase::collection);
  EXPECT_EQ((*rows)[0].builds, 2);
  EXPECT_EQ((*rows)[0].first_built.size(), 1u);  // the second worker's build of it was not first
  EXPECT_EQ((*rows)[1].id, "t.py::test_a");
  EXPECT_FALSE((*rows)[1].suite_phase);
  EXPECT_EQ((*rows)[1].builds, 2);
  EXPECT_DOUBLE_EQ((*rows)[1].cold_module_ms, 340.0);
  double total = 0.0;
  for (const auto& row : *rows) total += row.cold_module_ms;
  double cold = 0.0;
  for (const ModuleEvent* event : cold_compiled_events(report)) cold += event->ms;
  EXPECT_DOUBLE_EQ(total, cold);
  EXPECT_DOUBLE_EQ(total, *report.sample_results[0].cold_module_ms);
}

TEST(TestAttribution, ARebuildNamesTheEarlierTestAndIdentity) {
  const auto rows = test_attribution(suite_report());
  ASSERT_TRUE(rows);
  const TestCompileCost& test_b = (*rows)[2];
  ASSERT_EQ(test_b.rebuilt.size(), 1u);
  EXPECT_EQ(test_b.rebuilt[0].identity.hash, "2222222");
  EXPECT_EQ(test_b.rebuilt[0].earlier.hash, "1111111");
  EXPECT_EQ(test_b.rebuilt[0].earlier_test, "t.py::test_a");
  EXPECT_TRUE((*rows)[1].rebuilt.empty());
  EXPECT_TRUE((*rows)[0].rebuilt.empty());  // the same identity again is no rebuild under another identity
}

TEST(TestAttribution, AbsentWithoutAnyTestContext) {
  EXPECT_FALSE(test_attribution(testing::clean_report()));
  // Loads no test context was recorded for (a process without a runner) get a row of their own.
  Report report = suite_report();
  report.module_events.push_back(testing::compiled("other", "4444444", 7.0));
  const auto rows = test_attribution(report);
  ASSERT_TRUE(rows);
  EXPECT_EQ(rows->back().id, "");
  EXPECT_FALSE(rows->back().suite_phase);
  EXPECT_EQ(test_row_name(rows->back().id, rows->back().suite_phase), "(no test recorded)");
}

TEST(TestAttribution, JsonRoundTrip) {
  Report report = suite_report();
  report.tests = test_attribution(report);
  const Report back = report_from_json(report_to_json(report), "test");
  EXPECT_EQ(back.tests, report.tests);
  for (const auto& event : back.module_events) EXPECT_TRUE(event.detail && event.detail->test);
  report.tests.reset();
  const auto document = report_to_json(report);
  EXPECT_TRUE(document.at("tests").is_null());
  EXPECT_FALSE(report_from_json(document, "test").tests);
}

TEST(TestAttribution, RankingAndItsText) {
  const auto rows = test_attribution(suite_report());
  const TestCostRanking ranking = rank_tests(*rows, 1);
  ASSERT_EQ(ranking.slowest.size(), 1u);
  EXPECT_EQ(ranking.tests, 2u);
  EXPECT_EQ(ranking.slowest[0].name, "t.py::test_a");
  EXPECT_NEAR(ranking.slowest[0].share, 340.0 / 730.0, 1e-9);
  ASSERT_EQ(ranking.suite_phases.size(), 1u);
  std::ostringstream out;
  render::render_slowest_tests(ranking, out);
  EXPECT_THAT(out.str(), HasSubstr("Slowest tests by compile (1 of 2 test(s) that built"));
  EXPECT_THAT(out.str(), HasSubstr("340.0 ms"));
  EXPECT_THAT(out.str(), HasSubstr("(collection) 190.0 ms (2 builds, 26.0 %)"));
}

TEST(TestAttribution, RebuiltByText) {
  EXPECT_EQ(rebuilt_by_text({"tests/test_x.py::test_y", TestPhase::call, ""}),
            "rebuilt by tests/test_x.py::test_y (call)");
  EXPECT_EQ(rebuilt_by_text({"", TestPhase::collection, "gw1"}), "rebuilt during collection on gw1");
}

}  // namespace
}  // namespace wcp
