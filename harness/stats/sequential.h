#pragma once
// When to stop adding runs (docs/measurement.md#samples-auto): Wald's sequential probability
// ratio test on the candidate's runs against a baseline, and the margin rule for a fixed limit.
// Both read a noise that was measured (stats/noise.h); with none, only the gross-change bound
// decides.
#include <cstddef>
#include <vector>

#include "stats/summary.h"

namespace wcp {

// The error rates a sequential decision holds: a false "no regression" when there is one of the
// smallest size worth catching (beta), a false regression when there is none (alpha).
inline constexpr double kSequentialAlpha = 0.01;
inline constexpr double kSequentialBeta = 0.10;
// The smallest regression of cold module work the test must not miss: 10 %.
inline constexpr double kSmallestRegression = 0.10;

enum class SequentialOutcome { no_regression, regression, undecided };

// H0: the candidate's runs are the baseline's level (times 1 + tolerance); H1: they are
// kSmallestRegression above it. On log ratios x = ln(candidate run / baseline median), whose
// mean over k runs has variance σ²(1/k + 1/n_baseline), σ = 1.4826 × relative MAD:
// Λ = (μ1 − μ0)(x̄ − (μ0 + μ1)/2) / variance, against ln(β/(1−α)) and ln((1−β)/α).
SequentialOutcome regression_test(const std::vector<double>& candidate_runs, const Summary& baseline,
                                  double relative_mad, double tolerance = 0.0);

// The band a median of `runs` runs must leave a fixed limit by, at one-run spread
// `relative_mad`: 2 × 1.4826 × relative MAD × value / √runs.
double limit_band(double relative_mad, double value, std::size_t runs);

}  // namespace wcp
