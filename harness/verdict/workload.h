#pragma once
// Workload equivalence: did two runs launch the same work? Judged on the launch topology
// (order, count, dim, device, dtypes, block_dim, adjoint). Kernel names are deliberately not
// part of it: moving a closure kernel to module scope renames it without changing the work,
// so renames are listed as an advisory instead.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/launch_record.h"
#include "model/report.h"

namespace wcp::verdict {

enum class WorkloadStatus { equivalent, different, unverified };

std::string to_string(WorkloadStatus status);

// How launches are compared. The original probe records only the arguments that carry a
// dtype, so against one of its reports the other arguments are left out on both sides.
struct LaunchComparison {
  bool array_arguments_only = false;
};
LaunchComparison comparison_for(const Report& baseline, const Report& candidate);

// A launch with its kernel name left out.
std::string launch_signature(const LaunchSignature& launch, const LaunchComparison& how = {});

struct SignatureCount {
  std::string signature;
  std::uint64_t baseline = 0;
  std::uint64_t candidate = 0;
};

// One field of a launch that differs between the two runs at their first divergence.
struct LaunchFieldChange {
  std::string field;  // "block_dim", "dim", "device", "dtypes", "adjoint", "entry", "kernel"
  std::string baseline;
  std::string candidate;
  bool operator==(const LaunchFieldChange&) const = default;
};

struct Divergence {
  std::string process;      // the process (role and program) it is in, when the run had several
  std::uint64_t index = 0;  // 0-based position in that process's expanded launch sequence
  std::string baseline;     // "kernel sig", or "(end)" when that side ran out
  std::string candidate;
  // When both sides launched there: the kernel (the candidate's) and the fields that differ,
  // so that output can say "block_dim 256 → 64 for shift" rather than two signatures.
  std::string kernel;
  std::vector<LaunchFieldChange> changes;
};

// What differs at a divergence, in words: "block_dim 256 → 64 for shift", "dim (64) → (128) and
// dtypes [float32] → [float64] for shift", "kernel m.a → m.b"; "" when one side ran out.
std::string divergence_changes_text(const Divergence& divergence);

struct KernelRename {
  std::string baseline;  // "module.kernel"
  std::string candidate;
};

struct WorkloadCheck {
  WorkloadStatus status = WorkloadStatus::unverified;
  std::string reason;  // plain words, for unverified and different
  std::optional<std::uint64_t> baseline_launches;  // absent when that side has no launch record
  std::optional<std::uint64_t> candidate_launches;
  std::vector<SignatureCount> count_differences;  // only signatures whose counts differ
  std::optional<Divergence> first_divergence;
  std::vector<KernelRename> renames;  // aligned launches whose kernel name changed
  std::vector<std::string> unordered;  // groups of processes compared as counts only, and why
};

WorkloadCheck check_workload(const Report& baseline, const Report& candidate);

}  // namespace wcp::verdict
