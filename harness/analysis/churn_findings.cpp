// CS-1, CS-3, CS-6, closure churn and changed references: one module name, several hashes. The instrumentation
// snapshots each load (live kernels with their source lines, generic overloads, module
// options), so consecutive loads of one module can be diffed to say *what* changed between
// them and *which user line* asked for the rebuild. No Warp log says this.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "analysis/diagnose_support.h"
#include "facts/rebuilds.h"
#include "facts/snapshot_diff.h"
#include "io/units.h"
#include "model/test_attribution.h"

namespace wcp::analysis {
namespace {

using KernelSite = std::pair<std::string, int>;  // file, line of the kernel's definition

// What changed between two consecutive builds of one module.
struct Transition : SnapshotDiff {
  const ModuleEvent* before = nullptr;
  const ModuleEvent* after = nullptr;
};

// Warp's overload keys spell argument types ("a1f8": 1-d array of float64); make them readable.
std::string readable_overload(const std::string& key) {
  static const std::map<std::string, std::string> scalars{
      {"f2", "float16"}, {"f4", "float32"}, {"f8", "float64"}, {"i4", "int32"}, {"i8", "int64"},
      {"u4", "uint32"},  {"u8", "uint64"},  {"i1", "int8"},    {"u1", "uint8"}, {"b", "bool"}};
  if (key.size() == 4 && key[0] == 'a' && std::isdigit(static_cast<unsigned char>(key[1]))) {
    const auto found = scalars.find(key.substr(2));
    if (found != scalars.end()) return fmt::format("{} (array{}d of {})", key, key[1], found->second);
  }
  return key;
}

Transition diff(const ModuleEvent& before, const ModuleEvent& after) {
  return {diff_loads(before, after, KernelMatch::same_object), &before, &after};
}

std::string rebuild_line(const Transition& change, const CodeOwnership& ownership) {
  const std::string trigger =
      change.after->detail ? trigger_text(ownership.trigger_of(*change.after->detail)) : "no stack recorded";
  // The test it happened in (schema 11): a rebuild a suite pays for is a test's doing.
  const auto& test = change.after->detail ? change.after->detail->test : std::nullopt;
  const std::string by = test ? ", " + rebuilt_by_text(*test) : "";
  return fmt::format("rebuild {} -> {} {}{}, cost {}", change.before->hash, change.after->hash, trigger, by,
                     milliseconds_text(change.after->ms));
}

struct ModuleChurn {
  std::string name;
  std::string device;
  std::optional<int> block_dim;
  std::vector<Transition> transitions;
};

// Consecutive builds of each module at one device and one block_dim with a different hash. On
// CUDA block_dim is part of the module hash (Warp 1.19: Module.get_module_hash(block_dim)), so
// builds at another block_dim are CS-5's (block_dim_findings.cpp), never churn.
std::vector<ModuleChurn> churned_modules(const Report& report, bool& missing_detail) {
  std::map<std::tuple<std::string, std::string, std::optional<int>>, std::vector<const ModuleEvent*>> builds;
  for (const ModuleEvent* event : cold_compiled_events(report))
    builds[{event->name, event->device, event->block_dim}].push_back(event);
  std::vector<ModuleChurn> churned;
  for (const auto& [key, events] : builds) {
    ModuleChurn module{std::get<0>(key), std::get<1>(key), std::get<2>(key), {}};
    for (std::size_t i = 1; i < events.size(); ++i) {
      if (events[i]->hash == events[i - 1]->hash) continue;  // block_dim spread or cache bypass, not churn
      if (!events[i]->detail || !events[i - 1]->detail) {
        missing_detail = true;
        continue;
      }
      module.transitions.push_back(diff(*events[i - 1], *events[i]));
    }
    if (!module.transitions.empty()) churned.push_back(std::move(module));
  }
  return churned;
}

// Source lines that produced a kernel more than once in this module: a closure or factory.
std::set<KernelSite> factory_sites(const ModuleChurn& module) {
  std::map<KernelSite, int> added_per_site;
  std::set<KernelSite> sites;
  for (const auto& change : module.transitions) {
    for (const auto& kernel : change.added) ++added_per_site[{kernel.file, kernel.line}];
    std::map<KernelSite, int> live;
    for (const auto& kernel : change.after->detail->kernels) ++live[{kernel.file, kernel.line}];
    for (const auto& [site, count] : live) {
      if (count > 1) sites.insert(site);
    }
  }
  for (const auto& [site, count] : added_per_site) {
    if (count > 1) sites.insert(site);
  }
  return sites;
}

std::string site_text(const std::string& file, int line) {
  return fmt::format("{}:{}", short_path(file), line);
}

// "combine_losses (app.py:144): `loss` (no value) -> -0.14, also its argument's name"
// "the values its code names changed: `a` 1 -> 2, `loss` (no value) -> 0.5 (also the name of its
// argument)": one phrase for a kernel's and a function's values; `shadowed` are argument names.
std::string values_changed_text(const std::vector<ValueChange>& changes, const std::vector<std::string>& shadowed) {
  std::vector<std::string> values;
  for (const auto& [name, old_value, new_value] : changes) {
    const bool argument = std::find(shadowed.begin(), shadowed.end(), name) != shadowed.end();
    values.push_back(
        fmt::format("`{}` {} -> {}{}", name, old_value, new_value, argument ? " (also the name of its argument)" : ""));
  }
  return fmt::format("the value{} its code names changed: {}", values.size() > 1 ? "s" : "", fmt::join(values, ", "));
}

// "combine_losses (app.py:144): the value its code names changed: `loss` (no value) -> -0.14, ..."
std::string kernel_change_text(const KernelChange& change) {
  const std::string kernel =
      fmt::format("{} ({})", change.kernel.key, site_text(change.kernel.file, change.kernel.line));
  if (change.constants.empty()) return kernel + " changed";
  return fmt::format("{}: {}", kernel, values_changed_text(change.constants, change.shadowed));
}

std::string function_change_text(const FunctionChange& change) {
  const std::string function =
      fmt::format("{} ({})", change.function.key, site_text(change.function.file, change.function.line));
  if (change.added) return "function " + function + " newly referenced";
  if (!change.constants.empty())
    return fmt::format("function {}: {}", function, values_changed_text(change.constants, {}));
  if (change.new_overloads.empty()) return "function " + function + " changed (its code or a function it calls)";
  std::vector<std::string> overloads;
  for (const auto& overload : change.new_overloads)
    overloads.push_back(fmt::format("{} at {}", overload.signature, site_text(overload.file, overload.line)));
  return fmt::format("function {}: overload added {}", function, fmt::join(overloads, ", "));
}

KernelFact kernel_fact(const std::string& key, const std::string& file, int line) {
  return {key, site_at(file, line)};
}

// The fix for a changed kernel, from what changed: a global sharing an argument's name, a global
// value, a function's overloads, or (nothing recorded) the catalogue's.
FixAction changed_reference_fix(const Transition& change) {
  FixAction action;
  action.whole = true;
  for (const auto& kernel : change.changed) {
    if (!kernel.shadowed.empty()) {
      action.kind = FixKind::rename_shadowed_argument;
      action.kernels = {kernel_fact(kernel.kernel.key, kernel.kernel.file, kernel.kernel.line)};
      action.names = {kernel.shadowed.front()};
      action.python_module = kernel.kernel.python_module;
      return action;
    }
  }
  for (const auto& kernel : change.changed) {
    if (!kernel.constants.empty()) {
      action.kind = FixKind::keep_value_fixed;
      action.kernels = {kernel_fact(kernel.kernel.key, kernel.kernel.file, kernel.kernel.line)};
      action.names = {std::get<0>(kernel.constants.front())};
      return action;
    }
  }
  for (const auto& function : change.functions) {
    if (!function.constants.empty()) {
      action.kind = FixKind::keep_function_value_fixed;
      action.kernels = {kernel_fact(function.function.key, function.function.file, function.function.line)};
      action.names = {std::get<0>(function.constants.front())};
      return action;
    }
  }
  for (const auto& function : change.functions) {
    if (!function.new_overloads.empty()) {
      const auto& overload = function.new_overloads.front();
      action.kind = FixKind::add_overloads_early;
      action.kernels = {KernelFact{function.function.key, std::nullopt}};
      action.site = site_at(overload.file, overload.line);
      return action;
    }
  }
  if (!change.functions.empty()) {
    const auto& function = change.functions.front().function;
    action.kind = FixKind::define_function_early;
    action.kernels = {kernel_fact(function.key, function.file, function.line)};
    return action;
  }
  return {};  // the catalogue's fix, as written
}

// "offset (app.py:40), scale (app.py:52)": the evidence line's spelling of kernels.
std::string kernels_text(const std::vector<KernelFact>& kernels) {
  std::vector<std::string> texts;
  for (const auto& kernel : kernels)
    texts.push_back(fmt::format("{} ({}:{})", kernel.name, short_path(kernel.site->file), kernel.site->line));
  return fmt::format("{}", fmt::join(texts, ", "));
}

void add_cost(Finding& finding, double ms) {
  finding.cost_ms = finding.cost_ms.value_or(0.0) + ms;
  finding.cost_basis = "the rebuilds' own load time; a later load never includes the precompiled header";
}

// The rebuilds of one module, each attributed to its causes: one finding per cause, one method
// per cause. A rebuild's cost is counted once, under the first cause it shows.
class ModuleRebuilds {
 public:
  ModuleRebuilds(const ModuleChurn& module, const CodeOwnership& ownership)
      : ownership_(ownership),
        where_(fmt::format(
            "module {} on {}{}", module.name, module.device,
            module.block_dim && module.device != "cpu" ? fmt::format(" at block_dim {}", *module.block_dim) : "")),
        factories_(factory_sites(module)) {
    const ModuleOwnership owner = ownership.of_module(module.name);
    for (Finding* finding : all()) {
      finding->module = module.name;
      assign_owner(*finding, owner);
      finding->evidence.push_back(fmt::format("{}: {} builds with {} hashes", where_, module.transitions.size() + 1,
                                              module.transitions.size() + 1));
    }
  }

