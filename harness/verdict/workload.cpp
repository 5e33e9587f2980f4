#include "verdict/workload.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "model/queries.h"

namespace wcp::verdict {
namespace {

std::string kernel_name(const Launch& launch) {
  return launch.module.empty() ? launch.kernel : launch.module + "." + launch.kernel;
}

std::string describe(const Launch& launch, const LaunchComparison& how) {
  return kernel_name(launch) + " " + launch_signature(launch, how);
}

std::map<std::string, std::uint64_t> signature_counts(const std::vector<LaunchRun>& runs, const LaunchComparison& how) {
  std::map<std::string, std::uint64_t> counts;
  for (const auto& run : runs) counts[launch_signature(run.launch, how)] += run.count;
  return counts;
}

// Walks both run-length streams in step, never expanding them: a million identical launches
// stay one comparison. Records renames on the aligned prefix and the first divergence.
void align(const std::vector<LaunchRun>& base, const std::vector<LaunchRun>& cand, const LaunchComparison& how,
           WorkloadCheck& check) {
  std::size_t i = 0, j = 0;
  std::uint64_t used_i = 0, used_j = 0, position = 0;
  while (i < base.size() && j < cand.size()) {
    const Launch& a = base[i].launch;
    const Launch& b = cand[j].launch;
    if (launch_signature(a, how) != launch_signature(b, how)) {
      check.first_divergence = Divergence{position, describe(a, how), describe(b, how)};
      return;
    }
    if (kernel_name(a) != kernel_name(b)) {
      const KernelRename rename{kernel_name(a), kernel_name(b)};
      const bool known = std::any_of(check.renames.begin(), check.renames.end(), [&](const KernelRename& seen) {
        return seen.baseline == rename.baseline && seen.candidate == rename.candidate;
      });
      if (!known) check.renames.push_back(rename);
    }
    const std::uint64_t step = std::min(base[i].count - used_i, cand[j].count - used_j);
    used_i += step;
    used_j += step;
    position += step;
    if (used_i == base[i].count) ++i, used_i = 0;
    if (used_j == cand[j].count) ++j, used_j = 0;
  }
  if (i < base.size()) check.first_divergence = Divergence{position, describe(base[i].launch, how), "(end)"};
  if (j < cand.size()) check.first_divergence = Divergence{position, "(end)", describe(cand[j].launch, how)};
}

}  // namespace

std::string to_string(WorkloadStatus status) {
  switch (status) {
    case WorkloadStatus::equivalent:
      return "preserved";
    case WorkloadStatus::different:
      return "CHANGED";
    case WorkloadStatus::unverified:
      return "UNVERIFIED";
  }
  return "";
}

LaunchComparison comparison_for(const Report& baseline, const Report& candidate) {
  return {baseline.origin == ReportOrigin::original_probe || candidate.origin == ReportOrigin::original_probe};
}

std::string launch_signature(const Launch& launch, const LaunchComparison& how) {
  std::vector<std::string> dtypes;
  for (const auto& dtype : launch.dtypes) {
    if (!how.array_arguments_only || !dtype.empty()) dtypes.push_back(dtype);
  }
  return fmt::format("dim=({}) device={} dtypes=[{}] block_dim={}{}", fmt::join(launch.dim, ","), launch.device,
                     fmt::join(dtypes, ","), launch.block_dim, launch.adjoint ? " adjoint" : "");
}

WorkloadCheck check_workload(const Report& baseline, const Report& candidate) {
  WorkloadCheck check;
  const bool base_recorded = has_launch_record(baseline);
  const bool cand_recorded = has_launch_record(candidate);
  if (base_recorded) check.baseline_launches = total_launches(baseline.launches);
  if (cand_recorded) check.candidate_launches = total_launches(candidate.launches);
  if (!base_recorded && !cand_recorded) {
    check.reason = "neither report has a launch record, so nothing is known about the workload";
    return check;
  }
  if (!base_recorded || !cand_recorded) {
    check.reason = fmt::format("the {} report has no launch record (its instrumentation did not attach or did not "
                               "record launches), so the workload cannot be compared",
                               base_recorded ? "candidate" : "baseline");
    return check;
  }
  const LaunchComparison how = comparison_for(baseline, candidate);
  const auto base_counts = signature_counts(baseline.launches, how);
  const auto cand_counts = signature_counts(candidate.launches, how);
  std::map<std::string, SignatureCount> merged;
  for (const auto& [signature, count] : base_counts) merged[signature] = {signature, count, 0};
  for (const auto& [signature, count] : cand_counts) {
    merged.try_emplace(signature, SignatureCount{signature, 0, 0});
    merged[signature].candidate = count;
  }
  for (const auto& [signature, entry] : merged) {
    if (entry.baseline != entry.candidate) check.count_differences.push_back(entry);
  }
  align(baseline.launches, candidate.launches, how, check);
  if (check.first_divergence || !check.count_differences.empty()) {
    check.status = WorkloadStatus::different;
    check.reason = check.count_differences.empty()
                       ? "the same launches in a different order"
                       : fmt::format("{} launches in the baseline, {} in the candidate", *check.baseline_launches,
                                     *check.candidate_launches);
  } else {
    check.status = WorkloadStatus::equivalent;
  }
  return check;
}

}  // namespace wcp::verdict
