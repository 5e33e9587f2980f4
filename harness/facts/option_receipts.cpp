#include "facts/option_receipts.h"

#include <algorithm>
#include <map>

#include "facts/queries.h"
#include "io/name_table.h"

namespace wcp {
namespace {

// The cold run's loads with a snapshot, in the order they started (failed loads built nothing).
std::vector<const ModuleEvent*> snapshot_loads(const Report& report) {
  std::vector<const ModuleEvent*> loads;
  for (const auto& event : report.module_events) {
    if (event.pass == Pass::cold && event.status != LoadStatus::error && event.detail) loads.push_back(&event);
  }
  std::stable_sort(loads.begin(), loads.end(),
                   [](const ModuleEvent* a, const ModuleEvent* b) { return a->detail->start_s < b->detail->start_s; });
  return loads;
}

// Whether a process holds what `writer` wrote at `t`: the writer itself, or a descendant whose
// branch left the writer after the write (a fork inherits the parent's modules and config;
// a spawned child re-runs the program's imports and makes its own writes, recorded on its own).
bool inherits(const Report& report, int writer, double t, int loader) {
  if (writer == loader) return true;
  int current = loader;
  for (int depth = 0; depth < 64; ++depth) {
    const ProcessRecord* process = process_of(report, current);
    if (process == nullptr) return false;
    if (process->ppid == writer) return process->started_s && *process->started_s > t;
    current = process->ppid;
  }
  return false;
}

bool sees(const Report& report, const OptionWrite& write, const ModuleEvent& load) {
  return inherits(report, write.pid, write.t_s, load.detail->pid);
}

bool after(const OptionWrite& write, const ModuleEvent& load) {
  return load.detail->start_s > write.t_s;
}

std::optional<std::string> option_of(const LoadDetail& detail, const std::string& key) {
  const auto found = detail.options.find(key);
  if (found == detail.options.end()) return std::nullopt;
  return found->second;
}

// Every kernel of the module ships in an installed distribution (Warp's own, a library).
bool dependency_module(const ModuleEvent& load) {
  const auto& kernels = load.detail->kernels;
  return !kernels.empty() && std::all_of(kernels.begin(), kernels.end(),
                                         [](const KernelInfo& kernel) { return kernel.package.has_value(); });
}

bool module_scoped(const OptionWrite& write) {
  return write.api == OptionApi::set_module_options || write.api == OptionApi::module_options ||
         (write.api == OptionApi::kernel && write.scope != OptionScope::kernel);
}

MissedModule never_built(const std::string& module) {
  MissedModule miss;
  miss.module = module;
  miss.reason = MissReason::target_never_loaded;
  return miss;
}

bool kernel_scoped(const OptionWrite& write) {
  return write.api == OptionApi::kernel && write.scope == OptionScope::kernel;
}

// Options only a CUDA build reads: Warp's Device.get_cuda_output_format returns None for the
// CPU before it looks at cuda_output, so a CPU build neither carries nor misses it.
bool read_by_cuda_builds_only(const std::string& key) {
  return key == "cuda_output";
}

class ReceiptBuilder {
 public:
  explicit ReceiptBuilder(const Report& report)
      : report_(report),
        record_(*report.option_record),
        loads_(snapshot_loads(report)),
        copied_(copied_config_options(record_)) {}

  OptionReceipt receipt_for(const OptionWrite& write) const {
    OptionReceipt receipt;
    receipt.write = write;
    if (write.api == OptionApi::config) {
      config_receipt(receipt);
    } else if (kernel_scoped(write)) {
      kernel_receipt(receipt);
    } else {
      module_receipt(receipt);
    }
    return receipt;
  }

  // The warp.config value a load read for `key` when its module leaves the option to the global
  // (None) and the load's config snapshot does not hold that key: Warp resolves it while it
  // builds (cuda_output: Device.get_cuda_output_format reads warp.config.cuda_output), so the
  // value is the last warp.config write of it that the load's process held before the load.
  std::optional<std::string> global_written_before_load(const std::string& key, const ModuleEvent& load) const {
    const OptionWrite* last = nullptr;
    for (const auto& other : record_.writes) {
      if (other.api != OptionApi::config || other.key != key || !after(other, load) || !sees(report_, other, load))
        continue;
      if (last == nullptr || other.t_s >= last->t_s) last = &other;
    }
    if (last == nullptr) return std::nullopt;
    return last->value;
  }

