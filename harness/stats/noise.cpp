#include "stats/noise.h"

#include <fmt/format.h>

#include <cmath>

#include "stats/summary.h"

namespace wcp {

std::string_view to_string(NoiseSource source) {
  switch (source) {
    case NoiseSource::samples:
      return "samples";
    case NoiseSource::history:
      return "history";
    case NoiseSource::calibration:
      return "calibration";
    case NoiseSource::none:
      return "none";
  }
  return "none";
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

double spread_band(double relative_mad, double median, std::size_t baseline_runs, std::size_t candidate_runs) {
  // Two-sided 1 %: an unchanged program leaves the band of one clock once in 100 checks, the
  // sequential test's α. With z = 2 (5 %, over two clocks nearly 10 % a check) the gate-cost
  // bench called 2 of 20 unchanged programs IMPROVED against a quiet history.
  constexpr double kZ = 2.576;
  const double a = static_cast<double>(std::max<std::size_t>(baseline_runs, 1));
  const double b = static_cast<double>(std::max<std::size_t>(candidate_runs, 1));
  return kZ * kMadToSigma * relative_mad * std::fabs(median) * std::sqrt(1.0 / a + 1.0 / b);
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
