#pragma once
// Ordinary least squares for cost = fixed + kernels × per_kernel. The intercept is the part
// of a module's compile time that does not grow with its kernels: what merging saves.
#include <vector>

namespace wcp::calibrate {

struct LinearFit {
  double intercept = 0.0;
  double slope = 0.0;
  double r_squared = 0.0;  // 1 when every point lies on the line
};

// Throws std::invalid_argument when xs and ys differ in length, hold fewer than two points,
// or every x is the same (the slope is then undefined).
LinearFit fit_line(const std::vector<double>& xs, const std::vector<double>& ys);

}  // namespace wcp::calibrate
