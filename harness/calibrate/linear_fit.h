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

// Theil–Sen: the slope is the median of the slopes between every pair of points with different
// x, the intercept the median of y − slope × x. One point pushed up by a slow patch on a busy
// machine moves it far less than it moves least squares. r_squared is computed as for
// fit_line, against this line. Throws as fit_line does.
LinearFit fit_line_robust(const std::vector<double>& xs, const std::vector<double>& ys);

}  // namespace wcp::calibrate
