#pragma once
// Which test built what (schema 11, the report's `tests`): the cold pass's compiled loads of the
// first successful sample grouped by the test (or phase of the suite) each load happened in.
// The builds and their times are the ones `cold_module_ms` sums (facts/queries.h:
// cold_compiled_events), so the rows add up to the sample's cold module work.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "model/report.h"
#include "model/test_attribution.h"

namespace wcp {

// One row per test id (its setup, call and teardown together) and per phase of the suite
// (collection, import, session), in the order of each row's first build; rows that built
// nothing are left out. Absent when no cold load recorded a test context (no test runner).
std::optional<std::vector<TestCompileCost>> test_attribution(const Report& report);

// One row as the screen ranks it: its name (model/test_attribution.h: test_row_name), builds,
// cold module work and that work's share of all rows' (0 when they add up to 0).
struct TestCostLine {
  std::string name;
  int builds = 0;
  double ms = 0.0;
  double share = 0.0;
};

struct TestCostRanking {
  std::vector<TestCostLine> slowest;       // the tests (not the suite's phases), most work first, at most `top`
  std::size_t tests = 0;                   // how many tests built anything
  std::vector<TestCostLine> suite_phases;  // collection, import, session, no test recorded: those that built
};

// Most cold module work first (ties: more builds, then the report's order).
TestCostRanking rank_tests(const std::vector<TestCompileCost>& rows, std::size_t top);

}  // namespace wcp
