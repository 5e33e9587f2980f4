#pragma once
// Workload equivalence: did two runs launch the same work? Judged on the launch topology
// (order, count, dim, device, dtypes, block_dim, adjoint). Kernel names are deliberately not
// part of it: moving a closure kernel to module scope renames it without changing the work,
// so renames are listed as an advisory instead.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/report.h"

namespace wcp::analysis {

enum class WorkloadStatus { equivalent, different, unverified };

std::string to_string(WorkloadStatus status);

// A launch with its kernel name left out.
std::string launch_signature(const Launch& launch);

struct SignatureCount {
  std::string signature;
  std::uint64_t baseline = 0;
  std::uint64_t candidate = 0;
};

struct Divergence {
  std::uint64_t index = 0;  // 0-based position in the expanded launch sequence
  std::string baseline;     // "kernel sig", or "(end)" when that side ran out
  std::string candidate;
};

struct KernelRename {
  std::string baseline;  // "module.kernel"
  std::string candidate;
};

struct WorkloadCheck {
  WorkloadStatus status = WorkloadStatus::unverified;
  std::string reason;  // plain words, for unverified and different
  std::uint64_t baseline_launches = 0;
  std::uint64_t candidate_launches = 0;
  std::vector<SignatureCount> count_differences;  // only signatures whose counts differ
  std::optional<Divergence> first_divergence;
  std::vector<KernelRename> renames;  // aligned launches whose kernel name changed
};

WorkloadCheck check_workload(const Report& baseline, const Report& candidate);

}  // namespace wcp::analysis