  // The value a load built with for a warp.config key (see effective_option), completed from
  // the recorded writes where the snapshot left the global out.
  std::optional<std::string> held_at_load(const std::string& key, const ModuleEvent& load) const {
    if (copied_.contains(key)) return option_of(*load.detail, key);
    auto held = effective_option(*load.detail, key);
    if (held == "None" && !load.detail->config_at_load.contains(key)) {
      if (auto global = global_written_before_load(key, load)) held = std::move(global);
    }
    return held;
  }

 private:
  ReachedBuild reached_build(const ModuleEvent& load, const OptionWrite& write) const {
    // A rebuild: the same module was built earlier (before the write) with another hash.
    bool rebuild = false;
    for (const ModuleEvent* other : loads_) {
      if (other == &load || other->name != load.name || other->device != load.device) continue;
      if (other->detail->start_s < write.t_s && other->hash != load.hash && sees(report_, write, *other))
        rebuild = true;
    }
    return {identity_of(load), rebuild};
  }

  // A write of the same key to `target` between `write` and `load` that `load` saw and that
  // left the value the load holds: the write that decided instead.
  std::optional<OptionWrite> later_write(const OptionWrite& write, const std::string& target, const ModuleEvent& load,
                                         const std::string& value) const {
    std::optional<OptionWrite> found;
    for (const auto& other : record_.writes) {
      if (other.t_s <= write.t_s || !after(other, load) || other.key != write.key || other.target != target) continue;
      if (sees(report_, other, load) && other.value == value) found = other;  // the last one decided
    }
    return found;
  }

  // A module-level write that gave the loaded module its own value for `key` before the load.
  std::optional<OptionWrite> own_value_write(const ModuleEvent& load, const std::string& key,
                                             const std::string& value) const {
    std::optional<OptionWrite> found;
    for (const auto& other : record_.writes) {
      if (!module_scoped(other) || other.target != load.name || other.key != key || !after(other, load)) continue;
      if (sees(report_, other, load) && other.value == value) found = other;
    }
    return found;
  }

  const ModuleCreation* creation_of(const std::string& module, int pid) const {
    const ModuleCreation* found = nullptr;
    for (const auto& created : record_.modules_created) {
      if (created.name == module && inherits(report_, created.pid, created.t_s, pid)) found = &created;
    }
    return found;
  }

