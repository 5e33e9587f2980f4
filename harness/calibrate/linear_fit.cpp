#include "calibrate/linear_fit.h"

#include <stdexcept>

namespace wcp::calibrate {

LinearFit fit_line(const std::vector<double>& xs, const std::vector<double>& ys) {
  if (xs.size() != ys.size()) throw std::invalid_argument("fit_line: xs and ys differ in length");
  if (xs.size() < 2) throw std::invalid_argument("fit_line: need at least two points");
  const double n = static_cast<double>(xs.size());
  double mean_x = 0.0;
  double mean_y = 0.0;
  for (size_t i = 0; i < xs.size(); ++i) {
    mean_x += xs[i];
    mean_y += ys[i];
  }
  mean_x /= n;
  mean_y /= n;
  // Centred sums: numerically stable for the millisecond-scale values seen here.
  double sxx = 0.0;
  double sxy = 0.0;
  double syy = 0.0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const double dx = xs[i] - mean_x;
    const double dy = ys[i] - mean_y;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (sxx == 0.0) throw std::invalid_argument("fit_line: all x values are equal");
  LinearFit fit;
  fit.slope = sxy / sxx;
  fit.intercept = mean_y - fit.slope * mean_x;
  double residual = 0.0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const double error = ys[i] - (fit.intercept + fit.slope * xs[i]);
    residual += error * error;
  }
  // A flat line through flat data explains everything there is to explain.
  fit.r_squared = syy == 0.0 ? 1.0 : 1.0 - residual / syy;
  return fit;
}

}  // namespace wcp::calibrate
