#pragma once
// What differs between two load snapshots of one module: the one diff behind both "why was this
// module rebuilt in this run" (analysis/churn_findings.cpp, two consecutive builds) and "why does
// it have another identity than in the baseline" (verdict/identity_changes.h, two runs). The
// instrumentation records each load's live kernels (with Warp's content hash of each), the user
// functions Warp hashed, the module options and the block_dim; comparing two such records names
// what moved the module hash, which no Warp log says.
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "model/module_event.h"

namespace wcp {

// How two loads' kernels are told to be "one kernel with new content" rather than one kernel gone
// and another new.
enum class KernelMatch {
  // Within one run: the same kernel object (the instrumentation's serial, schema 10) with another
  // content hash; another object from the same line is a new kernel (a closure re-created), as is
  // any kernel of a report that did not record objects.
  same_object,
  // Across runs: two processes' object serials say nothing about each other, and an edit moves
  // lines (a copy of the program moves its files), so the same key is the same kernel (paired in
  // load order when several kernels share a key).
  same_key,
};

using ValueChange = std::tuple<std::string, std::string, std::string>;  // name, old, new

// One kernel held by both loads with two content hashes.
struct KernelChange {
  KernelInfo kernel;                   // as the later load saw it
  std::string old_hash;                // its content hash at the earlier load ("" when unknown)
  std::vector<ValueChange> constants;  // what its code names from outside it that changed, when recorded
  bool constants_recorded = false;
  std::vector<std::string> shadowed;  // changed names that are also the kernel's argument names
};

// A user function Warp hashed for the later load (or only for it) whose hash differs.
struct FunctionChange {
  FunctionInfo function;                        // as the later load saw it
  bool added = false;                           // not hashed for the earlier load
  std::vector<FunctionOverload> new_overloads;  // overloads the earlier load did not have
  std::vector<ValueChange> constants;           // values its code names that changed, when recorded
  std::string old_hash;                         // its hash at the earlier load ("" when added)
};

using BlockDimChange = std::pair<std::optional<int>, std::optional<int>>;  // old, new

struct SnapshotDiff {
  std::vector<KernelInfo> added;      // multiset difference: new kernels (closures re-created included)
  std::vector<KernelInfo> removed;    // gone since the earlier load
  std::vector<KernelChange> changed;  // one kernel, new content
  // Functions are compared only when both loads recorded them (schema 10).
  bool functions_recorded = false;
  std::vector<FunctionChange> functions;                               // changed, or newly hashed
  std::vector<FunctionInfo> functions_removed;                         // hashed for the earlier load only
  std::vector<std::pair<std::string, std::string>> instances_added;    // kernel key, generic instance
  std::vector<std::pair<std::string, std::string>> instances_removed;  // kernel key, generic instance
  std::vector<ValueChange> options;                                    // key, old, new ("(unset)" when absent)
  std::optional<BlockDimChange> block_dim;                             // when the loads' block_dims differ

  // Nothing the snapshots record differs: what moved the hash is outside them.
  bool empty() const;
  // The keys of kernels both added and removed: a closure re-made (another object, or another
  // captured value) in place of the one the earlier load had.
  std::vector<std::string> recreated() const;
};

// The difference between two snapshots of one module (both loads must have their detail).
SnapshotDiff diff_loads(const ModuleEvent& before, const ModuleEvent& after, KernelMatch match);

}  // namespace wcp
