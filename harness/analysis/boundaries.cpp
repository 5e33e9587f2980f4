#include "analysis/boundaries.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "analysis/diagnose_support.h"
#include "facts/ownership.h"
#include "facts/test_session.h"
#include "io/units.h"

namespace wcp::analysis {
namespace {

constexpr int kCudaDefaultBlockDim = 256;  // Warp's module default when neither launch nor module says

using Options = std::map<std::string, std::string>;
using Variant = std::pair<std::string, int>;  // (device, block_dim); block_dim 0 on the CPU

struct KernelFacts {
  std::string module;
  std::string key;
  std::string location;  // "file.py:12"
  bool launched = false;
  std::set<Variant> variants;  // where and how it launched
  Options options;             // its module's options at the last build, block_dim left out
  std::optional<std::uint64_t> bytes;
};

std::string canonical(const Options& options) {
  std::string text;
  for (const auto& [key, value] : options) text += key + "=" + value + ";";
  return text;
}

// The last cold build of a module (on any device) that carries a snapshot.
const LoadDetail* last_detail(const Report& report, const std::string& module) {
  const LoadDetail* detail = nullptr;
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    if (event->name == module && event->detail && !event->detail->kernels.empty()) detail = &*event->detail;
  }
  return detail;
}

int module_block_dim(const Options& options) {
  const auto found = options.find("block_dim");
  if (found == options.end()) return kCudaDefaultBlockDim;
  try {
    return std::stoi(found->second);
  } catch (const std::exception&) {
    return kCudaDefaultBlockDim;
  }
}

// (module, kernel) -> the device and block_dim variants it was launched at in this run.
std::map<std::pair<std::string, std::string>, std::set<Variant>> launched_variants(
    const Report& report, const std::map<std::string, Options>& module_options) {
  std::map<std::pair<std::string, std::string>, std::set<Variant>> variants;
  for (const auto& process : report.processes) {
    const auto counts = launches_per_signature(process.launches);
    for (std::size_t i = 0; i < process.launches.signatures.size(); ++i) {
      if (i < counts.size() && counts[i] == 0) continue;
      const auto& launch = process.launches.signatures[i];
      int block_dim = 0;
      if (launch.device.starts_with("cuda")) {
        const auto options = module_options.find(launch.module);
        block_dim = launch.block_dim != 0
                        ? launch.block_dim
                        : (options != module_options.end() ? module_block_dim(options->second) : kCudaDefaultBlockDim);
      }
      variants[{launch.module, launch.kernel}].insert({launch.device, block_dim});
    }
  }
  return variants;
}

// The option set most of the kernels have: groups are described by how they differ from it.
Options usual_options(const std::vector<KernelFacts>& kernels) {
  std::map<std::string, std::pair<int, const Options*>> counts;
  for (const auto& kernel : kernels) {
    auto& entry = counts[canonical(kernel.options)];
    ++entry.first;
    entry.second = &kernel.options;
  }
  const auto most = std::max_element(counts.begin(), counts.end(),
                                     [](const auto& a, const auto& b) { return a.second.first < b.second.first; });
  return most == counts.end() ? Options{} : *most->second.second;
}

std::string difference(const Options& options, const Options& usual) {
  std::string text;
  for (const auto& [key, value] : options) {
    const auto found = usual.find(key);
    if (found != usual.end() && found->second == value) continue;
    if (!text.empty()) text += ", ";
    text += key + "=" + value;
  }
  return text;
}

struct CostModel {
  double fixed_ms = 0.0;
  double ms_per_byte = 0.0;
  double shared_bytes = 0.0;  // what a module's source holds besides its kernels, on average
  double of(double kernel_bytes) const { return fixed_ms + ms_per_byte * (kernel_bytes + shared_bytes); }
};

// Fits ms = fixed + rate × source bytes on this run's builds of the user's modules, with the
// fixed part from the calibration (or this run's smallest module, an upper bound).
std::optional<CostModel> fit_cost(const Report& report, const std::set<std::string>& modules,
                                  const std::optional<FixedCost>& fixed, std::string& basis) {
  if (!fixed) return std::nullopt;
  double excess = 0.0, bytes = 0.0, shared = 0.0;
  int fitted = 0;
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    if (!modules.contains(event->name) || event->built_pch) continue;
    const ModuleSource* source = source_of(report, event->name, event->hash);
    if (source == nullptr || source->source_bytes == 0) continue;
    excess += event->ms - fixed->ms;
    bytes += static_cast<double>(source->source_bytes);
    shared += static_cast<double>(source->shared_bytes);
    ++fitted;
  }
  if (fitted == 0 || bytes <= 0.0) return std::nullopt;
  CostModel model{fixed->ms, std::max(0.0, excess) / bytes, shared / fitted};
  basis = fmt::format(
      "estimate: each module costs a fixed {} ({}) plus {:.2f} ms per KiB of generated source, fitted on {} build(s) "
      "of your modules in this run; verify by applying the grouping and running `compare` (the workload must stay "
      "the same)",
      milliseconds_text(fixed->ms), fixed->basis, model.ms_per_byte * 1024.0, fitted);
  return model;
}