  void explain(const Transition& change) {
    cost_owner_ = nullptr;
    std::vector<KernelFact> closure_kernels, late_kernels;
    for (const auto& kernel : change.added) {
      if (factories_.contains({kernel.file, kernel.line})) {
        closure_kernels.push_back(kernel_fact(kernel.key, kernel.file, kernel.line));
        factory_keys_[{kernel.file, kernel.line}].push_back(kernel.key);
      } else {
        late_kernels.push_back(kernel_fact(kernel.key, kernel.file, kernel.line));
      }
    }
    if (!closure_kernels.empty()) kernels_re_created(change, closure_kernels);
    if (!late_kernels.empty()) kernels_added(change, late_kernels);
    if (!change.options.empty()) options_changed(change);
    if (!change.instances_added.empty()) instances_added(change);
    if (!change.changed.empty()) kernel_content_changed(change);
    if (cost_owner_ == nullptr) nothing_in_the_snapshot(change);
  }

  void finish(Diagnosis& out) {
    // A headline names the first rebuild; the count says there are more (the evidence lists them).
    for (Finding* finding : all()) {
      const std::size_t rebuilds = finding->evidence.size() - 1;  // after the "N builds with N hashes" line
      if (rebuilds > 1) finding->facts.more_rebuilds = rebuilds - 1;
    }
    for (const auto& [site, keys] : factory_keys_) {
      closure_.evidence.insert(closure_.evidence.begin() + 1,
                               fmt::format("{}:{} made {} kernel(s) ({}) after the module first loaded; each one "
                                           "changed the module hash",
                                           short_path(site.first), site.second, keys.size(), keys.front()));
    }
    for (Finding* finding : all()) {
      if (finding->evidence.size() > 1) out.findings.push_back(std::move(*finding));
    }
  }

