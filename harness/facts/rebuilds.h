#pragma once
// Which modules were built more than once in one cold run, and why. On CUDA block_dim is part
// of a module's hash (Warp 1.19: Module.get_module_hash(block_dim)), so one module launched at
// 128, 256 and 512 has three hashes legitimately: churn is several hashes at one (device,
// block_dim); builds at other block_dims are block_dim spread (CS-5) whatever their hashes.
#include <optional>
#include <string>
#include <vector>

#include "model/report.h"

namespace wcp {

enum class RebuildCause {
  identity_churn,     // several hashes at one block_dim
  block_dim_spread,   // several block_dims, one hash at each
  both,
  same_identity,      // the same identity built again in one process: its cache was cleared or bypassed
  several_processes,  // the same identity built once in each of several processes
};

struct RebuiltModule {
  std::string name;
  std::string device;
  int builds = 0;
  double total_ms = 0.0;
  std::vector<std::string> hashes;  // in build order, distinct
  std::vector<int> block_dims;      // distinct
  std::vector<int> pids;            // distinct processes that built it (when the instrumentation said)
  RebuildCause cause = RebuildCause::identity_churn;
  // Builds per block_dim (absent block_dim: the CPU, or not said), in the order the first build
  // at each happened: what CS-5 lists (each block_dim's first build) apart from the churn (the
  // further hashes at one block_dim).
  struct AtBlockDim {
    std::optional<int> block_dim;
    int builds = 0;
    std::vector<std::string> hashes;  // in build order, distinct
    double first_ms = 0.0;            // the first build at this block_dim
    double total_ms = 0.0;
  };
  std::vector<AtBlockDim> by_block_dim;
  bool churned() const;  // several hashes at one block_dim
};

struct CompiledIdentity {
  ModuleIdentity identity;
  double ms = 0.0;
  int builds = 0;          // more than one when the same identity was built again
  std::vector<int> pids;   // distinct processes that built it (when the instrumentation said)
  std::optional<double> native_ms;
  bool built_pch = false;
};

// Cold-pass compiled identities, slowest first.
std::vector<CompiledIdentity> compiled_identities(const Report& report);
// Modules built 2+ times in the cold pass, most expensive first.
std::vector<RebuiltModule> rebuilt_modules(const Report& report);

std::string to_string(RebuildCause cause);

}  // namespace wcp
