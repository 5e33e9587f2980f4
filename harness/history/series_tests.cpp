#include "history/series_tests.h"

#include "codec/report_json.h"
#include "errors.h"

namespace wcp::history {
namespace {

std::optional<SeriesTests> slowest_tests_of(const Series& series, std::size_t top) {
  for (auto point = series.points.rbegin(); point != series.points.rend(); ++point) {
    if (!point->result.measured() || !point->result.report_json) continue;
    try {
      const Report report = report_from_json_text(*point->result.report_json, "a stored report");
      if (!report.tests || report.tests->empty()) return std::nullopt;
      return SeriesTests{short_sha(point->commit), rank_tests(*report.tests, top)};
    } catch (const UsageError&) {
      return std::nullopt;  // a stored report this version cannot read: no table, the trend stands
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::optional<SeriesTests>> slowest_tests_per_series(const std::vector<Series>& series, std::size_t top) {
  std::vector<std::optional<SeriesTests>> tests;
  for (const auto& one : series) tests.push_back(slowest_tests_of(one, top));
  return tests;
}

}  // namespace wcp::history