std::string group_key(const KernelFacts& kernel) {
  if (!kernel.launched) return "never|" + canonical(kernel.options);
  std::set<std::string> devices;
  std::set<int> cuda_dims;
  for (const auto& [device, block_dim] : kernel.variants) {
    devices.insert(device);
    if (device.starts_with("cuda")) cuda_dims.insert(block_dim);
  }
  std::string key = "launched|" + canonical(kernel.options) + "|";
  for (const auto& device : devices) key += device + ",";
  if (cuda_dims.size() > 1) return key + "|varies|" + kernel.module + "." + kernel.key;  // alone
  if (cuda_dims.size() == 1) key += "|" + std::to_string(*cuda_dims.begin());
  return key;
}

}  // namespace

std::optional<double> BoundaryProposal::ms_removed() const {
  if (!proposed_ms) return std::nullopt;
  return current_ms - *proposed_ms;
}

namespace {

// The modules the proposal may regroup (the user's own, defined by the code this run shows
// whole), with their options; the others are listed as unmovable, with why.
std::set<std::string> movable_modules(const Report& report, const std::vector<ModuleUse>& usage,
                                      BoundaryProposal& proposal, std::map<std::string, Options>& module_options) {
  const CodeOwnership ownership(report);
  const TestSession session(report);
  std::set<std::string> movable;
  for (const auto& module : usage) {
    const ModuleOwnership owner = ownership.of_module(module.name);
    if (!owner.users_to_change()) {
      proposal.unmovable.push_back({module.name, owner.describe(), "not yours to regroup"});
      continue;
    }
    // Code a test run only calls (not the test files): one part of the suite does not show how
    // the rest of its users group their launches (issue 40's rule, issue 50's checkout runs).
    const bool tests_define_it = std::all_of(module.kernels.begin(), module.kernels.end(), [&](const KernelUse& k) {
      return session.defines(k.file, k.python_module);
    });
    if (session.present() && !tests_define_it) {
      proposal.unmovable.push_back(
          {module.name, owner.describe(),
           "called by the tests of this run, one part of its users: measure the whole suite before regrouping it"});
      continue;
    }
    if (owner.generated) {
      proposal.unmovable.push_back(
          {module.name, owner.describe(),
           "kernels made at run time: keep them in a module of their own so they cannot rebuild the others"});
      continue;
    }
    if (movable.insert(module.name).second) proposal.current_modules.push_back(module.name);
    if (const LoadDetail* detail = last_detail(report, module.name)) module_options[module.name] = detail->options;
  }
  return movable;
}

// One entry per (module, kernel key) of the movable modules, merged over the devices the module
// was built for.
std::vector<KernelFacts> kernel_facts(const Report& report, const std::vector<ModuleUse>& usage,
                                      const std::set<std::string>& movable,
                                      std::map<std::string, Options>& module_options, BoundaryProposal& proposal) {
  const auto variants = launched_variants(report, module_options);
  std::vector<KernelFacts> kernels;
  std::map<std::pair<std::string, std::string>, std::size_t> index;
  for (const auto& module : usage) {
    if (!movable.contains(module.name)) continue;
    proposal.current_builds += module.builds;
    for (const auto& kernel : module.kernels) {
      const std::pair id{module.name, kernel.key};
      auto [found, added] = index.try_emplace(id, kernels.size());
      if (added) {
        KernelFacts facts;
        facts.module = module.name;
        facts.key = kernel.key;
        facts.location = fmt::format("{}:{}", std::filesystem::path(kernel.file).filename().string(), kernel.line);
        facts.options = module_options[module.name];
        facts.options.erase("block_dim");
        if (const auto launched = variants.find(id); launched != variants.end()) facts.variants = launched->second;
        kernels.push_back(std::move(facts));
      }
      KernelFacts& facts = kernels[found->second];
      facts.launched = facts.launched || kernel.launched || kernel.launched_adjoint;
      if (kernel.forward_bytes) facts.bytes = std::max(facts.bytes.value_or(0), kernel.bytes());
    }
  }
  return kernels;
}

// One proposed module from a group of kernels; `sized` is false when a kernel has no size.
ProposedModule proposed_module(const std::vector<const KernelFacts*>& members, const Options& usual, std::string name,
                               double& bytes, bool& sized) {
  ProposedModule group;
  group.name = std::move(name);
  group.launched = members.front()->launched;
  group.distinct_options = difference(members.front()->options, usual);
  std::set<Variant> variants_of_group;
  std::set<std::string> from;
  bytes = 0.0;
  sized = true;
  for (const KernelFacts* kernel : members) {
    group.kernels.push_back(fmt::format("{} ({})", kernel->key, kernel->location));
    from.insert(kernel->module);
    variants_of_group.insert(kernel->variants.begin(), kernel->variants.end());
    if (kernel->bytes)
      bytes += static_cast<double>(*kernel->bytes);
    else
      sized = false;
  }
  group.from_modules.assign(from.begin(), from.end());
  std::set<std::string> devices;
  std::set<int> cuda_dims;
  for (const auto& [device, block_dim] : variants_of_group) {
    devices.insert(device);
    if (device.starts_with("cuda")) cuda_dims.insert(block_dim);
  }
  group.devices.assign(devices.begin(), devices.end());
  if (cuda_dims.size() == 1) group.block_dim = *cuda_dims.begin();
  group.varying_block_dim = cuda_dims.size() > 1;
  group.builds = group.launched ? static_cast<int>(variants_of_group.size()) : 0;
  return group;
}

// What the current builds cost; a build that also made the precompiled header is counted at
// the model's estimate, since the header is paid by some first build either way.
void current_cost(const Report& report, const std::set<std::string>& movable, const std::optional<CostModel>& model,
                  BoundaryProposal& proposal) {
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    if (!movable.contains(event->name)) continue;
    const ModuleSource* source = source_of(report, event->name, event->hash);
    if (event->built_pch && model && source != nullptr) {
      proposal.current_ms += model->fixed_ms + model->ms_per_byte * static_cast<double>(source->source_bytes);
    } else {
      proposal.current_ms += event->ms;
      if (event->built_pch) {
        proposal.notes.push_back(fmt::format("{} also built the precompiled header: its {} is counted whole",
                                             event->name, milliseconds_text(event->ms)));
      }
    }
  }
}

