#include "verdict/option_comparison.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "facts/queries.h"

namespace wcp::verdict {
namespace {

using PairKey = std::tuple<std::string, std::string, int>;  // label, device, order among same-kernel unique modules

struct SideModule {
  std::string name;
  std::vector<std::string> hashes;
  const LoadDetail* last = nullptr;  // the snapshot of its last build: what the run ended up with
};

// One run's cold builds, keyed for pairing.
struct SideModules {
  std::map<PairKey, SideModule> modules;
  std::map<std::pair<std::string, std::string>, PairKey> key_of;  // (name, device) -> pairing key

  explicit SideModules(const Report& report) {
    std::map<std::pair<std::string, std::string>, int> unique_seen;  // (kernel, device) -> modules so far
    for (const auto& event : report.module_events) {
      if (event.pass != Pass::cold || event.status == LoadStatus::error) continue;
      const std::pair<std::string, std::string> id{event.name, event.device};
      auto found = key_of.find(id);
      if (found == key_of.end()) {
        PairKey key{event.name, event.device, 0};
        if (const auto kernel = unique_module_kernel(event.name)) {
          const int order = unique_seen[{*kernel, event.device}]++;
          key = {fmt::format("{} (unique #{})", *kernel, order + 1), event.device, order};
        }
        found = key_of.emplace(id, key).first;
      }
      auto& module = modules[found->second];
      module.name = event.name;
      if (std::find(module.hashes.begin(), module.hashes.end(), event.hash) == module.hashes.end())
        module.hashes.push_back(event.hash);
      if (event.detail) module.last = &*event.detail;
    }
  }

  std::optional<PairKey> key(const std::string& name, const std::string& device) const {
    const auto found = key_of.find({name, device});
    if (found == key_of.end()) return std::nullopt;
    return found->second;
  }
  // Every device the module was built on.
  std::vector<PairKey> keys(const std::string& name) const {
    std::vector<PairKey> found;
    for (const auto& [id, key] : key_of) {
      if (id.first == name) found.push_back(key);
    }
    return found;
  }
};

PairedModule paired(const PairKey& key, const SideModules& baseline, const SideModules& candidate) {
  PairedModule module;
  module.label = std::get<0>(key);
  module.device = std::get<1>(key);
  if (const auto found = baseline.modules.find(key); found != baseline.modules.end()) {
    module.baseline_name = found->second.name;
    module.baseline_hashes = found->second.hashes;
  }
  if (const auto found = candidate.modules.find(key); found != candidate.modules.end()) {
    module.candidate_name = found->second.name;
    module.candidate_hashes = found->second.hashes;
  }
  return module;
}

std::optional<std::string> value_on(const SideModules& side, const PairKey& key, const std::string& option) {
  const auto found = side.modules.find(key);
  if (found == side.modules.end() || found->second.last == nullptr) return std::nullopt;
  return effective_option(*found->second.last, option).value_or("(unset)");
}

bool any_snapshot(const Report& report) {
  return std::any_of(report.module_events.begin(), report.module_events.end(),
                     [](const ModuleEvent& event) { return event.pass == Pass::cold && event.detail; });
}

// A write as both runs can name it: what it sets (a global, a module's option, a kernel's), on
// what, to which value. The spelling does not count (`set_module_options` and
// `get_module(...).options.update` set the same module option), nor the line it was made on;
// module="unique" targets are named by their kernel, never by the hash in their name.
enum class WriteScope { config, module, kernel };
using WriteKey = std::tuple<WriteScope, std::string, std::string, std::string, std::string>;

WriteKey write_key(const OptionWrite& write) {
  std::string target = write.target;
  if (const auto kernel = unique_module_kernel(target)) target = *kernel + " (unique)";
  const WriteScope scope = write.api == OptionApi::config                                    ? WriteScope::config
                           : write.api == OptionApi::kernel && write.scope == OptionScope::kernel ? WriteScope::kernel
                                                                                                  : WriteScope::module;
  return {scope, target, write.key, write.value, scope == WriteScope::kernel ? write.kernel : std::string()};
}

bool compared(const OptionReceipt& receipt) {
  return !receipt.write.by_warp && receipt.outcome != ReceiptOutcome::not_a_module_option;
}

// The modules a write reached or was meant for, named on its own side.
std::vector<std::string> modules_of(const OptionReceipt& receipt) {
  std::vector<std::string> names;
  const auto add = [&names](const std::string& name) {
    if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  for (const auto& build : receipt.reached) add(build.identity.name);
  for (const auto& miss : receipt.missed) {
    if (miss.dependency) continue;
    if (miss.build) add(miss.build->name);
    for (const auto& name : miss.elsewhere) add(name);
  }
  return names;
}

}  // namespace

std::string_view to_string(Side side) { return side == Side::baseline ? "baseline" : "candidate"; }

OptionComparison compare_options(const Report& baseline, const Report& candidate) {
  OptionComparison comparison;
  comparison.baseline_snapshots = any_snapshot(baseline);
  comparison.candidate_snapshots = any_snapshot(candidate);
  comparison.baseline_writes = baseline.option_record.has_value();
  comparison.candidate_writes = candidate.option_record.has_value();
  const SideModules base(baseline), cand(candidate);

  std::set<PairKey> keys;
  for (const auto& [key, module] : base.modules) keys.insert(key);
  for (const auto& [key, module] : cand.modules) keys.insert(key);
  for (const auto& key : keys) {
    const auto b = base.modules.find(key), c = cand.modules.find(key);
    if (b == base.modules.end() || c == cand.modules.end() || !b->second.last || !c->second.last) continue;
    std::set<std::string> options;
    for (const auto& [option, value] : b->second.last->options) options.insert(option);
    for (const auto& [option, value] : c->second.last->options) options.insert(option);
    for (const auto& option : options) {
      const auto before = effective_option(*b->second.last, option).value_or("(unset)");
      const auto after = effective_option(*c->second.last, option).value_or("(unset)");
      if (before != after) comparison.changes.push_back({paired(key, base, cand), option, before, after});
    }
  }

  if (!baseline.option_record || !candidate.option_record) return comparison;
  const auto baseline_receipts = option_receipts(baseline).value_or(std::vector<OptionReceipt>{});
  const auto candidate_receipts = option_receipts(candidate).value_or(std::vector<OptionReceipt>{});
  std::set<WriteKey> in_baseline, in_candidate;
  for (const auto& receipt : baseline_receipts) in_baseline.insert(write_key(receipt.write));
  for (const auto& receipt : candidate_receipts) in_candidate.insert(write_key(receipt.write));
  const auto one_side = [&](Side side, const std::vector<OptionReceipt>& receipts, const std::set<WriteKey>& other,
                            const SideModules& own) {
    for (const auto& receipt : receipts) {
      if (!compared(receipt) || other.contains(write_key(receipt.write))) continue;
      WrittenOption written;
      written.side = side;
      written.receipt = receipt;
      for (const auto& name : modules_of(receipt)) {
        for (const auto& key : own.keys(name)) {
          ModuleOption module;
          module.module = paired(key, base, cand);
          module.baseline_value = value_on(base, key, receipt.write.key);
          module.candidate_value = value_on(cand, key, receipt.write.key);
          written.modules.push_back(std::move(module));
        }
      }
      comparison.writes.push_back(std::move(written));
    }
  };
  one_side(Side::baseline, baseline_receipts, in_candidate, base);
  one_side(Side::candidate, candidate_receipts, in_baseline, cand);
  return comparison;
}

}  // namespace wcp::verdict
