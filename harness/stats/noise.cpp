#include "stats/noise.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "io/name_table.h"
#include "stats/summary.h"

namespace wcp {

namespace {

constexpr NameTable<NoiseSource, 4> kNoiseSources{{
    {NoiseSource::samples, "samples"},
    {NoiseSource::history, "history"},
    {NoiseSource::calibration, "calibration"},
    {NoiseSource::none, "none"},
}};

}  // namespace

std::string_view to_string(NoiseSource source) {
  return name_of(kNoiseSources, source);
}

std::string Noise::summary() const {
  if (!relative_mad) return "noise not measured" + (detail.empty() ? std::string() : " (" + detail + ")");
  return fmt::format("noise {:.1f} % ({}: {})", 100.0 * *relative_mad, to_string(source), detail);
}

std::optional<double> relative_spread(const std::vector<double>& values) {
  if (values.size() < kMinimumNoiseSamples) return std::nullopt;
  const double center = median(values);
  if (center == 0.0) return std::nullopt;
  return median_absolute_deviation(values) / std::fabs(center);
}

std::optional<double> measured_spread(const Summary& summary) {
  if (!summary.mad || summary.count < kMinimumNoiseSamples || summary.median == 0.0) return std::nullopt;
  return *summary.mad / std::fabs(summary.median);
}

std::optional<Noise> noise_of_summary(const Summary& summary, NoiseSource source, std::string detail) {
  const auto spread = measured_spread(summary);
  if (!spread) return std::nullopt;
  Noise noise;
  noise.source = source;
  noise.relative_mad = spread;
  noise.runs = summary.count;
  noise.detail = std::move(detail);
  return noise;
}

double band_quantile(std::size_t spread_values) {
  // Student's t, two-sided 1 % (0.995 one-sided), by degrees of freedom; beyond the table the
  // normal quantile is within 4 % of it.
  constexpr std::array<double, 30> kT995{63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169,
                                         3.106,  3.055, 3.012, 2.977, 2.947, 2.921, 2.898, 2.878, 2.861, 2.845,
                                         2.831,  2.819, 2.807, 2.797, 2.787, 2.779, 2.771, 2.763, 2.756, 2.750};
  // Two-sided 1 %: an unchanged program leaves the band of one clock once in 100 checks, the
  // sequential test's α. With z = 2 (5 %, over two clocks nearly 10 % a check) the gate-cost
  // bench called 2 of 20 unchanged programs IMPROVED against a quiet history.
  constexpr double kZ = 2.576;
  if (spread_values < 2) return kZ;  // unknown: as if the spread were known
  const std::size_t freedom = spread_values - 1;
  return freedom <= kT995.size() ? kT995[freedom - 1] : kZ;
}

double spread_band(double relative_mad, double median, std::size_t baseline_runs, std::size_t candidate_runs,
                   std::size_t spread_values) {
  const double a = static_cast<double>(std::max<std::size_t>(baseline_runs, 1));
  const double b = static_cast<double>(std::max<std::size_t>(candidate_runs, 1));
  return band_quantile(spread_values) * kMadToSigma * relative_mad * std::fabs(median) * std::sqrt(1.0 / a + 1.0 / b);
}

std::optional<int> runs_to_decide(double relative_mad, double median, double delta, int cap) {
  if (delta == 0.0) return std::nullopt;
  for (int runs = 1; runs <= cap; ++runs) {
    const auto n = static_cast<std::size_t>(runs);
    if (spread_band(relative_mad, median, n, n) < std::fabs(delta)) return runs;
  }
  return std::nullopt;
}

}  // namespace wcp
