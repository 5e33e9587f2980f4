#include <gtest/gtest.h>

#include <stdexcept>

#include "calibrate/linear_fit.h"

namespace wcp::calibrate {
namespace {

TEST(CalibrateLinearFit, RecoversExactInterceptAndSlope) {
  // Points of cost = 250 + 40 × kernels at the family's kernel counts.
  const std::vector<double> kernels = {1, 2, 4, 8, 16};
  std::vector<double> cost;
  for (double k : kernels) cost.push_back(250.0 + 40.0 * k);
  const auto fit = fit_line(kernels, cost);
  EXPECT_NEAR(fit.intercept, 250.0, 1e-9);
  EXPECT_NEAR(fit.slope, 40.0, 1e-9);
  EXPECT_DOUBLE_EQ(fit.r_squared, 1.0);
}

TEST(CalibrateLinearFit, NoisyPointsGiveRSquaredBelowOne) {
  const std::vector<double> kernels = {1, 2, 4, 8, 16};
  const std::vector<double> cost = {292.0, 328.0, 415.0, 567.0, 890.0};  // 250 + 40k with ±8 ms noise
  const auto fit = fit_line(kernels, cost);
  EXPECT_LT(fit.r_squared, 1.0);
  EXPECT_GT(fit.r_squared, 0.99);
  EXPECT_NEAR(fit.intercept, 250.0, 15.0);
  EXPECT_NEAR(fit.slope, 40.0, 2.0);
}

TEST(CalibrateLinearFit, MatchesHandComputedLeastSquares) {
  // x = 0,1,2; y = 1,3,2 → slope 0.5, intercept 1.5, R² = 0.25 (SSres 1.5 of SStot 2).
  const auto fit = fit_line({0, 1, 2}, {1, 3, 2});
  EXPECT_NEAR(fit.slope, 0.5, 1e-12);
  EXPECT_NEAR(fit.intercept, 1.5, 1e-12);
  EXPECT_NEAR(fit.r_squared, 0.25, 1e-12);
}

TEST(CalibrateLinearFit, RejectsDegenerateInput) {
  EXPECT_THROW(fit_line({1}, {2}), std::invalid_argument);
  EXPECT_THROW(fit_line({1, 2}, {2}), std::invalid_argument);
  EXPECT_THROW(fit_line({3, 3, 3}, {1, 2, 3}), std::invalid_argument);
}

}  // namespace
}  // namespace wcp::calibrate