// Whether the groups partition the kernels differently from their modules today.
bool partition_moves(const std::vector<KernelFacts>& kernels,
                     const std::map<std::string, std::vector<const KernelFacts*>>& groups) {
  std::set<std::set<std::string>> now, proposed;
  std::map<std::string, std::set<std::string>> by_module;
  for (const auto& kernel : kernels) by_module[kernel.module].insert(kernel.module + "." + kernel.key);
  for (auto& [module, members] : by_module) now.insert(members);
  for (const auto& [key, members] : groups) {
    std::set<std::string> ids;
    for (const KernelFacts* kernel : members) ids.insert(kernel->module + "." + kernel->key);
    proposed.insert(ids);
  }
  return now != proposed;
}

}  // namespace

BoundaryProposal propose_boundaries(const Report& report, const std::vector<ModuleUse>& usage,
                                    const std::optional<FixedCostReference>& fixed_cost) {
  BoundaryProposal proposal;
  std::map<std::string, Options> module_options;
  const std::set<std::string> movable = movable_modules(report, usage, proposal, module_options);
  const std::vector<KernelFacts> kernels = kernel_facts(report, usage, movable, module_options, proposal);
  if (kernels.empty()) return proposal;

  // Group, launched groups first (largest first), then the never-launched.
  std::map<std::string, std::vector<const KernelFacts*>> groups;
  for (const auto& kernel : kernels) groups[group_key(kernel)].push_back(&kernel);
  std::vector<std::vector<const KernelFacts*>> ordered;
  for (const auto& [key, members] : groups) ordered.push_back(members);
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
    if (a.front()->launched != b.front()->launched) return a.front()->launched;
    return a.size() > b.size();
  });

  std::string basis;
  const auto model = fit_cost(report, movable, fixed_module_cost(report, fixed_cost), basis);
  const Options usual = usual_options(kernels);
  bool all_sized = true;
  double proposed_ms = 0.0;
  char label = 'A';
  for (const auto& members : ordered) {
    double bytes = 0.0;
    bool sized = true;
    ProposedModule group = proposed_module(
        members, usual, label <= 'Z' ? std::string(1, label++) : std::to_string(proposal.modules.size() + 1), bytes,
        sized);
    if (model && sized) {
      group.estimated_ms = group.builds * model->of(bytes);
      proposed_ms += *group.estimated_ms;
    } else if (group.builds > 0) {
      all_sized = false;
    }
    proposal.proposed_builds += group.builds;
    proposal.modules.push_back(std::move(group));
  }
  current_cost(report, movable, model, proposal);
  if (model && all_sized) {
    proposal.proposed_ms = proposed_ms;
    proposal.basis = basis;
  } else {
    proposal.basis = model ? "no estimate in ms: some kernels have no per-kernel split of their generated source"
                           : "no estimate in ms: no fixed per-module cost (calibrate) or no generated source to fit on";
  }
  proposal.changes = partition_moves(kernels, groups) || proposal.builds_removed() > 0;
  proposal.notes.push_back(
      "Assumes every kernel of a group is defined before the group's first launch (import its Python module at "
      "start-up); kernels added later rebuild it (CS-1).");
  return proposal;
}

}  // namespace wcp::analysis
