#pragma once
// What this user can do about a program's compile time, in the order a person acts on it (issue
// 40): the settings their entry point can make, whoever's code the findings are about; keeping
// the kernel cache between runs, with this run's warm figure; their own code's finding groups.
// Findings in code they do not own (a dependency's, Warp's) are not things to do: they are
// counted per package, for its maintainers. Plain data, planned by analysis/user_action_plan.h
// and laid out by render/.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/finding_facts.h"

namespace wcp::analysis {

// One setting at the program's entry point that reaches modules the user does not own, so that
// a finding about someone else's code still gives this user something to do. Each one is a lever
// of `warp-compile-probe levers` (docs/levers.md), which measures it.
struct EntryPointSetting {
  std::string lever;    // the `levers` id that measures it: "backward-off"
  std::string setting;  // "wp.config.enable_backward = False"
  // Where: before a line of this program (its file and line), at the test session's start under
  // a test runner, or at the entry point before importing the package; render/ phrases it.
  FixAction advice;
  std::vector<std::string> modules;  // the modules of the findings it answers
  // The saving on those modules: an estimate whenever it is not measured (`measure` never runs
  // the lever); absent when no module's share could be estimated. Never 0 for "unknown".
  std::optional<double> saving_ms;
  bool saving_estimated = true;
  std::size_t modules_priced = 0;  // of `modules`, those in saving_ms
  std::string saving_basis;        // how saving_ms was obtained
  std::string condition;           // when not to take it: "only if nothing differentiates through them"
};

// Keeping the kernel cache between runs: this run's cold and warm wall time, when a warm run
// succeeded, compiled nothing, and so measured what a kept cache gives.
struct KeepCache {
  double cold_wall_ms = 0.0;
  double warm_wall_ms = 0.0;
};

// The findings about one package's code that this user cannot change.
struct PackageFindings {
  std::string package;  // "simlib 0.3.0", "warp-lang 1.19.0"; the owner's phrase without a distribution
  std::size_t findings = 0;
  std::vector<std::size_t> groups;  // indices into Diagnosis::finding_groups
};

struct UserActions {
  std::vector<EntryPointSetting> settings;
  std::optional<KeepCache> keep_cache;
  // Indices into Diagnosis::finding_groups: the groups this user acts on in their own code (and
  // whole-program groups), then those about modules generated at run time from their code.
  std::vector<std::size_t> own_groups;
  std::vector<PackageFindings> packages;  // in the order of their first group
  // The command that measures the settings: `warp-compile-probe levers -- ` and the measured
  // command, as an argv (render/ writes it as a shell would read it).
  std::vector<std::string> levers_command;

  std::size_t things_to_do() const { return settings.size() + (keep_cache ? 1 : 0) + own_groups.size(); }
};

}  // namespace wcp::analysis
