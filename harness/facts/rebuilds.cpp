#include "facts/rebuilds.h"

#include <algorithm>
#include <map>

#include "facts/queries.h"
#include "io/name_table.h"

namespace wcp {

std::vector<CompiledIdentity> compiled_identities(const Report& report) {
  std::map<ModuleIdentity, CompiledIdentity> by_identity;
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    auto& entry = by_identity[identity_of(*event)];
    entry.identity = identity_of(*event);
    entry.ms += event->ms;
    ++entry.builds;
    if (event->detail && event->detail->pid != 0 &&
        std::find(entry.pids.begin(), entry.pids.end(), event->detail->pid) == entry.pids.end()) {
      entry.pids.push_back(event->detail->pid);
    }
    if (event->native_ms) entry.native_ms = entry.native_ms.value_or(0.0) + *event->native_ms;
    entry.built_pch = entry.built_pch || event->built_pch;
  }
  std::vector<CompiledIdentity> identities;
  for (auto& [identity, entry] : by_identity) identities.push_back(std::move(entry));
  std::stable_sort(identities.begin(), identities.end(), [](const auto& a, const auto& b) { return a.ms > b.ms; });
  return identities;
}

std::vector<RebuiltModule> rebuilt_modules(const Report& report) {
  std::map<std::pair<std::string, std::string>, RebuiltModule> by_module;
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    auto& module = by_module[{event->name, event->device}];
    module.name = event->name;
    module.device = event->device;
    ++module.builds;
    module.total_ms += event->ms;
    if (std::find(module.hashes.begin(), module.hashes.end(), event->hash) == module.hashes.end()) {
      module.hashes.push_back(event->hash);
    }
    if (event->block_dim &&
        std::find(module.block_dims.begin(), module.block_dims.end(), *event->block_dim) == module.block_dims.end()) {
      module.block_dims.push_back(*event->block_dim);
    }
    if (event->detail && event->detail->pid != 0 &&
        std::find(module.pids.begin(), module.pids.end(), event->detail->pid) == module.pids.end()) {
      module.pids.push_back(event->detail->pid);
    }
    auto at = std::find_if(module.by_block_dim.begin(), module.by_block_dim.end(),
                           [&](const RebuiltModule::AtBlockDim& entry) { return entry.block_dim == event->block_dim; });
    if (at == module.by_block_dim.end()) {
      module.by_block_dim.push_back({event->block_dim, 0, {}, event->ms, 0.0});
      at = std::prev(module.by_block_dim.end());
    }
    ++at->builds;
    at->total_ms += event->ms;
    if (std::find(at->hashes.begin(), at->hashes.end(), event->hash) == at->hashes.end())
      at->hashes.push_back(event->hash);
  }
  std::vector<RebuiltModule> rebuilt;
  for (auto& [key, module] : by_module) {
    if (module.builds < 2) continue;
    // Churn is judged at one block_dim only: another block_dim is another hash by design.
    const bool churn = module.churned();
    const bool spread = module.block_dims.size() > 1;
    // One build per process, each process its own: the cache did not have it yet in any of them.
    const bool per_process = static_cast<int>(module.pids.size()) == module.builds;
    module.cause = churn && spread ? RebuildCause::both
                   : churn         ? RebuildCause::identity_churn
                   : spread        ? RebuildCause::block_dim_spread
                   : per_process   ? RebuildCause::several_processes
                                   : RebuildCause::same_identity;
    rebuilt.push_back(std::move(module));
  }
  std::stable_sort(rebuilt.begin(), rebuilt.end(),
                   [](const auto& a, const auto& b) { return a.total_ms > b.total_ms; });
  return rebuilt;
}

bool RebuiltModule::churned() const {
  return std::any_of(by_block_dim.begin(), by_block_dim.end(),
                     [](const AtBlockDim& entry) { return entry.hashes.size() > 1; });
}

namespace {

constexpr NameTable<RebuildCause, 5> kRebuildCauses{{
    {RebuildCause::identity_churn, "identity churn (several hashes at one block_dim)"},
    {RebuildCause::block_dim_spread, "block_dim spread (several block_dims, one hash at each)"},
    {RebuildCause::both, "identity churn and block_dim spread"},
    {RebuildCause::same_identity, "same identity built again (cache cleared or bypassed)"},
    {RebuildCause::several_processes, "same identity built once in each of several processes"},
}};

}  // namespace

std::string to_string(RebuildCause cause) {
  return std::string(name_of(kRebuildCauses, cause));
}

}  // namespace wcp
