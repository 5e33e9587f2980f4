#include "history/structure.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

#include "facts/queries.h"

namespace wcp::history {
namespace {

// "<module> <hash>" → its module.
std::string module_of_identity(const std::string& identity) {
  return identity.substr(0, identity.rfind(' '));
}

std::map<std::string, std::uint64_t> identities_by_module(const std::vector<std::string>& identities) {
  std::map<std::string, std::uint64_t> counts;
  for (const auto& identity : identities) ++counts[structural_module_name(module_of_identity(identity))];
  return counts;
}

std::map<std::string, int> builds_by_module(const std::vector<ModuleBuilds>& rebuilt) {
  std::map<std::string, int> builds;
  for (const auto& module : rebuilt) builds[structural_module_name(module.name)] += module.builds;
  return builds;
}

std::optional<CountChange> changed_count(const std::optional<std::uint64_t>& before,
                                         const std::optional<std::uint64_t>& after) {
  if (!before || !after || *before == *after) return std::nullopt;
  return CountChange{*before, *after};
}

void compare_identities(const std::vector<std::string>& before, const std::vector<std::string>& after,
                        StructureChange& change) {
  change.identities_differ = before != after;
  std::set_difference(after.begin(), after.end(), before.begin(), before.end(),
                      std::back_inserter(change.identities_added));
  std::set_difference(before.begin(), before.end(), after.begin(), after.end(),
                      std::back_inserter(change.identities_removed));
  change.identities = changed_count(before.size(), after.size());
  const auto counts_before = identities_by_module(before);
  const auto counts_after = identities_by_module(after);
  std::set<std::string> modules;
  for (const auto& [module, count] : counts_before) modules.insert(module);
  for (const auto& [module, count] : counts_after) modules.insert(module);
  for (const auto& module : modules) {
    const auto was = counts_before.contains(module) ? counts_before.at(module) : 0;
    const auto now = counts_after.contains(module) ? counts_after.at(module) : 0;
    if (was != now) change.identities_per_module.push_back({module, was, now});
  }
}

// A module absent from rebuilt_modules was built once, if it was compiled at all; a module
// compiled on one side only is an identity change (added or removed), not a build count.
void compare_builds(const Result& before, const Result& after, StructureChange& change) {
  const auto builds_before = builds_by_module(*before.rebuilt_modules);
  const auto builds_after = builds_by_module(*after.rebuilt_modules);
  const auto compiled = [](const Result& result, const std::string& module) {
    if (!result.identity_set) return true;
    return std::any_of(result.identity_set->begin(), result.identity_set->end(),
                       [&module](const std::string& identity) {
                         return structural_module_name(module_of_identity(identity)) == module;
                       });
  };
  std::set<std::string> modules;
  for (const auto& [module, builds] : builds_before) modules.insert(module);
  for (const auto& [module, builds] : builds_after) modules.insert(module);
  for (const auto& module : modules) {
    const int was = builds_before.contains(module) ? builds_before.at(module) : 1;
    const int now = builds_after.contains(module) ? builds_after.at(module) : 1;
    if (now > was) {
      change.built_more.push_back({module, now});
    } else if (now < was && compiled(after, module)) {
      change.built_fewer.push_back({module, now});
    }
  }
}

}  // namespace

std::string structural_module_name(const std::string& module) {
  return unique_module_kernel(module).value_or(module);
}

bool StructureChange::structural() const {
  return identities || !identities_per_module.empty() || !built_more.empty() || !built_fewer.empty() || warm_compiles ||
         lto_artifacts;
}

std::vector<std::string> StructureChange::modules_with_new_hashes() const {
  std::set<std::string> modules;
  for (const auto* identities : {&identities_added, &identities_removed}) {
    for (const auto& identity : *identities) modules.insert(structural_module_name(module_of_identity(identity)));
  }
  return {modules.begin(), modules.end()};
}

StructureChange compare_structure(const Result& before, const Result& after) {
  StructureChange change;
  if (before.identity_set && after.identity_set) compare_identities(*before.identity_set, *after.identity_set, change);
  if (before.rebuilt_modules && after.rebuilt_modules) compare_builds(before, after, change);
  change.warm_compiles = changed_count(before.warm_compiles, after.warm_compiles);
  change.lto_artifacts = changed_count(before.lto_artifacts, after.lto_artifacts);
  return change;
}

}  // namespace wcp::history
