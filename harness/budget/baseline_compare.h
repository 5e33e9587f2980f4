#pragma once
// The candidate-versus-baseline rule of a `baseline:` budget, kept small and local: same
// workload (the launches, ignoring kernel and module names, which fixes legitimately
// rename), and cold module work within a noise band of the baseline.
#include <optional>
#include <string>

#include "report/report.h"

namespace wcp::budget {

struct BaselineComparison {
  bool workload_same = true;
  std::string workload_difference;  // plain words when !workload_same
  double baseline_ms = 0.0;         // median cold module work
  double candidate_ms = 0.0;
  double band_ms = 0.0;             // max(1% of baseline, 2 x baseline MAD, tolerance)
  bool regressed() const { return candidate_ms > baseline_ms + band_ms; }
  bool improved() const { return candidate_ms < baseline_ms - band_ms; }
};

BaselineComparison compare_to_baseline(const Report& baseline, const Report& candidate, double tolerance_percent);

// Empty when both reports made the same launches; otherwise what differs first.
std::optional<std::string> workload_difference(const Report& baseline, const Report& candidate);

}  // namespace wcp::budget
