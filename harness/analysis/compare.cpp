#include "analysis/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "analysis/rebuilds.h"

namespace wcp::analysis {
namespace {

std::set<ModuleIdentity> identity_set(const Report& report) {
  std::set<ModuleIdentity> identities;
  for (const auto& identity : compiled_identities(report)) identities.insert(identity.identity);
  return identities;
}

std::uint64_t warm_compiles(const Report& report) {
  std::uint64_t count = 0;
  for (const auto& event : report.module_events) {
    count += event.label == "warm" && event.status == LoadStatus::compiled ? 1 : 0;
  }
  // The original probe's reports carry only per-sample warm counts.
  if (count == 0 && !report.sample_results.empty() && report.sample_results.front().warm_compiled_events) {
    count = static_cast<std::uint64_t>(std::max(0, *report.sample_results.front().warm_compiled_events));
  }
  return count;
}

std::vector<ModuleHashRow> hash_table(const Report& baseline, const Report& candidate) {
  std::map<std::string, ModuleHashRow> rows;
  auto add = [&rows](const Report& report, bool is_baseline) {
    for (const auto& event : report.module_events) {
      if (event.label == "warm" || event.status != LoadStatus::compiled) continue;
      const std::string key = event.name + "@" + event.device;
      auto& row = rows[key];
      row.module = key;
      auto& hashes = is_baseline ? row.baseline_hashes : row.candidate_hashes;
      if (std::find(hashes.begin(), hashes.end(), event.hash) == hashes.end()) hashes.push_back(event.hash);
    }
  };
  add(baseline, true);
  add(candidate, false);
  std::vector<ModuleHashRow> table;
  for (auto& [key, row] : rows) {
    row.changed = row.baseline_hashes != row.candidate_hashes;
    table.push_back(std::move(row));
  }
  return table;
}

// Fewer compiled identities, events, warm compiles or LTO artifacts is less work for certain;
// timings can only suggest it.
Direction structural_direction(const std::vector<CountComparison>& counts) {
  bool fewer = false, more = false;
  for (const auto& count : counts) {
    if (count.name == "generated source bytes") continue;  // size alone is not a build count
    fewer = fewer || count.candidate < count.baseline;
    more = more || count.candidate > count.baseline;
  }
  if (fewer && !more) return Direction::improved;
  if (more && !fewer) return Direction::regressed;
  return Direction::inconclusive;
}

bool invalid(const Report& baseline, const Report& candidate, Comparison& result) {
  if (!candidate.measured()) result.reasons.push_back("every candidate sample failed: nothing was measured");
  if (!baseline.measured()) result.reasons.push_back("every baseline sample failed: nothing to compare against");
  if (candidate.failed_samples > 0 && candidate.measured()) {
    result.reasons.push_back(
        fmt::format("{} of {} candidate samples failed", candidate.failed_samples, candidate.samples));
  }
  if (candidate.error_events > 0) {
    result.reasons.push_back(fmt::format("the candidate had {} module load error(s)", candidate.error_events));
  }
  if (result.workload.status == WorkloadStatus::different) {
    result.reasons.push_back("the workload changed: " + result.workload.reason);
  }
  return !result.reasons.empty();
}

}  // namespace

std::string to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::invalid:
      return "INVALID";
    case Verdict::regression:
      return "REGRESSION";
    case Verdict::same_work_compiled:
      return "SAME WORK COMPILED";
    case Verdict::improved:
      return "IMPROVED";
    case Verdict::inconclusive:
      return "INCONCLUSIVE";
    case Verdict::unverified:
      return "UNVERIFIED";
  }
  return "";
}

std::string to_string(Direction direction) {
  switch (direction) {
    case Direction::improved:
      return "improved";
    case Direction::inconclusive:
      return "inconclusive";
    case Direction::regressed:
      return "regressed";
  }
  return "";
}

int exit_code_of(Verdict verdict) {
  return verdict == Verdict::invalid || verdict == Verdict::regression ? 1 : 0;
}

MetricComparison compare_metric(const std::string& name, const Summary& baseline, const Summary& candidate) {
  MetricComparison metric;
  metric.name = name;
  metric.baseline_median = baseline.median;
  metric.baseline_mad = baseline.mad;
  metric.candidate_median = candidate.median;
  metric.delta = candidate.median - baseline.median;
  metric.band = std::max(0.01 * baseline.median, 2.0 * baseline.mad);
  metric.below_noise_floor = baseline.median < kNoiseFloorMs && candidate.median < kNoiseFloorMs;
  if (!metric.below_noise_floor) {
    if (metric.delta < -metric.band) metric.direction = Direction::improved;
    if (metric.delta > metric.band) metric.direction = Direction::regressed;
  }
  return metric;
}

