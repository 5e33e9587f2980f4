#pragma once
// Option receipts: for every option write a program made, the module builds it reached — loads
// after the write, in its process (or a process forked from it afterwards), whose snapshot
// carries the written value — or why it reached none. The seed's rule, "after changing an
// option, confirm the hash moved for every target module", done for the user from one run.
//
// One rule in one place: the diagnosis turns a write that reached nothing into a finding
// (option-never-arrived, config-deadline) and `compare` says whether a changed option arrived.
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/mechanism.h"
#include "model/report.h"

namespace wcp {

enum class ReceiptOutcome {
  reached,              // every module build it was meant for carries the value (a global: every
                        // application module; a dependency's module that kept its own is context)
  partly_reached,       // some builds carry it, others do not (a global some modules did not take)
  reached_nothing,      // builds it was meant for exist (or its kernels were built elsewhere), none carries it
  target_not_built,     // nothing it was meant for was built in this run: nothing to reach, nothing wrong
  no_change,            // set after the target's last build, which already held the value: changed nothing
  not_a_module_option,  // a warp.config setting no module snapshot holds (log_level, kernel_cache_dir, ...)
};

enum class MissReason {
  target_never_loaded,        // the target module was not built in this run
  kernels_in_unique_modules,  // ... the target's Python module's kernels were built in module="unique" modules
  kernels_in_named_modules,   // ... in modules named explicitly (@wp.kernel(module="pkg.name"))
  set_after_last_load,        // the target was built before the write and never again
  set_after_module_created,   // a warp.config value modules copy when created, set after this one was created
  module_holds_own_value,     // a warp.config value this module does not take: its own option decides
  overridden,                 // a later write set another value before the build
  no_build_after,             // warp.config: no module was built after the write
  value_differs,              // built after the write with another value, and the record does not say why
};

std::string_view to_string(ReceiptOutcome outcome);
std::string_view to_string(MissReason reason);

struct ReachedBuild {
  ModuleIdentity identity;
  // The module had been built before the write with another hash: this build is the rebuild
  // the late option cost (CS-3).
  bool rebuild = false;
  bool operator==(const ReachedBuild&) const = default;
};

struct MissedModule {
  std::string module;                   // "" for no_build_after and for a kernel that was never built
  std::optional<ModuleIdentity> build;  // the build that carried another value, when one did
  MissReason reason = MissReason::target_never_loaded;
  std::string held;                          // the value the module's build carried instead, when it built
  std::optional<OptionWrite> by;             // overridden, module_holds_own_value: the write that decided
  std::optional<SourceLocation> created_at;  // set_after_module_created: where the module was created, when known
  std::vector<std::string> elsewhere;        // kernels_in_*: the modules the kernels were built in
  std::vector<std::string> kernels;          // kernels_in_*: their keys; target_never_loaded: the
                                             // target's own registered kernels (the registry's bound)
  // target_never_loaded: how many kernels the target held at exit, none of them launched (0: none,
  // or the report has no registry). They take the option whenever the module loads.
  int registered_kernels = 0;
  // warp.config writes only: the module's kernels all belong to an installed package (Warp's
  // own modules, a library), which the application's global was not aimed at: context, never
  // a finding. (A module option is aimed at its target, whoever's module that is.)
  bool dependency = false;
  bool operator==(const MissedModule&) const = default;
};

struct OptionReceipt {
  OptionWrite write;
  int repeats = 1;  // identical writes (site, api, target, key, value) with the same receipt, folded
  ReceiptOutcome outcome = ReceiptOutcome::reached;
  std::vector<ReachedBuild> reached;
  std::vector<MissedModule> missed;
  // Set by the diagnosis when this receipt is the evidence of a finding (option-never-arrived,
  // config-deadline), so every reader can point from the receipt to it.
  std::optional<Mechanism> finding;
  bool operator==(const OptionReceipt&) const = default;
};

// Every write's receipt, in the order of the writes; nullopt when the report has no option record.
std::optional<std::vector<OptionReceipt>> option_receipts(const Report& report);

// The warp.config options a module copies when it is created: the keys the instrumentation's
// module_created snapshots hold (Warp decides the list; it is never hard-coded here).
std::set<std::string> copied_config_options(const OptionRecord& record);

// The value a load built with for `key`: the module's option, or warp.config's at load when the
// module leaves it unset (None: Warp resolves it at build time). nullopt when neither says.
std::optional<std::string> effective_option(const LoadDetail& detail, const std::string& key);

// effective_option completed from the option record: where the module leaves `key` to
// warp.config and the load's snapshot does not hold the global (cuda_output, which Warp reads
// while it builds), the last warp.config write of it the load's process made before the load.
// nullopt when the load has no snapshot or nothing says.
std::optional<std::string> option_at_build(const Report& report, const ModuleEvent& load, const std::string& key);

}  // namespace wcp
