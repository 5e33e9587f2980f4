#pragma once
// Which modules were built more than once in one cold run, and why: several hashes (the
// module's identity churned) or one hash at several block_dims (CUDA variants).
#include <string>
#include <vector>

#include "model/report.h"

namespace wcp {

enum class RebuildCause {
  identity_churn,     // several hashes
  block_dim_spread,   // one hash, several block_dims
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