Comparison compare_reports(const Report& baseline, const Report& candidate) {
  Comparison result;
  if (baseline.command != candidate.command) {
    result.warnings.push_back("the two reports measured different commands; make sure they run the same workload");
  }
  if (!baseline.warp_version.empty() && !candidate.warp_version.empty() &&
      baseline.warp_version != candidate.warp_version) {
    result.warnings.push_back(
        fmt::format("Warp versions differ ({} vs {})", baseline.warp_version, candidate.warp_version));
  }
  result.workload = check_workload(baseline, candidate);
  result.module_work = compare_metric("cold module work", baseline.cold_module_ms, candidate.cold_module_ms);
  result.compile_elapsed = compare_metric("compile elapsed", baseline.compile_elapsed_ms, candidate.compile_elapsed_ms);
  result.counts = {
      {"compiled identities", baseline.identities, candidate.identities},
      {"modules", baseline.modules, candidate.modules},
      {"compiled events (cold)", baseline.compiled_events, candidate.compiled_events},
      {"compiled events (warm)", warm_compiles(baseline), warm_compiles(candidate)},
      {"LTO artifacts", baseline.cache.lto_artifacts, candidate.cache.lto_artifacts},
      {"generated source bytes", baseline.cache.generated_source_bytes, candidate.cache.generated_source_bytes},
  };
  result.structure = structural_direction(result.counts);
  result.modules = hash_table(baseline, candidate);

  const auto finish = [&result](Verdict verdict) {
    result.verdict = verdict;
    result.exit_code = exit_code_of(verdict);
    return result;
  };
  if (invalid(baseline, candidate, result)) return finish(Verdict::invalid);

  const Direction work = result.module_work.direction;
  const Direction elapsed = result.compile_elapsed.direction;
  const bool same_work = result.workload.status == WorkloadStatus::equivalent &&
                         identity_set(baseline) == identity_set(candidate) &&
                         baseline.cache.generated_source_bytes == candidate.cache.generated_source_bytes &&
                         warm_compiles(baseline) == warm_compiles(candidate);
  if (same_work && work == Direction::regressed) {
    result.reasons.push_back(fmt::format(
        "identical launches, compiled identities and generated source, yet summed module time rose by {:.0f} ms: "
        "the machine was busier (contention), not the program; judge on compile elapsed ({})",
        result.module_work.delta, to_string(elapsed)));
    return finish(Verdict::same_work_compiled);
  }

  const bool any_improved =
      work == Direction::improved || elapsed == Direction::improved || result.structure == Direction::improved;
  const bool any_regressed =
      work == Direction::regressed || elapsed == Direction::regressed || result.structure == Direction::regressed;
  if (work == Direction::inconclusive && result.module_work.below_noise_floor) {
    result.reasons.push_back("module work is below " + fmt::format("{:.0f}", kNoiseFloorMs) +
                             " ms on both sides: judged on identity, event and artifact counts");
  }
  Verdict verdict = Verdict::inconclusive;
  if (any_improved && !any_regressed) {
    verdict = Verdict::improved;
  } else if (any_regressed && !any_improved) {
    verdict = Verdict::regression;
  } else if (any_improved && any_regressed) {
    result.reasons.push_back("the signals disagree (some improved, some regressed): take more samples");
  } else {
    result.reasons.push_back("every difference is inside the noise band");
  }
  if (same_work && verdict == Verdict::improved && elapsed != Direction::improved) {
    // The same modules got cheaper without the program changing what it compiles: the machine.
    verdict = Verdict::inconclusive;
    result.reasons.push_back("the same work was compiled; only the summed module time fell, not the elapsed time");
  }
  result.reasons.push_back(fmt::format("cold module work {}, compile elapsed {}, build counts {}", to_string(work),
                                       to_string(elapsed), to_string(result.structure)));
  if (result.workload.status == WorkloadStatus::unverified) {
    result.reasons.push_back("the workload could not be verified: " + result.workload.reason);
    // Without a known workload neither credit nor blame is earned: no false alarm either way.
    verdict = Verdict::unverified;
  }
  return finish(verdict);
}

}  // namespace wcp::analysis
