#include "facts/kernel_usage.h"

#include <algorithm>
#include <map>
#include <set>

#include "facts/queries.h"

namespace wcp {
namespace {

struct Launched {
  std::set<std::pair<std::string, std::string>> forward;  // (module, kernel key)
  std::set<std::pair<std::string, std::string>> adjoint;
};

Launched launched_kernels(const Report& report) {
  Launched launched;
  for (const auto& process : report.processes) {
    const auto counts = launches_per_signature(process.launches);
    for (std::size_t i = 0; i < process.launches.signatures.size(); ++i) {
      if (i < counts.size() && counts[i] == 0) continue;
      const auto& signature = process.launches.signatures[i];
      (signature.adjoint ? launched.adjoint : launched.forward).insert({signature.module, signature.kernel});
    }
  }
  return launched;
}

// Bytes per kernel key in one module's generated source.
std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> bytes_by_key(const ModuleSource& source,
                                                                            const std::vector<std::string>& keys) {
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> bytes;
  for (const auto& kernel : source.kernels) {
    const auto key = kernel_key_of(kernel.name, keys);
    if (!key) continue;
    bytes[*key].first += kernel.forward_bytes;
    bytes[*key].second += kernel.backward_bytes;
  }
  return bytes;
}

// The share of one build's source that belongs to kernels never launched; nullopt without a
// per-kernel split of that build's source.
std::optional<double> unlaunched_share_of(const ModuleSource* source, const std::vector<std::string>& keys,
                                          const std::set<std::string>& unlaunched) {
  if (source == nullptr || source->kernels.empty() || source->source_bytes == 0) return std::nullopt;
  std::uint64_t bytes = 0;
  for (const auto& [key, sizes] : bytes_by_key(*source, keys)) {
    if (unlaunched.contains(key)) bytes += sizes.first + sizes.second;
  }
  return static_cast<double>(bytes) / static_cast<double>(source->source_bytes);
}

}  // namespace

std::size_t ModuleUse::launched() const {
  return static_cast<std::size_t>(
      std::count_if(kernels.begin(), kernels.end(), [](const KernelUse& k) { return k.launched; }));
}

std::size_t ModuleUse::never_launched() const {
  return static_cast<std::size_t>(
      std::count_if(kernels.begin(), kernels.end(), [](const KernelUse& k) { return !k.ran(); }));
}

std::size_t ModuleUse::launched_adjoint() const {
  return static_cast<std::size_t>(
      std::count_if(kernels.begin(), kernels.end(), [](const KernelUse& k) { return k.launched_adjoint; }));
}

std::optional<std::string> kernel_key_of(const std::string& mangled, const std::vector<std::string>& keys) {
  const std::string* best = nullptr;
  for (const auto& key : keys) {
    if (!mangled.starts_with(key)) continue;
    if (mangled.size() != key.size() && mangled[key.size()] != '_') continue;
    if (best == nullptr || key.size() > best->size()) best = &key;
  }
  if (best == nullptr) return std::nullopt;
  return *best;
}

std::vector<ModuleUse> kernel_usage(const Report& report) {
  std::vector<ModuleUse> modules;
  if (!has_launch_record(report)) return modules;
  const Launched launched = launched_kernels(report);
  std::map<std::pair<std::string, std::string>, std::vector<const ModuleEvent*>> builds;  // (name, device)
  std::vector<std::pair<std::string, std::string>> order;
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    const std::pair key{event->name, event->device};
    if (!builds.contains(key)) order.push_back(key);
    builds[key].push_back(event);
  }
  for (const auto& key : order) {
    const auto& events = builds[key];
    const ModuleEvent* last = nullptr;
    for (const ModuleEvent* event : events) {
      if (event->detail && !event->detail->kernels.empty()) last = event;
    }
    if (last == nullptr) continue;  // no snapshot: the kernels it was built with are unknown
    ModuleUse module;
    module.name = key.first;
    module.device = key.second;
    std::vector<std::string> keys;
    std::map<std::string, std::size_t> index;
    for (const auto& kernel : last->detail->kernels) {
      if (index.contains(kernel.key)) continue;  // one key, several objects: counted once
      index[kernel.key] = module.kernels.size();
      keys.push_back(kernel.key);
      KernelUse use;
      use.key = kernel.key;
      use.file = kernel.file;
      use.line = kernel.line;
      use.qualname = kernel.qualname;
      use.python_module = kernel.python_module;
      use.launched = launched.forward.contains({module.name, kernel.key});
      use.launched_adjoint = launched.adjoint.contains({module.name, kernel.key});
      use.backward_generated = kernel.adjoint.value_or(false);
      module.kernels.push_back(std::move(use));
    }
    const ModuleSource* last_source = source_of(report, last->name, last->hash);
    if (last_source != nullptr && !last_source->kernels.empty()) {
      module.source_bytes = last_source->source_bytes;
      for (const auto& [kernel_key, sizes] : bytes_by_key(*last_source, keys)) {
        auto& use = module.kernels[index[kernel_key]];
        use.forward_bytes = sizes.first;
        use.backward_bytes = sizes.second;
        if (sizes.second > 0) use.backward_generated = true;
      }
      for (auto& use : module.kernels) {  // in the split but with no definitions of its own
        if (!use.forward_bytes) use.forward_bytes = 0, use.backward_bytes = 0;
      }
    }
    std::set<std::string> unlaunched;
    for (const auto& use : module.kernels) {
      if (!use.launched && !use.launched_adjoint) unlaunched.insert(use.key);
    }
    double ms = 0.0;
    bool any_share = false;
    for (const ModuleEvent* event : events) {
      module.builds += 1;
      module.build_ms += event->ms;
      module.built_pch = module.built_pch || event->built_pch;
      const auto share = unlaunched_share_of(source_of(report, event->name, event->hash), keys, unlaunched);
      if (!share) continue;
      if (event == last) module.unlaunched_share = share;
      if (event->built_pch) continue;
      ms += event->ms * *share;
      any_share = true;
    }
    if (any_share) module.unlaunched_ms = ms;
    if (module.launched() == 0 && module.launched_adjoint() == 0 && !module.built_pch) {
      module.unlaunched_ms = module.build_ms;  // loaded, yet nothing of it ran: the whole build
    }
    modules.push_back(std::move(module));
  }
  return modules;
}

}  // namespace wcp
