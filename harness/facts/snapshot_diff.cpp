#include "facts/snapshot_diff.h"

#include <algorithm>
#include <map>
#include <set>

namespace wcp {
namespace {

// A kernel as the snapshots tell them apart: a closure re-created from the same line has the same
// key, file and line but (with another captured value) another content hash. Across runs the
// place is left out: an edit above a kernel moves its line without changing it.
using KernelIdentity = std::tuple<std::string, std::string, int, std::string>;

KernelIdentity identity_in_diff(const KernelInfo& kernel, KernelMatch match) {
  if (match == KernelMatch::same_key) return {kernel.key, "", 0, kernel.hash};
  return {kernel.key, kernel.file, kernel.line, kernel.hash};
}

std::map<KernelIdentity, int> kernel_counts(const LoadDetail& detail, KernelMatch match) {
  std::map<KernelIdentity, int> counts;
  for (const auto& kernel : detail.kernels) ++counts[identity_in_diff(kernel, match)];
  return counts;
}

using Values = std::map<std::string, std::string>;

// The named values that differ between two recordings of one kernel's or function's code.
std::vector<ValueChange> value_changes(const Values& before, const Values& after) {
  std::set<std::string> names;
  for (const auto& [name, value] : before) names.insert(name);
  for (const auto& [name, value] : after) names.insert(name);
  std::vector<ValueChange> changes;
  for (const auto& name : names) {
    const auto old_value = before.find(name);
    const auto new_value = after.find(name);
    const std::string old_text = old_value == before.end() ? "(no value)" : old_value->second;
    const std::string new_text = new_value == after.end() ? "(no value)" : new_value->second;
    if (old_text != new_text) changes.emplace_back(name, old_text, new_text);
  }
  return changes;
}

KernelChange kernel_change(const KernelInfo& before, const KernelInfo& after) {
  KernelChange change{after, before.hash, {}, before.constants && after.constants, {}};
  if (!change.constants_recorded) return change;
  change.constants = value_changes(*before.constants, *after.constants);
  for (const auto& [name, old_value, new_value] : change.constants) {
    if (after.args && std::find(after.args->begin(), after.args->end(), name) != after.args->end())
      change.shadowed.push_back(name);
  }
  return change;
}

// Whether an earlier kernel is the later one with new content, under the match's rule.
bool same_kernel(const KernelInfo& old, const KernelInfo& kernel, KernelMatch match) {
  if (old.key != kernel.key) return false;
  if (match == KernelMatch::same_key) return true;
  return old.object && kernel.object && *old.object == *kernel.object && old.file == kernel.file &&
         old.line == kernel.line;
}

// Within one run a function is its definition (key, file, line); across runs an edit moves its
// line and a copy its file, so it is its key in the Warp module it was registered in.
using FunctionKey = std::tuple<std::string, std::string, int>;
FunctionKey function_key(const FunctionInfo& function, KernelMatch match) {
  if (match == KernelMatch::same_key) return {function.key, function.module, 0};
  return {function.key, function.file, function.line};
}

void diff_functions(const std::vector<FunctionInfo>& before, const std::vector<FunctionInfo>& after, KernelMatch match,
                    SnapshotDiff& diff) {
  std::map<FunctionKey, const FunctionInfo*> earlier;
  for (const auto& function : before) earlier[function_key(function, match)] = &function;
  std::set<FunctionKey> seen;
  for (const auto& function : after) {
    const FunctionKey key = function_key(function, match);
    seen.insert(key);
    const auto found = earlier.find(key);
    if (found == earlier.end()) {
      diff.functions.push_back({function, true, {}, {}, ""});
      continue;
    }
    if (found->second->hash == function.hash) continue;
    FunctionChange change{function, false, {}, {}, found->second->hash};
    if (found->second->constants && function.constants)
      change.constants = value_changes(*found->second->constants, *function.constants);
    for (const auto& overload : function.overloads) {
      const auto& old = found->second->overloads;
      if (std::find(old.begin(), old.end(), overload) == old.end()) change.new_overloads.push_back(overload);
    }
    diff.functions.push_back(std::move(change));
  }
  for (const auto& [key, function] : earlier) {
    if (!seen.contains(key)) diff.functions_removed.push_back(*function);
  }
}

void diff_kernels(const LoadDetail& before, const LoadDetail& after, KernelMatch match, SnapshotDiff& diff) {
  auto remaining = kernel_counts(before, match);
  std::vector<const KernelInfo*> unmatched;
  for (const auto& kernel : after.kernels) {
    auto found = remaining.find(identity_in_diff(kernel, match));
    if (found != remaining.end() && found->second > 0) {
      --found->second;
    } else {
      unmatched.push_back(&kernel);
    }
  }
  // The earlier load's kernels no later kernel matched exactly, one entry per instance.
  std::vector<const KernelInfo*> gone;
  for (const auto& kernel : before.kernels) {
    auto found = remaining.find(identity_in_diff(kernel, match));
    if (found != remaining.end() && found->second > 0) {
      --found->second;
      gone.push_back(&kernel);
    }
  }
  for (const KernelInfo* kernel : unmatched) {
    const auto same = std::find_if(gone.begin(), gone.end(), [&](const KernelInfo* old) {
      return old != nullptr && same_kernel(*old, *kernel, match);
    });
    if (same != gone.end()) {
      diff.changed.push_back(kernel_change(**same, *kernel));
      *same = nullptr;
    } else {
      diff.added.push_back(*kernel);
    }
  }
  for (const KernelInfo* kernel : gone) {
    if (kernel != nullptr) diff.removed.push_back(*kernel);
  }
}

// Generic instances per kernel key: the union over the kernels that share the key. A key only
// one load has is a kernel added or removed, reported as such.
void diff_instances(const LoadDetail& before, const LoadDetail& after, SnapshotDiff& diff) {
  std::map<std::string, std::set<std::string>> old_instances, new_instances;
  for (const auto& kernel : before.kernels)
    old_instances[kernel.key].insert(kernel.overloads.begin(), kernel.overloads.end());
  for (const auto& kernel : after.kernels)
    new_instances[kernel.key].insert(kernel.overloads.begin(), kernel.overloads.end());
  for (const auto& [key, instances] : new_instances) {
    const auto old = old_instances.find(key);
    if (old == old_instances.end()) continue;
    for (const auto& instance : instances) {
      if (!old->second.contains(instance)) diff.instances_added.emplace_back(key, instance);
    }
    for (const auto& instance : old->second) {
      if (!instances.contains(instance)) diff.instances_removed.emplace_back(key, instance);
    }
  }
}

}  // namespace

bool SnapshotDiff::empty() const {
  return added.empty() && removed.empty() && changed.empty() && functions.empty() && functions_removed.empty() &&
         instances_added.empty() && instances_removed.empty() && options.empty() && !block_dim;
}

std::vector<std::string> SnapshotDiff::recreated() const {
  std::vector<std::string> keys;
  for (const auto& kernel : added) {
    const bool gone =
        std::any_of(removed.begin(), removed.end(), [&](const KernelInfo& old) { return old.key == kernel.key; });
    if (gone && std::find(keys.begin(), keys.end(), kernel.key) == keys.end()) keys.push_back(kernel.key);
  }
  return keys;
}

SnapshotDiff diff_loads(const ModuleEvent& before, const ModuleEvent& after, KernelMatch match) {
  SnapshotDiff diff;
  diff_kernels(*before.detail, *after.detail, match, diff);
  diff.functions_recorded = before.detail->functions.has_value() && after.detail->functions.has_value();
  if (diff.functions_recorded) diff_functions(*before.detail->functions, *after.detail->functions, match, diff);
  diff_instances(*before.detail, *after.detail, diff);
  for (const auto& [key, value] : after.detail->options) {
    const auto old = before.detail->options.find(key);
    const std::string old_value = old == before.detail->options.end() ? "(unset)" : old->second;
    if (old_value != value) diff.options.emplace_back(key, old_value, value);
  }
  if (before.block_dim != after.block_dim) diff.block_dim = BlockDimChange{before.block_dim, after.block_dim};
  return diff;
}

}  // namespace wcp
