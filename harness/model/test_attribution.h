#pragma once
// What each test of a suite cost in module builds (schema 11): the report's `tests`, one row per
// test id, and one per phase of the suite around its tests (facts/test_attribution.h derives them).
#include <optional>
#include <string>
#include <vector>

#include "model/module_event.h"

namespace wcp {

// A module a row built that an earlier row had built under another identity (same module name
// and device, another hash or block_dim): the rebuild this test caused.
struct TestRebuild {
  ModuleIdentity identity;                       // what this row built
  ModuleIdentity earlier;                        // what the earlier row had built
  std::string earlier_test;                      // that row's id ("" for a phase of the suite)
  std::optional<TestPhase> earlier_suite_phase;  // set when that row is a phase of the suite
  bool operator==(const TestRebuild&) const = default;
};

struct TestCompileCost {
  // "tests/test_x.py::test_y[p]" or "test_x.TestX.test_y" (setup, call and teardown together);
  // "" for a phase of the suite, named by `suite_phase`: collection, import or session. A row
  // with "" and no phase holds the builds no test context was recorded for (another process).
  std::string id;
  std::optional<TestPhase> suite_phase;
  int builds = 0;                           // compiled loads of the cold run
  double cold_module_ms = 0;                // their summed load times: the rows add up to the sample's cold module work
  std::vector<ModuleIdentity> first_built;  // identities no earlier row had built
  std::vector<TestRebuild> rebuilt;
  bool operator==(const TestCompileCost&) const = default;
};

// The row's name for one line of text: the id, or "(collection)", "(import)", "(session)",
// "(no test recorded)".
std::string test_row_name(const std::string& id, const std::optional<TestPhase>& suite_phase);

// Which test a rebuild happened in, for a finding's evidence: "rebuilt by tests/test_x.py::test_y
// (call)", "rebuilt during collection" for a phase of the suite; " on gw1" under xdist.
std::string rebuilt_by_text(const TestContext& test);

}  // namespace wcp