 private:
  std::array<Finding*, 5> all() { return {&closure_, &late_kernel_, &late_option_, &late_generic_, &changed_}; }

  // `fact`: what changed, as the evidence line says it. True when this is the finding's first
  // rebuild, whose facts its first line and its fix name.
  bool attribute(Finding& finding, const Transition& change, const std::string& fact) {
    const std::string line = fmt::format("{}; {}", rebuild_line(change, ownership_), fact);
    const bool first = finding.trigger.empty();
    if (first) {
      finding.trigger = fmt::format(
          "the instrumentation's load snapshots of {} differ between two builds at one device and block_dim: {}",
          where_, line);
    }
    finding.evidence.push_back(line);
    if (cost_owner_ == nullptr) {
      cost_owner_ = &finding;
      add_cost(finding, change.after->ms);
    }
    return first;
  }

  void kernels_re_created(const Transition& change, const std::vector<KernelFact>& kernels) {
    if (!attribute(closure_, change, "kernel re-created: " + kernels_text(kernels))) return;
    closure_.facts.event = EventKind::kernel_re_created_after_load;
    closure_.facts.kernels = kernels;
    closure_.facts.fix = fix_with<&FixAction::site>(FixKind::create_before_first_launch, kernels.front().site);
  }

  void kernels_added(const Transition& change, const std::vector<KernelFact>& kernels) {
    if (attribute(late_kernel_, change, "kernel added after load: " + kernels_text(kernels))) {
      late_kernel_.facts.event = EventKind::kernel_added_after_load;
      late_kernel_.facts.kernels = kernels;
    }
    // The first kernels added name the fix, even after a rebuild this run could not explain.
    if (late_kernel_.facts.fix.kind == FixKind::as_written)
      late_kernel_.facts.fix = fix_with<&FixAction::kernels>(FixKind::define_before_first_launch, kernels);
  }

