#include "facts/test_attribution.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "facts/queries.h"

namespace wcp {
namespace {

// A load's row: its test's id, or the phase of the suite it happened in. Setup, call and teardown
// of one test are one row: the test paid for all three.
struct TestRowKey {
  std::string id;
  std::optional<TestPhase> suite_phase;
  auto operator<=>(const TestRowKey&) const = default;
};

TestRowKey test_row_of(const ModuleEvent& event) {
  if (!event.detail || !event.detail->test) return {};
  const TestContext& test = *event.detail->test;
  if (!test.id.empty()) return {test.id, std::nullopt};
  return {"", test.phase};
}

// Two identities of one module on one device: a rebuild, not a build for another device.
bool same_module_and_device(const ModuleIdentity& a, const ModuleIdentity& b) {
  return a.name == b.name && a.device == b.device;
}

struct TestBuild {
  ModuleIdentity identity;
  TestRowKey row;
};

}  // namespace

std::optional<std::vector<TestCompileCost>> test_attribution(const Report& report) {
  const bool recorded = std::any_of(report.module_events.begin(), report.module_events.end(), [](const auto& event) {
    return event.pass == Pass::cold && event.detail && event.detail->test;
  });
  if (!recorded) return std::nullopt;
  std::vector<TestCompileCost> rows;
  std::map<TestRowKey, std::size_t> index;
  std::vector<TestBuild> past;  // every build so far, in order
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    const TestRowKey key = test_row_of(*event);
    auto [found, added] = index.try_emplace(key, rows.size());
    if (added) rows.push_back(TestCompileCost{key.id, key.suite_phase, 0, 0.0, {}, {}});
    TestCompileCost& row = rows[found->second];
    row.builds += 1;
    row.cold_module_ms += event->ms;
    const ModuleIdentity identity = identity_of(*event);
    const bool built_before =
        std::any_of(past.begin(), past.end(), [&](const TestBuild& build) { return build.identity == identity; });
    if (!built_before) row.first_built.push_back(identity);
    // The latest other row's build of this module under another identity: what this build replaced.
    const auto earlier = std::find_if(past.rbegin(), past.rend(), [&](const TestBuild& build) {
      return !(build.row == key) && same_module_and_device(build.identity, identity) && build.identity != identity;
    });
    const bool already_listed = std::any_of(row.rebuilt.begin(), row.rebuilt.end(),
                                            [&](const TestRebuild& rebuild) { return rebuild.identity == identity; });
    if (earlier != past.rend() && !built_before && !already_listed) {
      row.rebuilt.push_back(TestRebuild{identity, earlier->identity, earlier->row.id, earlier->row.suite_phase});
    }
    past.push_back({identity, key});
  }
  return rows;
}

TestCostRanking rank_tests(const std::vector<TestCompileCost>& rows, std::size_t top) {
  double total = 0.0;
  for (const auto& row : rows) total += row.cold_module_ms;
  const auto line_of = [total](const TestCompileCost& row) {
    return TestCostLine{test_row_name(row.id, row.suite_phase), row.builds, row.cold_module_ms,
                        total > 0.0 ? row.cold_module_ms / total : 0.0};
  };
  std::vector<const TestCompileCost*> tests;
  TestCostRanking ranking;
  for (const auto& row : rows) {
    if (row.id.empty())
      ranking.suite_phases.push_back(line_of(row));
    else
      tests.push_back(&row);
  }
  std::stable_sort(tests.begin(), tests.end(), [](const TestCompileCost* a, const TestCompileCost* b) {
    return std::tie(a->cold_module_ms, a->builds) > std::tie(b->cold_module_ms, b->builds);
  });
  ranking.tests = tests.size();
  for (std::size_t at = 0; at < std::min(top, tests.size()); ++at) ranking.slowest.push_back(line_of(*tests[at]));
  return ranking;
}

}  // namespace wcp
