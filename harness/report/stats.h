#pragma once
// Robust summary statistics. We report the median and the MAD (median absolute deviation
// from the median, unscaled) because compile timings are skewed by one-off stalls and a mean
// or standard deviation would let one slow run dominate.
#include <vector>

namespace wcp {

double median(std::vector<double> values);
double median_absolute_deviation(const std::vector<double>& values);

struct Summary {
  std::vector<double> values;
  double median = 0.0;
  double mad = 0.0;
};

Summary summarize(std::vector<double> values);

}  // namespace wcp
