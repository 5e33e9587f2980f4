#include "calibrate/linear_fit.h"

#include <stdexcept>

#include "stats/summary.h"

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

LinearFit fit_line_robust(const std::vector<double>& xs, const std::vector<double>& ys) {
  const LinearFit least_squares = fit_line(xs, ys);  // validates the input the same way
  std::vector<double> slopes;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    for (std::size_t j = i + 1; j < xs.size(); ++j) {
      if (xs[i] != xs[j]) slopes.push_back((ys[j] - ys[i]) / (xs[j] - xs[i]));
    }
  }
  LinearFit fit;
  fit.slope = median(slopes);
  std::vector<double> intercepts;
  for (std::size_t i = 0; i < xs.size(); ++i) intercepts.push_back(ys[i] - fit.slope * xs[i]);
  fit.intercept = median(intercepts);
  double mean_y = 0.0;
  for (double y : ys) mean_y += y;
  mean_y /= static_cast<double>(ys.size());
  double residual = 0.0, total = 0.0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double error = ys[i] - (fit.intercept + fit.slope * xs[i]);
    residual += error * error;
    total += (ys[i] - mean_y) * (ys[i] - mean_y);
  }
  fit.r_squared = total == 0.0 ? least_squares.r_squared : 1.0 - residual / total;
  return fit;
}

}  // namespace wcp::calibrate