  void options_changed(const Transition& change) {
    std::vector<std::string> changes;
    std::vector<OptionChange> options;
    for (const auto& [key, old_value, new_value] : change.options) {
      changes.push_back(fmt::format("{}: {} -> {}", key, old_value, new_value));
      options.push_back({key, old_value, new_value, std::nullopt});
      // Moving the write before the first launch gives the early launches the new value.
      const FixBehaviour moved = setting_option(key);
      if (moved.effect == FixEffect::changes_behaviour &&
          late_option_.behaviour.find(moved.what) == std::string::npos) {
        late_option_.behaviour +=
            fmt::format("; {} was {} for the launches before the write: {}", key, old_value, moved.what);
      }
    }
    if (!attribute(late_option_, change, fmt::format("option changed: {}", fmt::join(changes, ", ")))) return;
    late_option_.facts.event = EventKind::option_changed_after_load;
    late_option_.facts.options = options;
    late_option_.facts.fix = fix_with<&FixAction::options>(FixKind::set_module_options_early, options);
  }

  void instances_added(const Transition& change) {
    std::vector<std::string> added;
    for (const auto& [kernel, overload] : change.instances_added)
      added.push_back(kernel + "[" + readable_overload(overload) + "]");
    if (!attribute(late_generic_, change, fmt::format("generic instance added: {}", fmt::join(added, ", ")))) return;
    late_generic_.facts.event = EventKind::generic_instance_added;
    late_generic_.facts.names = added;
    late_generic_.facts.fix = fix_with<&FixAction::names>(FixKind::declare_overloads_early, added);
  }

