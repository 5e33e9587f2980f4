#pragma once
// What Warp compiled at a commit, as the step rule compares it (history/trend.h): how many
// identities each module compiled, how many times each module was built, what the warm run
// compiled and how many LTO artifacts the cold run left. These decide what compiling costs.
// A kernel edit changes identity hashes and none of them: editing kernel code changes a hash
// at nearly every commit of a real project, so a hash alone is a note, never a step.
//
// Missing is not zero: a part that either result did not record (a failed commit, a result
// from an older history layout) is not compared.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "history/history_result.h"

namespace wcp::history {

// The name a module is counted under: a module="unique" kernel's module carries its content
// hash in its name ("<kernel key>_<8 hex>"), so editing the kernel renames it; its kernel key
// stands for it.
std::string structural_module_name(const std::string& module);

struct CountChange {
  std::uint64_t before = 0;
  std::uint64_t after = 0;
  bool operator==(const CountChange&) const = default;
};

// A module whose count of compiled identities changed; 0 before: added, 0 after: removed.
struct ModuleIdentities {
  std::string module;
  std::uint64_t before = 0;
  std::uint64_t after = 0;
  bool operator==(const ModuleIdentities&) const = default;
};

struct StructureChange {
  // Whether the "<module> <hash>" sets differ at all, and how.
  bool identities_differ = false;
  std::vector<std::string> identities_added;
  std::vector<std::string> identities_removed;
  // The structure: set only where it changed (and both results recorded it).
  std::optional<CountChange> identities;                // the total count
  std::vector<ModuleIdentities> identities_per_module;  // by structural_module_name
  std::vector<ModuleBuilds> built_more;                 // modules built more times than before (their builds now)
  std::vector<ModuleBuilds> built_fewer;                // modules built fewer times (1: once), still compiled
  std::optional<CountChange> warm_compiles;
  std::optional<CountChange> lto_artifacts;

  // Anything but hashes changed: a step.
  bool structural() const;
  // New hashes with the same identities per module: kernel code was edited (a note; a step
  // only if something structural changed with it, or the level moved).
  bool code_edited() const { return identities_differ && identities_per_module.empty(); }
  // The modules whose hashes changed (structural names, sorted).
  std::vector<std::string> modules_with_new_hashes() const;
};

// `after` against the previous measured result `before`.
StructureChange compare_structure(const Result& before, const Result& after);

}  // namespace wcp::history