  void module_receipt(OptionReceipt& receipt) const {
    const OptionWrite& write = receipt.write;
    std::vector<const ModuleEvent*> later, earlier;
    for (const ModuleEvent* load : loads_) {
      if (load->name != write.target || !sees(report_, write, *load)) continue;
      (after(write, *load) ? later : earlier).push_back(load);
    }
    for (const ModuleEvent* load : later) {
      if (option_of(*load->detail, write.key) == write.value) receipt.reached.push_back(reached_build(*load, write));
    }
    if (!receipt.reached.empty()) {
      receipt.outcome = ReceiptOutcome::reached;
      return;
    }
    if (!later.empty()) {
      const ModuleEvent& first = *later.front();
      MissedModule miss;
      miss.module = first.name;
      miss.build = identity_of(first);
      miss.held = option_of(*first.detail, write.key).value_or("(unset)");
      miss.by = later_write(write, write.target, first, miss.held);
      miss.reason = miss.by ? MissReason::overridden : MissReason::value_differs;
      receipt.missed.push_back(std::move(miss));
      receipt.outcome = ReceiptOutcome::reached_nothing;
      return;
    }
    if (!earlier.empty()) {
      const ModuleEvent& last = *earlier.back();
      MissedModule miss;
      miss.module = last.name;
      miss.build = identity_of(last);
      miss.reason = MissReason::set_after_last_load;
      miss.held = option_of(*last.detail, write.key).value_or("(unset)");
      receipt.outcome = miss.held == write.value ? ReceiptOutcome::no_change : ReceiptOutcome::reached_nothing;
      receipt.missed.push_back(std::move(miss));
      return;
    }
    // The target never built. Were the kernels of the Python module of that name built under
    // another module's name? That is the trap: the option went to a module nothing builds.
    std::map<bool, MissedModule> elsewhere;  // by "unique"
    for (const ModuleEvent* load : loads_) {
      if (load->name == write.target || !sees(report_, write, *load)) continue;
      for (const auto& kernel : load->detail->kernels) {
        if (kernel.python_module != write.target) continue;
        const bool unique = unique_module_kernel(load->name).has_value();
        auto& miss = elsewhere[unique];
        miss.module = write.target;
        miss.reason = unique ? MissReason::kernels_in_unique_modules : MissReason::kernels_in_named_modules;
        if (std::find(miss.elsewhere.begin(), miss.elsewhere.end(), load->name) == miss.elsewhere.end())
          miss.elsewhere.push_back(load->name);
        if (std::find(miss.kernels.begin(), miss.kernels.end(), kernel.key) == miss.kernels.end())
          miss.kernels.push_back(kernel.key);
      }
    }
    if (elsewhere.empty()) {
      receipt.missed.push_back(never_built(write.target));
      receipt.outcome = ReceiptOutcome::target_not_built;
      return;
    }
    // Kernels of that Python module built elsewhere say nothing against the option while the
    // target itself holds kernels that take it whenever it loads: this run did not launch them.
    if (const RegisteredModule* registered = registered_module(write); registered != nullptr) {
      MissedModule miss = never_built(write.target);
      miss.kernels = registered->kernels;
      miss.registered_kernels = registered->kernel_count;
      for (const auto& [unique, other] : elsewhere) {
        miss.elsewhere.insert(miss.elsewhere.end(), other.elsewhere.begin(), other.elsewhere.end());
      }
      receipt.missed.push_back(std::move(miss));
      receipt.outcome = ReceiptOutcome::target_not_built;
      return;
    }
    for (auto& [unique, miss] : elsewhere) receipt.missed.push_back(std::move(miss));
    receipt.outcome = ReceiptOutcome::reached_nothing;
  }

  // The target of a module-scoped write as a process that holds the write left it, when it
  // holds kernels of its own; nullptr when it holds none or the report has no registry.
  const RegisteredModule* registered_module(const OptionWrite& write) const {
    if (!record_.modules_registered) return nullptr;
    for (const auto& module : *record_.modules_registered) {
      if (module.name == write.target && module.kernel_count > 0 && inherits(report_, write.pid, write.t_s, module.pid))
        return &module;
    }
    return nullptr;
  }

  // A per-kernel option (`@wp.kernel(enable_backward=False)`): it reaches the builds of its
  // module that hold the kernel. Only enable_backward is visible in the snapshot (as adjoint).
  void kernel_receipt(OptionReceipt& receipt) const {
    const OptionWrite& write = receipt.write;
    const ModuleEvent* built_otherwise = nullptr;
    for (const ModuleEvent* load : loads_) {
      if (load->name != write.target || !after(write, *load) || !sees(report_, write, *load)) continue;
      for (const auto& kernel : load->detail->kernels) {
        if (kernel.key != write.kernel) continue;
        const bool differs =
            write.key == "enable_backward" && kernel.adjoint && (*kernel.adjoint ? "True" : "False") != write.value;
        if (differs) {
          built_otherwise = built_otherwise ? built_otherwise : load;
        } else {
          receipt.reached.push_back(reached_build(*load, write));
        }
        break;
      }
    }
    if (!receipt.reached.empty()) {
      receipt.outcome = ReceiptOutcome::reached;
    } else if (built_otherwise != nullptr) {
      MissedModule miss;
      miss.module = built_otherwise->name;
      miss.build = identity_of(*built_otherwise);
      miss.reason = MissReason::value_differs;
      miss.held = write.value == "True" ? "False" : "True";
      receipt.missed.push_back(std::move(miss));
      receipt.outcome = ReceiptOutcome::reached_nothing;
    } else {
      receipt.missed.push_back(never_built(write.target));
      receipt.outcome = ReceiptOutcome::target_not_built;
    }
  }