  // One kernel object, two content hashes: name what its code names that changed (its values,
  // the functions Warp hashed), never the kernel as if it were new.
  void kernel_content_changed(const Transition& change) {
    std::vector<std::string> facts;
    for (const auto& kernel : change.changed) facts.push_back(kernel_change_text(kernel));
    for (const auto& function : change.functions) facts.push_back(function_change_text(function));
    const bool named = std::any_of(change.changed.begin(), change.changed.end(),
                                   [](const KernelChange& kernel) { return !kernel.constants.empty(); }) ||
                       !change.functions.empty();
    const bool recorded = std::all_of(change.changed.begin(), change.changed.end(),
                                      [](const KernelChange& kernel) { return kernel.constants_recorded; }) &&
                          change.before->detail->functions && change.after->detail->functions;
    if (!named) {
      facts.push_back(recorded ? "no value or function it names changed: its source, a type or an attribute it "
                                 "reads did"
                               : "what its code names was not recorded (a report before schema 10)");
    }
    std::string fact = fmt::format("{}", fmt::join(facts, "; "));
    // The kernels whose content did not change were built again only because they share the
    // module: a module of their own for the changed ones would spare them.
    const std::vector<std::string> bystanders = unchanged_kernels(change);
    if (!bystanders.empty()) {
      fact += fmt::format(
          "; rebuilt with it, unchanged: {}{}",
          fmt::join(bystanders.begin(), bystanders.begin() + std::min<std::size_t>(bystanders.size(), 3), ", "),
          bystanders.size() > 3 ? fmt::format(" and {} more", bystanders.size() - 3) : "");
    }
    if (!attribute(changed_, change, fact)) return;
    changed_.headline = fact;
    for (const auto& kernel : change.changed)
      changed_.facts.kernels.push_back(kernel_fact(kernel.kernel.key, kernel.kernel.file, kernel.kernel.line));
    for (const auto& function : change.functions)
      changed_.facts.kernels.push_back(
          kernel_fact(function.function.key, function.function.file, function.function.line));
    // No "a module of its own" here: a kernel moved out of the module its functions are
    // registered in is not rebuilt when they change (Warp 1.19 ran fixtures/generated_function
    // that way with the first radius twice), so that advice could change results.
    changed_.facts.fix = changed_reference_fix(change);
  }

  static std::vector<std::string> unchanged_kernels(const Transition& change) {
    std::vector<std::string> bystanders;
    for (const auto& kernel : change.after->detail->kernels) {
      const bool moved = std::any_of(change.changed.begin(), change.changed.end(),
                                     [&](const KernelChange& c) { return c.kernel.key == kernel.key; }) ||
                         std::any_of(change.added.begin(), change.added.end(),
                                     [&](const KernelInfo& k) { return k.key == kernel.key; });
      if (!moved) bystanders.push_back(kernel.key);
    }
    return bystanders;
  }

  // The hash changed but no kernel, overload or option did: something outside the snapshot (a
  // kernel's code or a referenced constant/function). Say so instead of guessing.
  void nothing_in_the_snapshot(const Transition& change) {
    std::string fact =
        "no kernel, overload or option changed in the snapshot: a kernel's source, a referenced @wp.func or a "
        "captured constant changed";
    if (!change.removed.empty()) {
      std::vector<std::string> removed;
      for (const auto& kernel : change.removed)
        removed.push_back(fmt::format("{} ({})", kernel.key, site_text(kernel.file, kernel.line)));
      fact = fmt::format("kernel(s) gone since the earlier build: {}", fmt::join(removed, ", "));
    }
    if (attribute(late_kernel_, change, fact)) late_kernel_.headline = "rebuilt with a new hash, but " + fact;
  }

