#include "stats/sequential.h"

#include <algorithm>
#include <cmath>

#include "stats/noise.h"

namespace wcp {

SequentialOutcome regression_test(const std::vector<double>& candidate_runs, const Summary& baseline,
                                  double relative_mad, double tolerance) {
  if (candidate_runs.empty() || baseline.median <= 0.0 || relative_mad <= 0.0) return SequentialOutcome::undecided;
  double sum = 0.0;
  for (double run : candidate_runs) {
    if (run <= 0.0) return SequentialOutcome::undecided;
    sum += std::log(run / baseline.median);
  }
  const double k = static_cast<double>(candidate_runs.size());
  const double n = static_cast<double>(std::max<std::size_t>(baseline.count, 1));
  const double sigma = kMadToSigma * relative_mad;
  const double variance = sigma * sigma * (1.0 / k + 1.0 / n);
  const double null_mean = std::log1p(tolerance);
  const double alternative_mean = std::log1p(tolerance + kSmallestRegression);
  const double log_ratio = (alternative_mean - null_mean) * (sum / k - (null_mean + alternative_mean) / 2.0) / variance;
  if (log_ratio <= std::log(kSequentialBeta / (1.0 - kSequentialAlpha))) return SequentialOutcome::no_regression;
  if (log_ratio >= std::log((1.0 - kSequentialBeta) / kSequentialAlpha)) return SequentialOutcome::regression;
  return SequentialOutcome::undecided;
}

double limit_band(double relative_mad, double value, std::size_t runs) {
  return 2.0 * kMadToSigma * relative_mad * std::fabs(value) /
         std::sqrt(static_cast<double>(std::max<std::size_t>(runs, 1)));
}

}  // namespace wcp