  bool is_module_option(const std::string& key) const {
    if (copied_.contains(key)) return true;
    for (const auto& created : record_.modules_created) {
      if (created.options.contains(key)) return true;
    }
    return std::any_of(loads_.begin(), loads_.end(),
                       [&](const ModuleEvent* load) { return load->detail->options.contains(key); });
  }

  // Why a build after a warp.config write holds another value.
  MissedModule config_miss(const OptionWrite& write, const ModuleEvent& load, const std::string& held) const {
    MissedModule miss;
    miss.module = load.name;
    miss.build = identity_of(load);
    miss.held = held;
    miss.dependency = dependency_module(load);
    if ((miss.by = later_write(write, std::string(kConfigTarget), load, held))) {
      miss.reason = MissReason::overridden;
      return miss;
    }
    const auto own = option_of(*load.detail, write.key);
    if ((miss.by = own_value_write(load, write.key, held))) {
      miss.reason = MissReason::module_holds_own_value;
      return miss;
    }
    if (copied_.contains(write.key)) {
      const ModuleCreation* created = creation_of(load.name, load.detail->pid);
      if (created != nullptr && created->t_s > write.t_s) {
        miss.reason = MissReason::value_differs;  // created after the write, yet holds another value
        return miss;
      }
      // Created before the write: named modules have a creation record; a module="unique"
      // module was created under a temporary name, and Warp's own during `import warp`.
      miss.reason = MissReason::set_after_module_created;
      if (created != nullptr) miss.created_at = created->site;
      return miss;
    }
    miss.reason = own && *own != "None" ? MissReason::module_holds_own_value : MissReason::value_differs;
    return miss;
  }

  void config_receipt(OptionReceipt& receipt) const {
    const OptionWrite& write = receipt.write;
    if (!is_module_option(write.key)) {
      receipt.outcome = ReceiptOutcome::not_a_module_option;
      return;
    }
    std::map<std::pair<std::string, std::string>, bool> missed_module;  // name, device: recorded once
    bool any_after = false;
    bool cpu_builds_only = false;  // builds followed, none of them one that reads this option
    for (const ModuleEvent* load : loads_) {
      if (!after(write, *load) || !sees(report_, write, *load)) continue;
      if (read_by_cuda_builds_only(write.key) && !load->device.starts_with("cuda")) {
        cpu_builds_only = true;
        continue;
      }
      any_after = true;
      const auto held = held_at_load(write.key, *load);
      if (!held) continue;  // this Warp does not snapshot it
      if (*held == write.value) {
        receipt.reached.push_back(reached_build(*load, write));
      } else if (!missed_module[{load->name, load->device}]) {
        missed_module[{load->name, load->device}] = true;
        receipt.missed.push_back(config_miss(write, *load, *held));
      }
    }
    if (!any_after && cpu_builds_only) {
      receipt.outcome = ReceiptOutcome::target_not_built;  // no CUDA build to reach: nothing against it
      return;
    }
    if (!any_after) {
      MissedModule miss;
      miss.reason = MissReason::no_build_after;
      receipt.missed.push_back(std::move(miss));
      // Set too late only if its process built modules before it; a process that built no module
      // at all (a test that launches nothing) gives the setting nothing to reach, and says
      // nothing against it.
      const bool built_before = std::any_of(loads_.begin(), loads_.end(),
                                            [&](const ModuleEvent* load) { return load->detail->pid == write.pid; });
      receipt.outcome = built_before ? ReceiptOutcome::reached_nothing : ReceiptOutcome::target_not_built;
      return;
    }
    // A dependency's module (Warp's own, created during `import warp`) missing the global is
    // context: the outcome speaks of the application's modules.
    const bool application_missed = std::any_of(receipt.missed.begin(), receipt.missed.end(),
                                                [](const MissedModule& miss) { return !miss.dependency; });
    if (!application_missed) {
      receipt.outcome = receipt.reached.empty() ? ReceiptOutcome::target_not_built : ReceiptOutcome::reached;
    } else {
      receipt.outcome = receipt.reached.empty() ? ReceiptOutcome::reached_nothing : ReceiptOutcome::partly_reached;
    }
  }

