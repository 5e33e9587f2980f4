#pragma once
// Why each module's identity moved between two runs: the modules that appeared, disappeared or
// were built under another identity, each explained from the load snapshots (facts/snapshot_diff.h:
// the kernels, functions, generic instances, options and block_dim that differ) and with the test
// or code line that first built the candidate's identity. `compare`, `ab` and a `baseline:`
// budget say it in their default text. Informational only: judge() fills it and no verdict rule
// reads it; a budget shows it beside a failure and never as one.
//
// Both runs' cold pass of their first successful sample is read (facts/queries.h, as the rest of
// the judgement). A module is paired by name and device, except module="unique" modules, whose
// name carries their content hash and which are paired by kernel key and order of first load (as
// the options comparison pairs them). Within a module the identities both runs built are set
// aside; each remaining candidate identity is explained against a remaining baseline identity
// (in build order), else against the candidate's previous build of the module (a rebuild within
// the run: a closure re-created per test, say).
#include <optional>
#include <string>
#include <vector>

#include "facts/snapshot_diff.h"
#include "model/report.h"

namespace wcp::verdict {

// Who first built an identity: the test running then (schema 11), and the first frame outside
// Warp on its loading stack. Both absent when the load has no snapshot or it did not say.
struct FirstBuilder {
  std::optional<TestContext> test;
  std::optional<SourceLocation> line;
  bool operator==(const FirstBuilder&) const = default;
};

// One compiled identity of a module in one run (its name and device are the module's).
struct BuiltIdentity {
  std::string hash;
  std::optional<int> block_dim;
  bool operator==(const BuiltIdentity&) const = default;
};

enum class ExplainedAgainst {
  baseline,       // a baseline identity of the module the candidate no longer built
  earlier_build,  // the candidate's previous build of the module, in the same run
};
std::string_view to_string(ExplainedAgainst against);

// Why the candidate built one identity the baseline did not.
struct IdentityExplanation {
  ExplainedAgainst against = ExplainedAgainst::baseline;
  BuiltIdentity from;
  BuiltIdentity to;
  std::optional<SnapshotDiff> diff;  // absent when either load has no snapshot
  std::string not_recorded;          // why `diff` is absent, in plain words ("" when present)
  FirstBuilder built_by;             // the candidate's first build of `to`
};

enum class ModuleChange { appeared, disappeared, changed };
std::string_view to_string(ModuleChange change);

struct ModuleIdentityChange {
  ModuleChange change = ModuleChange::changed;
  std::string module;  // the name, or "<kernel> (unique #<n>)"
  std::string device;
  std::string baseline_name;  // "" when not built on that side
  std::string candidate_name;
  std::vector<BuiltIdentity> baseline_identities;  // distinct, in build order
  std::vector<BuiltIdentity> candidate_identities;
  int identities_added = 0;                       // candidate identities the baseline did not build
  int identities_removed = 0;                     // baseline identities the candidate did not build
  std::vector<IdentityExplanation> explanations;  // one per identity added to a module both built
  // Baseline identities the candidate neither built nor explained an identity of its own against.
  std::vector<BuiltIdentity> no_longer_built;
  FirstBuilder first_built_by;  // appeared: the module's first build
};

struct IdentityChanges {
  std::string unavailable;                    // why the runs' modules could not be compared; "" when they were
  std::vector<ModuleIdentityChange> modules;  // changed, appeared, then disappeared; by module within each
  bool empty() const { return modules.empty(); }
};

IdentityChanges compare_identities(const Report& baseline, const Report& candidate);

}  // namespace wcp::verdict
