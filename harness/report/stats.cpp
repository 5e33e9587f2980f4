#include "report/stats.h"

#include <algorithm>
#include <cmath>

namespace wcp {

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  if (values.size() % 2 == 1) return *middle;
  const double upper = *middle;
  const double lower = *std::max_element(values.begin(), middle);
  return (lower + upper) / 2.0;
}

double median_absolute_deviation(const std::vector<double>& values) {
  if (values.empty()) return 0.0;
  const double center = median(values);
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (double value : values) deviations.push_back(std::fabs(value - center));
  return median(std::move(deviations));
}

Summary summarize(std::vector<double> values) {
  Summary summary;
  summary.median = median(values);
  summary.mad = median_absolute_deviation(values);
  summary.values = std::move(values);
  return summary;
}

}  // namespace wcp
