#include "verdict/paired_stop.h"

#include <fmt/format.h>

#include <optional>

#include "stats/noise.h"
#include "stats/sequential.h"

namespace wcp::verdict {
namespace {

std::optional<double> clock_value(const SampleResult& sample, PairedClock clock) {
  if (!sample.cold_ok) return std::nullopt;
  switch (clock) {
    case PairedClock::cold_module_work:
      return sample.cold_module_ms;
    case PairedClock::cold_module_cpu:
      return sample.cold_module_cpu_ms;
    case PairedClock::compile_elapsed:
      return sample.compile_elapsed_ms;
  }
  return std::nullopt;
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

std::vector<double> pair_ratios(const Report& baseline, const Report& candidate, PairedClock clock) {
  std::vector<double> ratios;
  for (const auto& a : baseline.sample_results) {
    for (const auto& b : candidate.sample_results) {
      if (a.index != b.index) continue;
      const auto before = clock_value(a, clock);
      const auto after = clock_value(b, clock);
      if (before && after && *before > 0.0 && *after > 0.0) ratios.push_back(*after / *before);
    }
  }
  return ratios;
}

PairedClock module_work_clock(const Report& baseline, const Report& candidate) {
  return baseline.cold_module_cpu_ms && candidate.cold_module_cpu_ms ? PairedClock::cold_module_cpu
                                                                     : PairedClock::cold_module_work;
}

PairsDecision decide_pairs(const Judgement& judgement, const Report& baseline, const Report& candidate) {
  const PairedClock clock =
      judgement.module_work.clock == Clock::module_cpu ? PairedClock::cold_module_cpu : PairedClock::cold_module_work;
  return decide_pair_ratios(judgement.verdict, pair_ratios(baseline, candidate, clock));
}

PairsDecision decide_pair_ratios(Verdict verdict_so_far, const std::vector<double>& ratios) {
  const std::string pairs = fmt::format("{} pair{}", ratios.size(), ratios.size() == 1 ? "" : "s");
  // NOT JUDGED stays open like INCONCLUSIVE: more pairs narrow the band it was too wide in.
  if (verdict_so_far != Verdict::inconclusive && verdict_so_far != Verdict::not_judged) {
    return {true, fmt::format("decided after {}: {}", pairs, to_string(verdict_so_far))};
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