  const Report& report_;
  const OptionRecord& record_;
  std::vector<const ModuleEvent*> loads_;
  std::set<std::string> copied_;
};

// Identical writes (a factory calling set_module_options once per kernel, or making unique
// kernels with module_options) with the same receipt say one thing: fold them, keeping every
// build any of them reached.
bool same_write(const OptionWrite& a, const OptionWrite& b) {
  // module="unique" targets are named by their content hash: one factory line makes many.
  const auto target = [](const OptionWrite& write) {
    return unique_module_kernel(write.target).value_or(write.target);
  };
  return a.api == b.api && target(a) == target(b) && a.key == b.key && a.value == b.value && a.site == b.site &&
         a.kernel == b.kernel && a.scope == b.scope && a.by_warp == b.by_warp;
}

bool same_misses(const OptionReceipt& a, const OptionReceipt& b) {
  if (a.outcome != b.outcome || a.missed.size() != b.missed.size()) return false;
  for (std::size_t i = 0; i < a.missed.size(); ++i) {
    if (a.missed[i].module != b.missed[i].module || a.missed[i].reason != b.missed[i].reason) return false;
  }
  return true;
}

constexpr NameTable<ReceiptOutcome, 6> kOutcomeNames{{{ReceiptOutcome::reached, "reached"},
                                                      {ReceiptOutcome::partly_reached, "partly_reached"},
                                                      {ReceiptOutcome::reached_nothing, "reached_nothing"},
                                                      {ReceiptOutcome::target_not_built, "target_not_built"},
                                                      {ReceiptOutcome::no_change, "no_change"},
                                                      {ReceiptOutcome::not_a_module_option, "not_a_module_option"}}};
constexpr NameTable<MissReason, 9> kMissReasonNames{
    {{MissReason::target_never_loaded, "target_never_loaded"},
     {MissReason::kernels_in_unique_modules, "kernels_in_unique_modules"},
     {MissReason::kernels_in_named_modules, "kernels_in_named_modules"},
     {MissReason::set_after_last_load, "set_after_last_load"},
     {MissReason::set_after_module_created, "set_after_module_created"},
     {MissReason::module_holds_own_value, "module_holds_own_value"},
     {MissReason::overridden, "overridden"},
     {MissReason::no_build_after, "no_build_after"},
     {MissReason::value_differs, "value_differs"}}};

}  // namespace

std::string_view to_string(ReceiptOutcome outcome) {
  return name_of(kOutcomeNames, outcome);
}

std::string_view to_string(MissReason reason) {
  return name_of(kMissReasonNames, reason);
}

std::set<std::string> copied_config_options(const OptionRecord& record) {
  std::set<std::string> keys;
  for (const auto& created : record.modules_created) {
    for (const auto& [key, value] : created.config) keys.insert(key);
  }
  return keys;
}

std::optional<std::string> effective_option(const LoadDetail& detail, const std::string& key) {
  const auto own = option_of(detail, key);
  if (own && *own != "None") return own;
  if (const auto global = detail.config_at_load.find(key); global != detail.config_at_load.end()) return global->second;
  return own;
}

std::optional<std::string> option_at_build(const Report& report, const ModuleEvent& load, const std::string& key) {
  if (!load.detail) return std::nullopt;
  if (!report.option_record) return effective_option(*load.detail, key);
  return ReceiptBuilder(report).held_at_load(key, load);
}

std::optional<std::vector<OptionReceipt>> option_receipts(const Report& report) {
  if (!report.option_record) return std::nullopt;
  const ReceiptBuilder builder(report);
  std::vector<OptionReceipt> receipts;
  for (const auto& write : report.option_record->writes) {
    OptionReceipt receipt = builder.receipt_for(write);
    const auto folded = std::find_if(receipts.begin(), receipts.end(), [&](const OptionReceipt& earlier) {
      return same_write(earlier.write, receipt.write) && same_misses(earlier, receipt);
    });
    if (folded == receipts.end()) {
      receipts.push_back(std::move(receipt));
      continue;
    }
    ++folded->repeats;
    for (const auto& build : receipt.reached) {
      if (std::find(folded->reached.begin(), folded->reached.end(), build) == folded->reached.end())
        folded->reached.push_back(build);
    }
  }
  return receipts;
}

}  // namespace wcp
