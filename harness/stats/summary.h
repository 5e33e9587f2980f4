#pragma once
// Robust summary statistics. We report the median and the MAD (median absolute deviation
// from the median, unscaled) because compile timings are skewed by one-off stalls and a mean
// or standard deviation would let one slow run dominate.
//
// A timing that was not measured is not a Summary at all: Report fields hold
// std::optional<Summary>, and "no successful warm run" is std::nullopt, never 0 ms.
#include <cstddef>
#include <optional>
#include <vector>

namespace wcp {

double median(std::vector<double> values);  // of a non-empty list
double median_absolute_deviation(const std::vector<double>& values);

struct Summary {
  double median = 0.0;
  // Absent when the writer kept only the median (the original probe's warm medians).
  std::optional<double> mad;
  // One value per successful sample, in sample order; empty when only the median was kept.
  std::vector<double> values;
  // How many samples the median summarises (values.size() when values are known).
  std::size_t count = 0;
  bool operator==(const Summary&) const = default;
};

// nullopt for an empty list: nothing measured.
std::optional<Summary> summarize(std::vector<double> values);

// The noise band of one clock (docs/measurement.md#the-noise-band):
// max(1 % of the baseline median, 2 × the baseline MAD, tolerance % of the median).
// A baseline without a MAD contributes only the percentages.
double noise_band(const Summary& baseline, double tolerance_percent = 0.0);

}  // namespace wcp
