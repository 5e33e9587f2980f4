#pragma once
// The slowest tests of a series' newest run, for `history show --html`: from the report the run
// stored (history layout 6), ranked as `measure` ranks them (facts/test_attribution.h). Absent
// for a series whose newest run stored no report, or ran no test runner.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "facts/test_attribution.h"
#include "history/trend.h"

namespace wcp::history {

struct SeriesTests {
  std::string commit;  // short sha of the run they come from
  TestCostRanking ranking;
};

// One entry per series, in the same order.
std::vector<std::optional<SeriesTests>> slowest_tests_per_series(const std::vector<Series>& series, std::size_t top);

}  // namespace wcp::history
