#include "verdict/workload.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "facts/queries.h"
#include "io/name_table.h"

namespace wcp::verdict {
namespace {

std::string kernel_name(const LaunchSignature& launch) {
  return launch.module.empty() ? launch.kernel : launch.module + "." + launch.kernel;
}

std::string describe(const LaunchSignature& launch, const LaunchComparison& how) {
  return kernel_name(launch) + " " + launch_signature(launch, how);
}

std::string block_dim_text(int block_dim) {
  return block_dim == 0 ? "default" : std::to_string(block_dim);
}

// The fields of two launches that differ, in the order a reader looks for them.
std::vector<LaunchFieldChange> launch_changes(const LaunchSignature& a, const LaunchSignature& b) {
  std::vector<LaunchFieldChange> changes;
  const auto add = [&](std::string field, std::string before, std::string after) {
    if (before != after) changes.push_back({std::move(field), std::move(before), std::move(after)});
  };
  add("kernel", kernel_name(a), kernel_name(b));
  add("block_dim", block_dim_text(a.block_dim), block_dim_text(b.block_dim));
  add("dim", fmt::format("({})", fmt::join(a.dim, ",")), fmt::format("({})", fmt::join(b.dim, ",")));
  add("device", a.device, b.device);
  add("dtypes", fmt::format("[{}]", fmt::join(a.dtypes, ",")), fmt::format("[{}]", fmt::join(b.dtypes, ",")));
  add("adjoint", a.adjoint ? "yes" : "no", b.adjoint ? "yes" : "no");
  add("entry", a.entry, b.entry);
  return changes;
}

// Both records' signatures in one id space of comparable keys (names left out), so the two
// sequences can be walked as integers.
struct SharedSignatures {
  std::vector<std::uint32_t> baseline;  // signature index -> shared id
  std::vector<std::uint32_t> candidate;
  std::vector<std::string> keys;  // shared id -> key
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
  // The run each stream is in, as plain values (an optional<pair> read this way trips GCC's
  // maybe-uninitialized analysis); `valid` false at the end of a stream.
  struct Cursor {
    std::uint32_t signature = 0;
    std::uint64_t left = 0;
    bool valid = false;
  };
  const auto next = [](LaunchStream& stream) {
    const auto run = stream.next();
    return run ? Cursor{run->first, run->second, true} : Cursor{};
  };
  LaunchStream base_stream(base), cand_stream(cand);
  Cursor a = next(base_stream);
  Cursor b = next(cand_stream);
  std::uint64_t position = 0;
  std::set<std::pair<std::uint32_t, std::uint32_t>> seen_renames;
  while (a.valid && b.valid) {
    const auto& left = base.signatures[a.signature];
    const auto& right = cand.signatures[b.signature];
    if (shared.baseline[a.signature] != shared.candidate[b.signature]) {
      check.first_divergence = Divergence{
          "", position, describe(left, how), describe(right, how), right.kernel, launch_changes(left, right)};
      return;
    }
    if (seen_renames.insert({a.signature, b.signature}).second && kernel_name(left) != kernel_name(right)) {
      const KernelRename rename{kernel_name(left), kernel_name(right)};
      const bool known = std::any_of(check.renames.begin(), check.renames.end(), [&](const KernelRename& other) {
        return other.baseline == rename.baseline && other.candidate == rename.candidate;
      });
      if (!known) check.renames.push_back(rename);
    }
    const std::uint64_t step = std::min(a.left, b.left);
    position += step;
    a.left -= step;
    b.left -= step;
    if (a.left == 0) a = next(base_stream);
    if (b.left == 0) b = next(cand_stream);
  }
  if (a.valid)
    check.first_divergence = Divergence{"", position, describe(base.signatures[a.signature], how), "(end)", {}, {}};
  if (b.valid)
    check.first_divergence = Divergence{"", position, "(end)", describe(cand.signatures[b.signature], how), {}, {}};
}

}  // namespace

namespace {

constexpr NameTable<WorkloadStatus, 3> kWorkloadStatuses{{
    {WorkloadStatus::equivalent, "preserved"},
    {WorkloadStatus::different, "CHANGED"},
    {WorkloadStatus::unverified, "UNVERIFIED"},
}};

}  // namespace

std::string to_string(WorkloadStatus status) {
  return std::string(name_of(kWorkloadStatuses, status));
}

std::string divergence_changes_text(const Divergence& divergence) {
  std::vector<std::string> phrases;
  bool kernel_changed = false;
  for (const auto& change : divergence.changes) {
    kernel_changed = kernel_changed || change.field == "kernel";
    phrases.push_back(fmt::format("{} {} → {}", change.field, change.baseline, change.candidate));
  }
  if (phrases.empty()) return "";
  std::string text = phrases.size() == 1 ? phrases.front()
                                         : fmt::format("{} and {}", fmt::join(phrases.begin(), phrases.end() - 1, ", "),
                                                       phrases.back());
  if (!kernel_changed && !divergence.kernel.empty()) text += " for " + divergence.kernel;
  return text;
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

namespace {

// Launches per comparable key of a group of processes (names left out).
std::map<std::string, std::uint64_t> counts_by_key(const std::vector<const ProcessRecord*>& group,
                                                   const LaunchComparison& how) {
  std::map<std::string, std::uint64_t> counts;
  for (const ProcessRecord* process : group) {
    const auto per_signature = launches_per_signature(process->launches);
    for (std::size_t i = 0; i < per_signature.size(); ++i) {
      if (per_signature[i] > 0) counts[launch_signature(process->launches.signatures[i], how)] += per_signature[i];
    }
  }
  return counts;
}

std::map<std::string, std::vector<const ProcessRecord*>> by_match_key(const Report& report) {
  std::vector<const ProcessRecord*> ordered;
  for (const auto& process : report.processes) ordered.push_back(&process);
  std::stable_sort(ordered.begin(), ordered.end(), [](const ProcessRecord* a, const ProcessRecord* b) {
    return a->started_s.value_or(0.0) < b->started_s.value_or(0.0);
  });
  std::map<std::string, std::vector<const ProcessRecord*>> groups;
  std::size_t children = 0;
  for (const ProcessRecord* process : ordered) {
    const std::string key = match_key(*process, children);
    children += process->role == ProcessRole::child ? 1 : 0;
    if (process->launches_recorded) groups[key].push_back(process);
  }
  return groups;
}

}  // namespace

WorkloadCheck check_workload(const Report& baseline, const Report& candidate) {
  WorkloadCheck check;
  const bool base_recorded = has_launch_record(baseline);
  const bool cand_recorded = has_launch_record(candidate);
  if (base_recorded) check.baseline_launches = total_launches(baseline);
  if (cand_recorded) check.candidate_launches = total_launches(candidate);
  if (!base_recorded && !cand_recorded) {
    check.reason = "neither report has a launch record, so nothing is known about the workload";
    return check;
  }
  if (!base_recorded || !cand_recorded) {
    check.reason = fmt::format(
        "the {} report has no launch record (its instrumentation did not attach or did not "
        "record launches), so the workload cannot be compared",
        base_recorded ? "candidate" : "baseline");
    return check;
  }
  const LaunchComparison how = comparison_for(baseline, candidate);
  const auto base_groups = by_match_key(baseline);
  const auto cand_groups = by_match_key(candidate);
  // One process per side, or several: each role is compared on its own, so a worker's
  // launches never stand in for the main process's.
  const bool several_processes = base_groups.size() > 1 || cand_groups.size() > 1;
  std::set<std::string> keys;
  for (const auto& [key, group] : base_groups) keys.insert(key);
  for (const auto& [key, group] : cand_groups) keys.insert(key);
  const std::vector<const ProcessRecord*> none;
  for (const auto& key : keys) {
    const auto base_found = base_groups.find(key);
    const auto cand_found = cand_groups.find(key);
    const auto& base_group = base_found == base_groups.end() ? none : base_found->second;
    const auto& cand_group = cand_found == cand_groups.end() ? none : cand_found->second;
    const std::string prefix = several_processes ? "[" + key + "] " : "";
    const auto base_counts = counts_by_key(base_group, how);
    const auto cand_counts = counts_by_key(cand_group, how);
    std::set<std::string> signatures;
    for (const auto& [signature, count] : base_counts) signatures.insert(signature);
    for (const auto& [signature, count] : cand_counts) signatures.insert(signature);
    for (const auto& signature : signatures) {
      const auto b = base_counts.find(signature), c = cand_counts.find(signature);
      const std::uint64_t before = b == base_counts.end() ? 0 : b->second,
                          after = c == cand_counts.end() ? 0 : c->second;
      if (before != after) check.count_differences.push_back({prefix + signature, before, after});
    }
    // Order is the workload within one process; across several workers the scheduler decides
    // who does what, so only their counts are compared.
    if (base_group.size() == 1 && cand_group.size() == 1 && !check.first_divergence) {
      const auto& a = base_group.front()->launches;
      const auto& c = cand_group.front()->launches;
      align(a, c, share(a, c, how), how, check);
      if (check.first_divergence) check.first_divergence->process = several_processes ? key : "";
    } else if (base_group.size() > 1 || cand_group.size() > 1) {
      check.unordered.push_back(
          fmt::format("{}: {} process(es) in the baseline, {} in the candidate; their launches "
                      "are compared as counts, since which worker runs what is the scheduler's",
                      key, base_group.size(), cand_group.size()));
    }
  }
  if (check.first_divergence || !check.count_differences.empty()) {
    check.status = WorkloadStatus::different;
    check.reason = check.count_differences.empty() ? "the same launches in a different order"
                                                   : fmt::format("{} launches in the baseline, {} in the candidate",
                                                                 *check.baseline_launches, *check.candidate_launches);
  } else {
    check.status = WorkloadStatus::equivalent;
  }
  return check;
}

}  // namespace wcp::verdict
