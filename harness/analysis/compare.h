#pragma once
// The compare verdict: did the candidate compile less than the baseline for the same work?
// It never credits a change that altered the workload, and below a few milliseconds it
// judges on counts (identities, events, artifacts) because a percentage there is noise.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/workload.h"
#include "report/report.h"

namespace wcp::analysis {

enum class Verdict { invalid, regression, same_work_compiled, improved, inconclusive, unverified };
enum class Direction { improved, inconclusive, regressed };

std::string to_string(Verdict verdict);
std::string to_string(Direction direction);
int exit_code_of(Verdict verdict);  // 1 for INVALID and REGRESSION, else 0

// Medians below this many ms are judged on counts, not on a percentage.
inline constexpr double kNoiseFloorMs = 5.0;

struct MetricComparison {
  std::string name;
  double baseline_median = 0.0;
  double baseline_mad = 0.0;
  double candidate_median = 0.0;
  double delta = 0.0;  // candidate − baseline
  double band = 0.0;   // max(1% of baseline median, 2 × baseline MAD)
  bool below_noise_floor = false;
  Direction direction = Direction::inconclusive;
};

// Compares a == b on the band of the baseline (exposed for unit tests).
MetricComparison compare_metric(const std::string& name, const Summary& baseline, const Summary& candidate);

struct CountComparison {
  std::string name;
  std::uint64_t baseline = 0;
  std::uint64_t candidate = 0;
};

struct ModuleHashRow {
  std::string module;  // name@device
  std::vector<std::string> baseline_hashes;
  std::vector<std::string> candidate_hashes;
  bool changed = false;
};

struct Comparison {
  Verdict verdict = Verdict::inconclusive;
  std::vector<std::string> reasons;   // why this verdict, plain words
  std::vector<std::string> warnings;  // e.g. the commands differ
  WorkloadCheck workload;
  MetricComparison module_work;
  MetricComparison compile_elapsed;
  std::vector<CountComparison> counts;            // structural counts
  Direction structure = Direction::inconclusive;  // fewer builds/artifacts: improved
  std::vector<ModuleHashRow> modules;
  int exit_code = 0;
};

Comparison compare_reports(const Report& baseline, const Report& candidate);

}  // namespace wcp::analysis
