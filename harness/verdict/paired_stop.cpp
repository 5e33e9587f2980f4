#include "verdict/paired_stop.h"

#include <fmt/format.h>

#include "stats/noise.h"
#include "stats/sequential.h"

namespace wcp::verdict {
namespace {

// candidate / baseline cold module work of every pair both arms measured.
std::vector<double> pair_ratios(const Report& baseline, const Report& candidate) {
  std::vector<double> ratios;
  for (const auto& a : baseline.sample_results) {
    for (const auto& b : candidate.sample_results) {
      if (a.index != b.index || !a.cold_ok || !b.cold_ok || !a.cold_module_ms || !b.cold_module_ms) continue;
      if (*a.cold_module_ms > 0.0 && *b.cold_module_ms > 0.0) ratios.push_back(*b.cold_module_ms / *a.cold_module_ms);
    }
  }
  return ratios;
}

// The sequential test reads runs against a baseline level: here each pair's ratio against 1,
// a level known exactly (the pairing already cancelled the baseline's own noise).
SequentialOutcome test_ratios(const std::vector<double>& ratios, double relative_mad) {
  constexpr double kLevel = 1000.0;
  std::vector<double> runs;
  for (double ratio : ratios) runs.push_back(kLevel * ratio);
  Summary level;
  level.median = kLevel;
  level.count = 1'000'000;
  return regression_test(runs, level, relative_mad);
}

}  // namespace

PairsDecision decide_pairs(const Judgement& judgement, const Report& baseline, const Report& candidate) {
  const auto ratios = pair_ratios(baseline, candidate);
  const std::string pairs = fmt::format("{} pair{}", ratios.size(), ratios.size() == 1 ? "" : "s");
  if (judgement.verdict != Verdict::inconclusive) {
    return {true, fmt::format("decided after {}: {}", pairs, to_string(judgement.verdict))};
  }
  const auto spread = relative_spread(ratios);
  if (!spread || *spread <= 0.0) return {false, fmt::format("{}: noise not yet measured", pairs)};
  std::vector<double> inverse;
  for (double ratio : ratios) inverse.push_back(1.0 / ratio);
  const bool no_rise = test_ratios(ratios, *spread) == SequentialOutcome::no_regression;
  const bool no_fall = test_ratios(inverse, *spread) == SequentialOutcome::no_regression;
  if (no_rise && no_fall) {
    return {true, fmt::format("decided after {}: the sequential test rules out a change of {:.0f} % or more either "
                              "way (α {:.0f} %, β {:.0f} %; paired noise {:.1f} %)",
                              pairs, 100.0 * kSmallestRegression, 100.0 * kSequentialAlpha, 100.0 * kSequentialBeta,
                              100.0 * *spread)};
  }
  return {false,
          fmt::format("{}: within noise, a change of {:.0f} % not yet ruled out", pairs, 100.0 * kSmallestRegression)};
}

}  // namespace wcp::verdict
