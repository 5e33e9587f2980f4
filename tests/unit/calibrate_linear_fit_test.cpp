#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
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

TEST(CalibrateLinearFit, RobustFitShrugsOffOneSlowPoint) {
  // 250 + 40 k, except that the 8-kernel module hit a slow patch and took 900 ms instead of 570.
  const std::vector<double> kernels = {1, 2, 4, 8, 1, 2, 4, 8};
  const std::vector<double> cost = {290, 330, 410, 900, 290, 330, 410, 570};
  const auto robust = fit_line_robust(kernels, cost);
  EXPECT_NEAR(robust.intercept, 250.0, 1e-9);
  EXPECT_NEAR(robust.slope, 40.0, 1e-9);
  const auto least_squares = fit_line(kernels, cost);
  EXPECT_GT(std::abs(least_squares.intercept - 250.0), 20.0);  // what the robust fit avoids
  const auto exact = fit_line_robust({1, 2, 4, 8}, {290, 330, 410, 570});
  EXPECT_NEAR(exact.intercept, 250.0, 1e-9);
  EXPECT_NEAR(exact.r_squared, 1.0, 1e-12);
  EXPECT_THROW(fit_line_robust({3, 3}, {1, 2}), std::invalid_argument);
}

TEST(CalibrateLinearFit, RejectsDegenerateInput) {
  EXPECT_THROW(fit_line({1}, {2}), std::invalid_argument);
  EXPECT_THROW(fit_line({1, 2}, {2}), std::invalid_argument);
  EXPECT_THROW(fit_line({3, 3, 3}, {1, 2, 3}), std::invalid_argument);
}

}  // namespace
}  // namespace wcp::calibrate

#include "calibrate/warp_cpu_run.h"

namespace wcp::calibrate {
namespace {

TEST(WarpCpuSampleFit, SeparatesHeaderFixedAndPerKernelCost) {
  // warm-up (header + one-kernel module), then modules of 1, 2, 4, 8 kernels at 100 + 20 k ms.
  const auto sample = fit_warp_cpu_sample({1320.0, 120.0, 140.0, 180.0, 260.0});
  EXPECT_NEAR(sample.fixed_ms, 100.0, 1e-9);
  EXPECT_NEAR(sample.per_kernel_ms, 20.0, 1e-9);
  EXPECT_NEAR(sample.r_squared, 1.0, 1e-12);
  EXPECT_NEAR(sample.pch_build_ms, 1200.0, 1e-9);
}

TEST(WarpCpuSampleFit, GeneratedAppHasEveryModule) {
  const auto dir = std::filesystem::temp_directory_path() / "wcp-warp-cpu-app-test";
  std::filesystem::create_directories(dir);
  write_warp_cpu_app(dir);
  for (const char* name : {"driver.py", "cal_warmup.py", "cal_k1.py", "cal_k2.py", "cal_k4.py", "cal_k8.py"}) {
    EXPECT_TRUE(std::filesystem::exists(dir / name)) << name;
  }
  std::ifstream family(dir / "cal_k8.py");
  const std::string text((std::istreambuf_iterator<char>(family)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("cal_k8_k7"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace wcp::calibrate
