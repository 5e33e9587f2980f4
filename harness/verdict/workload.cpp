#include "verdict/workload.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "model/queries.h"

namespace wcp::verdict {
namespace {

std::string kernel_name(const LaunchSignature& launch) {
  return launch.module.empty() ? launch.kernel : launch.module + "." + launch.kernel;
}

std::string describe(const LaunchSignature& launch, const LaunchComparison& how) {
  return kernel_name(launch) + " " + launch_signature(launch, how);
}

// Both records' signatures in one id space of comparable keys (names left out), so the two
// sequences can be walked as integers.
struct SharedSignatures {
  std::vector<std::uint32_t> baseline;   // signature index -> shared id
  std::vector<std::uint32_t> candidate;
  std::vector<std::string> keys;         // shared id -> key
};

SharedSignatures share(const LaunchRecord& base, const LaunchRecord& cand, const LaunchComparison& how) {
  SharedSignatures shared;
  std::unordered_map<std::string, std::uint32_t> ids;
  const auto id_of = [&](const LaunchSignature& launch) {
    const auto [found, added] = ids.try_emplace(launch_signature(launch, how), static_cast<std::uint32_t>(ids.size()));
    if (added) shared.keys.push_back(found->first);
    return found->second;
  };
  for (const auto& launch : base.signatures) shared.baseline.push_back(id_of(launch));
  for (const auto& launch : cand.signatures) shared.candidate.push_back(id_of(launch));
  return shared;
}

// Walks both records in step as runs, never expanding them: a million identical launches
// stay one comparison. Records renames on the aligned prefix and the first divergence.
void align(const LaunchRecord& base, const LaunchRecord& cand, const SharedSignatures& shared,
           const LaunchComparison& how, WorkloadCheck& check) {
  LaunchStream base_stream(base), cand_stream(cand);
  auto a = base_stream.next();
  auto b = cand_stream.next();
  std::uint64_t position = 0;
  std::set<std::pair<std::uint32_t, std::uint32_t>> seen_renames;
  while (a && b) {
    const auto& left = base.signatures[a->first];
    const auto& right = cand.signatures[b->first];
    if (shared.baseline[a->first] != shared.candidate[b->first]) {
      check.first_divergence = Divergence{position, describe(left, how), describe(right, how)};
      return;
    }
    if (seen_renames.insert({a->first, b->first}).second && kernel_name(left) != kernel_name(right)) {
      const KernelRename rename{kernel_name(left), kernel_name(right)};
      const bool known = std::any_of(check.renames.begin(), check.renames.end(), [&](const KernelRename& other) {
        return other.baseline == rename.baseline && other.candidate == rename.candidate;
      });
      if (!known) check.renames.push_back(rename);
    }
    const std::uint64_t step = std::min(a->second, b->second);
    position += step;
    a->second -= step;
    b->second -= step;
    if (a->second == 0) a = base_stream.next();
    if (b->second == 0) b = cand_stream.next();
  }
  if (a) check.first_divergence = Divergence{position, describe(base.signatures[a->first], how), "(end)"};
  if (b) check.first_divergence = Divergence{position, "(end)", describe(cand.signatures[b->first], how)};
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

std::string launch_signature(const LaunchSignature& launch, const LaunchComparison& how) {
  std::vector<std::string> dtypes;
  for (const auto& dtype : launch.dtypes) {
    if (!how.array_arguments_only || !dtype.empty()) dtypes.push_back(dtype);
  }
  // How a kernel launch was issued (launch, launch_tiled, a replayed Launch object) does not
  // change the work; a graph replay is another kind of entry altogether.
  return fmt::format("{}dim=({}) device={} dtypes=[{}] block_dim={}{}", launch.entry == "graph" ? "graph " : "",
                     fmt::join(launch.dim, ","), launch.device, fmt::join(dtypes, ","), launch.block_dim,
                     launch.adjoint ? " adjoint" : "");
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
  const SharedSignatures shared = share(baseline.launches, candidate.launches, how);
  std::vector<SignatureCount> counts(shared.keys.size());
  for (std::size_t id = 0; id < counts.size(); ++id) counts[id].signature = shared.keys[id];
  const auto base_counts = launches_per_signature(baseline.launches);
  const auto cand_counts = launches_per_signature(candidate.launches);
  for (std::size_t i = 0; i < base_counts.size(); ++i) counts[shared.baseline[i]].baseline += base_counts[i];
  for (std::size_t i = 0; i < cand_counts.size(); ++i) counts[shared.candidate[i]].candidate += cand_counts[i];
  for (const auto& entry : counts) {
    if (entry.baseline != entry.candidate) check.count_differences.push_back(entry);
  }
  std::sort(check.count_differences.begin(), check.count_differences.end(),
            [](const auto& x, const auto& y) { return x.signature < y.signature; });
  align(baseline.launches, candidate.launches, shared, how, check);
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
