#pragma once
// A module-boundary proposal: the user's own kernels regrouped so that each group is one Warp
// module built as few times as this workload allows. Kernels go together when they share a
// lifecycle in this run (launched, or never launched), an option set and, on CUDA, one stable
// block_dim; a kernel launched at several block_dims stays alone. Warp's, dependencies' and
// run-time generated modules cannot move and are listed as such.
//
// It is advice with its evidence, never an edit: the builds it removes are counted from this
// run; the milliseconds are an estimate (a fixed cost per module plus a cost per byte of
// generated source fitted on this run's builds) to verify with `compare` after applying it.
#include <optional>
#include <string>
#include <vector>

#include "facts/kernel_usage.h"
#include "facts/queries.h"
#include "model/report.h"

namespace wcp::analysis {

struct ProposedModule {
  std::string name;  // "A", "B", ...: a label for this proposal, not a module name
  bool launched = true;
  // The module options of this group where they differ from the ones most of the user's
  // kernels have ("max_unroll=4"); empty when the same.
  std::string distinct_options;
  std::vector<std::string> devices;  // where its kernels launched
  std::optional<int> block_dim;      // CUDA: the one block_dim its kernels launch at
  bool varying_block_dim = false;    // CUDA: launched at several block_dims, so kept alone
  std::vector<std::string> kernels;  // "key (file:line)"
  std::vector<std::string> from_modules;
  int builds = 0;  // builds this run would make of it: one per device and block_dim, none when never launched
  std::optional<double> estimated_ms;
};

struct UnmovableModule {
  std::string module;
  std::string owner;   // ModuleOwnership::describe()
  std::string reason;
};

struct BoundaryProposal {
  std::vector<std::string> current_modules;  // the user's modules the proposal regroups
  int current_builds = 0;
  double current_ms = 0.0;  // their builds' load time (a build that also made the header: its estimate instead)
  std::vector<ProposedModule> modules;
  int proposed_builds = 0;
  std::optional<double> proposed_ms;  // estimate; absent without a per-kernel split of the source
  std::vector<UnmovableModule> unmovable;
  std::string basis;                  // how the estimate was made and how to verify it
  std::vector<std::string> notes;
  bool changes = false;  // the proposed grouping differs from the current one

  int builds_removed() const { return current_builds - proposed_builds; }
  std::optional<double> ms_removed() const;
};

BoundaryProposal propose_boundaries(const Report& report, const std::vector<ModuleUse>& usage,
                                    const std::optional<FixedCostReference>& fixed_cost);

}  // namespace wcp::analysis
