#pragma once
// How noisy one run of a clock is, and where that knowledge came from (docs/measurement.md#noise).
//
// A verdict on a timing is only as good as the noise it was weighed against. A band built from
// fewer than kMinimumNoiseSamples samples measures no noise at all (the MAD of one value reads 0),
// so the noise comes from the first source that exists: the samples themselves (3 or more), the
// spread of earlier runs of the same command on the same machine (a history), the machine's
// calibration, else nothing — and then only a change beyond kGrossChangeBound is judged.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stats/summary.h"

namespace wcp {

enum class NoiseSource { samples, history, calibration, none };
std::string_view to_string(NoiseSource source);

// The fewest values whose spread is a measurement of noise.
inline constexpr std::size_t kMinimumNoiseSamples = 3;

// With no noise measured, the smallest change judged, as a share of the baseline's median: a
// gross change. A coarse rule: 355 of 362 one-sample A/A pairs of unchanged programs under like
// load stayed inside it (the worst +57 %), and pch_off's real fix (−39 to −47 %) is outside it.
// Under unlike load (a build starting between two runs) pairs differed by up to 7×: no bound in
// milliseconds holds there, which is why such a verdict says its noise was not measured and
// points to a history or cold units (tests/bench/data/aa_one_sample, docs/measurement.md#gross-changes).
inline constexpr double kGrossChangeBound = 0.35;

struct Noise {
  NoiseSource source = NoiseSource::none;
  // The spread of one run, as MAD / median (unscaled). Absent for NoiseSource::none.
  std::optional<double> relative_mad;
  std::size_t runs = 0;  // how many runs (or samples) it was estimated from
  std::string detail;    // "7 earlier runs of this command, 2026-12-02 to 2026-12-04"
  // How many values the spread was measured from (a history pools each run's values); 0 when
  // unknown, and then the band takes the normal quantile as if the spread were known.
  std::size_t values = 0;
  bool measured() const { return relative_mad.has_value(); }
  // One line for the reader: "noise 2.1 % (history: 7 earlier runs …)", "noise not measured".
  std::string summary() const;
};

// MAD / |median| of a list of at least kMinimumNoiseSamples values; nullopt for fewer or a zero median.
std::optional<double> relative_spread(const std::vector<double>& values);
// The same of a summary that kept its MAD: nullopt when it has none, fewer values, or a zero median.
std::optional<double> measured_spread(const Summary& summary);
// The noise a summary's own values measured, from `source`, said in `detail`; nullopt when they
// measured none (measured_spread).
std::optional<Noise> noise_of_summary(const Summary& summary, NoiseSource source, std::string detail);

// The standard deviation a MAD stands for, were the values normal (MAD × 1.4826).
inline constexpr double kMadToSigma = 1.4826;

// The two-sided 1 % quantile a band takes when the spread was measured from `spread_values`
// values: Student's t at spread_values − 1 degrees of freedom (a spread from few values is
// itself uncertain, and reads low more often than high), the normal 2.576 when the count is
// unknown (0) or large. A history of 3 checks read 3 % where its runs truly spread by 8-11 %,
// and its z band called a twin with 12 % more work IMPROVED 3 times in 20 (docs/measurement.md).
double band_quantile(std::size_t spread_values);

// The band a difference between a median of `baseline_runs` and one of `candidate_runs` runs
// must leave to be more than noise of one-run spread `relative_mad`, at `median`:
// q × σ × √(1/n_a + 1/n_b), σ = 1.4826 × relative MAD × median, q = band_quantile(spread_values)
// (2.576, two-sided 1 %, for a spread of unknown or many values).
double spread_band(double relative_mad, double median, std::size_t baseline_runs, std::size_t candidate_runs,
                   std::size_t spread_values = 0);

// The fewest runs per side with which spread_band falls below |delta| (at most `cap`); nullopt
// when not even `cap` would, or the delta is nil.
std::optional<int> runs_to_decide(double relative_mad, double median, double delta, int cap = 50);

}  // namespace wcp