  const CodeOwnership& ownership_;
  const std::string where_;
  const std::set<KernelSite> factories_;
  Finding closure_ = make_finding(Mechanism::closure_churn);
  Finding late_kernel_ = make_finding(Mechanism::late_kernel);
  Finding late_option_ = make_finding(Mechanism::late_option);
  Finding late_generic_ = make_finding(Mechanism::late_generic);
  Finding changed_ = make_finding(Mechanism::changed_reference);
  std::map<KernelSite, std::vector<std::string>> factory_keys_;
  Finding* cost_owner_ = nullptr;  // the finding this transition's cost went to
};

// identity-churn's facts: each module rebuilt and each of its hashes, once. The log's hash-change
// line and the load records may name the same rebuild, one with a longer prefix of the hash.
void note_rebuilt(FindingFacts& facts, const std::string& module, const std::vector<std::string>& hashes,
                  const std::string& device) {
  if (std::find(facts.modules.begin(), facts.modules.end(), module) == facts.modules.end()) {
    facts.modules.push_back(module);
  }
  for (const auto& hash : hashes) {
    const bool known = std::any_of(facts.identities.begin(), facts.identities.end(), [&](const IdentityFact& identity) {
      return identity.module == module && (identity.hash.starts_with(hash) || hash.starts_with(identity.hash));
    });
    if (!known) facts.identities.push_back({module, hash, device, 0});
  }
}

void explain_module(const ModuleChurn& module, const CodeOwnership& ownership, Diagnosis& out) {
  ModuleRebuilds rebuilds(module, ownership);
  for (const auto& change : module.transitions) rebuilds.explain(change);
  rebuilds.finish(out);
}

}  // namespace

void check_churn(const Report& report, Diagnosis& out) {
  bool missing_detail = false;
  const auto churned = churned_modules(report, missing_detail);
  const CodeOwnership ownership(report);
  for (const auto& module : churned) explain_module(module, ownership, out);
  if (churned.empty() && missing_detail) {
    Finding finding = make_finding(Mechanism::identity_churn);
    for (const auto& rebuilt : rebuilt_modules(report)) {
      for (const auto& at : rebuilt.by_block_dim) {
        if (at.hashes.size() < 2) continue;  // another block_dim is another hash by design (CS-5)
        const std::string line =
            fmt::format("module {} on {}{}: {} builds, hashes {}", rebuilt.name, rebuilt.device,
                        at.block_dim && rebuilt.device != "cpu" ? fmt::format(" at block_dim {}", *at.block_dim) : "",
                        at.builds, fmt::join(at.hashes, " -> "));
        if (finding.trigger.empty()) finding.trigger = "Warp's log: " + line;
        finding.evidence.push_back(line);
        note_rebuilt(finding.facts, rebuilt.name, at.hashes, rebuilt.device);
        finding.cost_ms = finding.cost_ms.value_or(0.0) + at.total_ms;
      }
    }
    for (const auto& change : report.hash_changes) {
      if (finding.trigger.empty()) {
        finding.trigger = fmt::format("Warp: Module hash changed, recompiling: {} ({} -> {})", change.module,
                                      change.old_hash, change.new_hash);
      }
      finding.evidence.push_back(fmt::format("Warp: Module hash changed, recompiling: {} ({} -> {})", change.module,
                                             change.old_hash, change.new_hash));
      note_rebuilt(finding.facts, change.module, {change.old_hash, change.new_hash}, "");
    }
    if (!finding.facts.modules.empty()) finding.facts.event = EventKind::rebuilt_cause_not_recorded;
    // The rebuild is in the log; which change caused it is what this run cannot tell.
    finding.cause = CauseStatus::cannot_tell;
    finding.cost_basis = "all builds of the churned modules (which one was redundant is not recorded)";
    out.findings.push_back(std::move(finding));
    for (Mechanism id : {Mechanism::late_kernel, Mechanism::late_option, Mechanism::late_generic,
                         Mechanism::closure_churn, Mechanism::changed_reference}) {
      not_checked(out, id,
                  "no per-load snapshots, so which change rebuilt the module is not recorded (see identity-churn)");
    }
    return;
  }
  const bool any = !churned.empty();
  for (Mechanism id : {Mechanism::late_kernel, Mechanism::late_option, Mechanism::late_generic,
                       Mechanism::closure_churn, Mechanism::changed_reference}) {
    if (out.found(id)) continue;
    if (!report.loads_observed) {
      not_checked(out, id, "module loads were not observed in this run");
    } else if (cold_compiled_events(report).empty()) {
      not_checked(out, id, "no compiled module loads in the cold pass");
    } else if (!any) {
      rule_out(out, id, "every module was built with a single hash");
    } else {
      rule_out(out, id, "the rebuilds' snapshots show no such change");
    }
  }
}

}  // namespace wcp::analysis
