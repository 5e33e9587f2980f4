#include "stats/summary.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace wcp {

double median(std::vector<double> values) {
  if (values.empty()) throw std::invalid_argument("median of an empty list");
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  if (values.size() % 2 == 1) return *middle;
  const double upper = *middle;
  const double lower = *std::max_element(values.begin(), middle);
  return (lower + upper) / 2.0;
}

double median_absolute_deviation(const std::vector<double>& values) {
  const double center = median(values);
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (double value : values) deviations.push_back(std::fabs(value - center));
  return median(std::move(deviations));
}

std::optional<Summary> summarize(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  Summary summary;
  summary.median = median(values);
  summary.mad = median_absolute_deviation(values);
  summary.count = values.size();
  summary.values = std::move(values);
  return summary;
}

double noise_band(const Summary& baseline, double tolerance_percent) {
  return std::max({0.01 * std::fabs(baseline.median), 2.0 * baseline.mad.value_or(0.0),
                   tolerance_percent / 100.0 * std::fabs(baseline.median)});
}

}  // namespace wcp
