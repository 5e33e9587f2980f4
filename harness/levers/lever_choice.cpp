#include "levers/lever_choice.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/unique_module_origin.h"
#include "facts/option_receipts.h"
#include "facts/ownership.h"
#include "facts/queries.h"
#include "levers/python_value.h"

namespace wcp::levers {
namespace {

constexpr const char* kEntryScope =
    "every module created after `import warp` returns (not the ones `import warp` creates itself)";
constexpr const char* kWholeProgram = "the whole program";

struct Prediction {
  std::optional<double> ms;
  bool estimated = false;
};

// What `diagnose` predicted for a mechanism's findings (on one module when given): the sum of
// their known costs.
Prediction predicted(const analysis::Diagnosis& diagnosis, Mechanism mechanism, const std::string& module = "") {
  Prediction out;
  for (const auto& finding : diagnosis.findings) {
    if (finding.mechanism != mechanism || !finding.cost_ms) continue;
    if (!module.empty() && finding.module != module) continue;
    out.ms = out.ms.value_or(0.0) + *finding.cost_ms;
    out.estimated = out.estimated || finding.cost_estimated;
  }
  return out;
}

// Whether every cold build of the baseline, and at least one, already built with `key` = `repr`.
bool every_build_with(const Report& report, const std::string& key, const std::string& repr) {
  const auto events = cold_compiled_events(report);
  return !events.empty() && std::all_of(events.begin(), events.end(), [&](const ModuleEvent* event) {
    return event->detail && effective_option(*event->detail, key) == repr;
  });
}

// Whether any cold build of the baseline built with `key` = `repr`.
bool some_build_with(const Report& report, const std::string& key, const std::string& repr) {
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    if (!event->detail) continue;
    if (effective_option(*event->detail, key) == repr) return true;
  }
  return false;
}

std::string config_line(const Report& report, const std::string& name, const std::string& value_json) {
  const ProcessRecord* main = main_process(report);
  std::string where = "the main script";
  if (main != nullptr && !main->program.empty()) {
    // A script's path, or the module of `python -m MOD`.
    where = main->program.ends_with(".py") || main->program.find('/') != std::string::npos
                ? short_file(main->program)
                : "module " + main->program + " (the `-m` entry point)";
  }
  return fmt::format("wp.config.{} = {} right after `import warp` in {}", name,
                     python_repr(value_json).value_or(value_json), where);
}

std::string module_option_line(const std::string& module, const std::string& name, const std::string& value_json) {
  if (const auto key = unique_module_kernel(module)) {
    // Warp names a module="unique" module after its content hash: there is no name to look up
    // before it loads, only the kernel's own options.
    return fmt::format("@wp.kernel(module=\"unique\", module_options={{\"{}\": {}}}) on kernel {}", name,
                       python_repr(value_json).value_or(value_json), *key);
  }
  return fmt::format(
      "wp.get_module(\"{}\").options[\"{}\"] = {} before its first load (or the module option at its "
      "kernels' definition)",
      module, name, python_repr(value_json).value_or(value_json));
}

class Chooser {
 public:
  Chooser(const Report& report, const analysis::Diagnosis& diagnosis, const ChoiceOptions& options)
      : report_(report), diagnosis_(diagnosis), options_(options), ownership_(report) {}

  std::vector<ChosenLever> choose() {
    standing();
    per_finding();
    return std::move(out_);
  }

 private:
  ChosenLever& add(Lever lever) {
    for (auto& existing : out_) {
      if (existing.outcome.lever.id == lever.id) return existing;  // one lever per id, the first reason wins
    }
    ChosenLever& chosen = out_.emplace_back();
    chosen.outcome.lever = std::move(lever);
    chosen.outcome.status = LeverStatus::measured;  // until judged; not_applicable below when it cannot run
    chosen.outcome.judged_on = is_scheduling(chosen.outcome.lever) ? "compile elapsed" : "cold module work";
    if (chosen.outcome.lever.kind == LeverKind::config &&
        !warp_has_config(report_.warp_version, chosen.outcome.lever.name)) {
      not_applicable(chosen, fmt::format("Warp {} has no warp.config.{} (added in Warp 1.10)", report_.warp_version,
                                         chosen.outcome.lever.name));
    }
    if (const Lever& lever = chosen.outcome.lever; lever.kind == LeverKind::config) {
      // The program already sets it: the lever could change nothing, so it is not run.
      if (const auto repr = python_repr(lever.value_json); repr && every_build_with(report_, lever.name, *repr)) {
        not_applicable(chosen, fmt::format("every module this run built already has {} = {}: the program sets it",
                                           lever.name, *repr));
      }
    }
    if (chosen.outcome.lever.cuda_only && loads_on_cpu(report_)) {
      not_applicable(chosen, "CUDA only, and this run loads modules on the CPU (concurrent CPU loads are not safe)");
    } else if (chosen.outcome.lever.cuda_only && !loads_on_cuda(report_)) {
      not_applicable(chosen, "CUDA only, and this run loaded no module on a CUDA device");
    }
    return chosen;
  }

  static void not_applicable(ChosenLever& chosen, std::string reason) {
    if (chosen.outcome.status == LeverStatus::not_applicable) return;
    chosen.outcome.status = LeverStatus::not_applicable;
    chosen.outcome.reason = std::move(reason);
  }

  static Lever config_lever(std::string id, std::string name, std::string value_json) {
    Lever lever;
    lever.id = std::move(id);
    lever.kind = LeverKind::config;
    lever.name = std::move(name);
    lever.value_json = std::move(value_json);
    return lever;
  }

  void entry_point(ChosenLever& chosen, const MechanismInfo* mechanism, std::string behaviour) {
    LeverOutcome& outcome = chosen.outcome;
    outcome.scope = kEntryScope;
    outcome.owner = kWholeProgram;
    outcome.behaviour = std::move(behaviour);
    if (mechanism != nullptr) {
      const Prediction prediction = predicted(diagnosis_, mechanism->id);
      outcome.predicted_saving_ms = prediction.ms;
      outcome.prediction_estimated = prediction.estimated;
    }
    outcome.take_it = config_line(report_, outcome.lever.name, outcome.lever.value_json);
  }

  void standing() {
    {
      Lever lever = config_lever("backward-off", "enable_backward", "false");
      if (diagnosis_.found(Mechanism::unused_backward)) lever.mechanism = Mechanism::unused_backward;
      ChosenLever& chosen = add(std::move(lever));
      entry_point(chosen, &info(Mechanism::unused_backward),
                  "gradients: no adjoint code is built, so nothing can differentiate these kernels (a Tape's backward "
                  "fails)");
      // CS-10 findings carry no cost; the estimate `measure`'s screen gives for this setting (on the
      // modules of code the user does not own) is the prediction the ledger shows beside the measurement.
      for (const auto& setting : diagnosis_.actions.settings) {
        if (setting.lever != chosen.outcome.lever.id || chosen.outcome.predicted_saving_ms || !setting.saving_ms)
          continue;
        chosen.outcome.predicted_saving_ms = setting.saving_ms;
        chosen.outcome.prediction_estimated = setting.saving_estimated;
      }
    }
    if (some_build_with(report_, "lineinfo", "True")) {
      ChosenLever& chosen = add(config_lever("lineinfo-off", "lineinfo", "false"));
      entry_point(chosen, nullptr,
                  "nothing the program computes: CUDA line information for profilers and debuggers is left out");
    }
    if (some_build_with(report_, "mode", "'debug'")) {
      ChosenLever& chosen = add(config_lever("release-mode", "mode", "\"release\""));
      entry_point(chosen, nullptr,
                  "runtime speed and checks: release builds are optimised and drop debug-mode bounds checks");
    }
    // The CPU's precompiled header: flipped for every program that builds on the CPU, where it
    // is one of the few settings whose effect depends on the machine (CS-12 in both directions).
    if (loads_on_cpu(report_) || diagnosis_.found(Mechanism::precompiled_header)) precompiled_header();
    if (options_.numerics) {
      Lever lever;
      lever.id = "fast-math";
      lever.kind = LeverKind::module_option;
      lever.name = "fast_math";
      lever.value_json = "true";
      lever.modules = {"*"};
      lever.changes_numerics = true;
      ChosenLever& chosen = add(std::move(lever));
      chosen.outcome.scope = "every module, at its creation";
      chosen.outcome.owner = kWholeProgram;
      chosen.outcome.behaviour = "numerics: fast-math intrinsics change floating-point results";
      chosen.outcome.take_it = "wp.set_module_options({\"fast_math\": True}) at the top of each of your modules";
    }
  }

  void per_finding() {
    for (const auto& finding : diagnosis_.findings) {
      switch (finding.mechanism) {
        case Mechanism::unused_backward:
          backward_module(finding);
          break;
        case Mechanism::cache_not_reused:
          cache_clears();
          break;
        case Mechanism::unroll_budget:
          unroll();
          break;
        case Mechanism::lto_dominated:
          mathdx();
          break;
        case Mechanism::serial_builds:
          workers();
          break;
        case Mechanism::unique_modules:
          drop_unique();
          break;
        default:
          break;
      }
    }
    late_options();
  }

  std::string owner_of(const analysis::Finding& finding) const {
    return finding.owner ? finding.owner->describe() : std::string(kWholeProgram);
  }

  void backward_module(const analysis::Finding& finding) {
    if (finding.module.empty()) return;
    Lever lever;
    lever.id = "backward-off:" + finding.module;
    lever.kind = LeverKind::module_option;
    lever.name = "enable_backward";
    lever.value_json = "false";
    lever.modules = {finding.module};
    lever.mechanism = Mechanism::unused_backward;
    ChosenLever& chosen = add(std::move(lever));
    const auto unique_key = unique_module_kernel(finding.module);
    chosen.outcome.scope = unique_key
                               ? fmt::format(
                                     "module=\"unique\" kernel {} at its module's creation, matched there by its "
                                     "function's name: every module=\"unique\" kernel of that name",
                                     *unique_key)
                               : fmt::format("module {} only, at its creation", finding.module);
    chosen.outcome.owner = owner_of(finding);
    chosen.outcome.behaviour =
        finding.behaviour.empty() ? std::string(info(finding.mechanism).behaviour) : finding.behaviour;
    chosen.outcome.predicted_saving_ms = finding.cost_ms;
    chosen.outcome.prediction_estimated = finding.cost_estimated;
    chosen.outcome.take_it = finding.yours() ? module_option_line(finding.module, "enable_backward", "false")
                                             : fmt::format(
                                                   "not in your code ({}): the module option can only be set "
                                                   "from outside, as this lever does",
                                                   owner_of(finding));
  }

  void cache_clears() {
    std::set<std::string> functions;
    for (const auto& clear : report_.instrumentation.cache_clears) functions.insert(clear.what);
    for (const std::string& function : functions) {
      if (function != "clear_kernel_cache" && function != "clear_lto_cache") continue;
      Lever lever;
      lever.id = "noop:" + function;
      lever.kind = LeverKind::noop_call;
      lever.name = function;
      lever.mechanism = Mechanism::cache_not_reused;
      ChosenLever& chosen = add(std::move(lever));
      chosen.outcome.scope = fmt::format("every call of wp.{}() in the program", function);
      chosen.outcome.owner = kWholeProgram;
      chosen.outcome.behaviour = std::string(info(Mechanism::cache_not_reused).behaviour);
      const Prediction prediction = predicted(diagnosis_, Mechanism::cache_not_reused);
      chosen.outcome.predicted_saving_ms = prediction.ms;
      chosen.outcome.prediction_estimated = prediction.estimated;
      std::string site;
      for (const auto& clear : report_.instrumentation.cache_clears) {
        if (clear.what == function && clear.site) {
          site = " at " + short_location(*clear.site);
          break;
        }
      }
      chosen.outcome.take_it = fmt::format("remove the wp.{}() call{}", function, site);
    }
  }

  void finding_config(Mechanism mechanism, std::string id, std::string name, std::string value_json) {
    Lever lever = config_lever(std::move(id), std::move(name), std::move(value_json));
    lever.mechanism = mechanism;
    ChosenLever& chosen = add(std::move(lever));
    entry_point(chosen, &info(mechanism), std::string(info(mechanism).behaviour));
  }

  void precompiled_header() {
    const bool on = uses_precompiled_headers(report_);
    Lever lever = config_lever("pch-flip", "use_precompiled_headers", on ? "false" : "true");
    if (diagnosis_.found(Mechanism::precompiled_header)) lever.mechanism = Mechanism::precompiled_header;
    ChosenLever& chosen = add(std::move(lever));
    entry_point(chosen, &info(Mechanism::precompiled_header),
                std::string(info(Mechanism::precompiled_header).behaviour));
  }

  void unroll() {
    int current = 16;  // Warp's default
    for (const ModuleEvent* event : cold_compiled_events(report_)) {
      if (!event->detail) continue;
      if (const auto value = effective_option(*event->detail, "max_unroll")) {
        try {
          current = std::max(current, std::stoi(*value));
        } catch (...) {
          // not a number (None): Warp's default stands
        }
      }
    }
    finding_config(Mechanism::unroll_budget, "max-unroll", "max_unroll", std::to_string(std::max(1, current / 4)));
  }

  void mathdx() { finding_config(Mechanism::lto_dominated, "mathdx-gemm-off", "enable_mathdx_gemm", "false"); }

  void workers() {
    Lever lever =
        config_lever("load-workers", "load_module_max_workers", std::to_string(std::max(2, options_.workers)));
    lever.mechanism = Mechanism::serial_builds;
    lever.cuda_only = true;
    ChosenLever& chosen = add(std::move(lever));
    entry_point(chosen, &info(Mechanism::serial_builds),
                "nothing the program computes: modules are built on several threads at once");
  }

  // CS-9: the module="unique" kernels made from constants, out of module="unique".
  void drop_unique() {
    std::vector<KernelRef> kernels;
    std::set<std::string> seen;
    std::map<std::string, std::set<std::string>> contents;
    std::vector<analysis::UniqueModule> modules;
    for (const ModuleEvent* event : cold_compiled_events(report_)) {
      const auto kernel = unique_module_kernel(event->name);
      if (!kernel || !seen.insert(event->name).second) continue;
      if (!event->detail || event->detail->kernels.size() != 1 || event->detail->kernels.front().key != *kernel)
        continue;
      contents[*kernel].insert(event->name);
      analysis::UniqueModule& module = modules.emplace_back();
      module.event = event;
      module.kernel = *kernel;
      module.snapshot = &event->detail->kernels.front();
      module.owner = ownership_.of_module(event->name);
    }
    std::set<std::pair<std::string, std::string>> refs;
    for (auto& module : modules) {
      analysis::classify_origin(report_, contents.at(module.kernel).size(), module);
      if (module.origin != analysis::UniqueOrigin::constants || module.snapshot->qualname.empty()) continue;
      if (refs.insert({module.snapshot->qualname, module.snapshot->file}).second) {
        kernels.push_back({module.snapshot->qualname, module.snapshot->file});
      }
    }
    if (kernels.empty()) return;
    Lever lever;
    lever.id = "drop-unique";
    lever.kind = LeverKind::drop_unique;
    lever.name = "module";
    lever.kernels = kernels;
    lever.mechanism = Mechanism::unique_modules;
    ChosenLever& chosen = add(std::move(lever));
    std::vector<std::string> names;
    for (const auto& kernel : kernels) names.push_back(kernel.qualname);
    chosen.outcome.scope =
        fmt::format("the kernels made from constants: {} (not those with module_options)", fmt::join(names, ", "));
    chosen.outcome.owner = modules.front().owner.describe();
    chosen.outcome.behaviour = std::string(info(Mechanism::unique_modules).behaviour);
    const Prediction prediction = predicted(diagnosis_, Mechanism::unique_modules);
    chosen.outcome.predicted_saving_ms = prediction.ms;
    chosen.outcome.prediction_estimated = prediction.estimated;
    chosen.outcome.take_it = fmt::format("drop module=\"unique\" from @wp.kernel of {}", fmt::join(names, ", "));
  }

  // An option the program set after load or after module creation (CS-3, config-deadline,
  // option-never-arrived), applied at module creation, or at the entry point for warp.config.
  void late_options() {
    if (!diagnosis_.option_receipts) return;
    for (const auto& receipt : *diagnosis_.option_receipts) {
      if (receipt.write.by_warp) continue;
      const bool rebuilt = std::any_of(receipt.reached.begin(), receipt.reached.end(),
                                       [](const ReachedBuild& build) { return build.rebuild; });
      std::optional<Mechanism> mechanism = receipt.finding;
      if (!mechanism && rebuilt && diagnosis_.found(Mechanism::late_option)) mechanism = Mechanism::late_option;
      if (!mechanism) continue;
      const auto value = json_of_repr(receipt.write.value);
      const bool config = receipt.write.api == OptionApi::config;
      Lever lever;
      lever.mechanism = mechanism;
      lever.name = receipt.write.key;
      lever.value_json = value.value_or("");
      if (config) {
        lever.id = "config-at-entry:" + receipt.write.key;
        lever.kind = LeverKind::config;
      } else {
        lever.id = fmt::format("option-at-creation:{}:{}", receipt.write.key, receipt.write.target);
        lever.kind = LeverKind::module_option;
        lever.modules = {receipt.write.target};
      }
      ChosenLever& chosen = add(std::move(lever));
      const std::string as_written = spelled(receipt.write);
      const std::string site = receipt.write.site ? " (" + short_location(*receipt.write.site) + ")" : "";
      chosen.outcome.scope =
          config ? std::string(kEntryScope) : fmt::format("module {} only, at its creation", receipt.write.target);
      chosen.outcome.owner =
          config ? std::string(kWholeProgram) : ownership_.of_module(receipt.write.target).describe();
      chosen.outcome.behaviour =
          fmt::format("what the program asked for: {}{}, applied before the builds instead of after", as_written, site);
      const Prediction prediction = predicted(diagnosis_, *mechanism, config ? "" : receipt.write.target);
      chosen.outcome.predicted_saving_ms = prediction.ms;
      chosen.outcome.prediction_estimated = prediction.estimated;
      chosen.outcome.take_it =
          config ? fmt::format("move {}{} to right after `import warp`", as_written, site)
                 : fmt::format("move {}{} above the module's first kernel definition", as_written, site);
      if (!value) {
        not_applicable(chosen, fmt::format("the value {} is not a literal the probe can set", receipt.write.value));
      }
    }
  }

  const Report& report_;
  const analysis::Diagnosis& diagnosis_;
  const ChoiceOptions& options_;
  CodeOwnership ownership_;
  std::vector<ChosenLever> out_;
};

// "1.19.0" -> {1, 19}; unknown -> {0, 0}.
std::pair<int, int> major_minor(const std::string& version) {
  int major = 0, minor = 0;
  if (std::sscanf(version.c_str(), "%d.%d", &major, &minor) != 2) return {0, 0};
  return {major, minor};
}

// An id matches itself; "family:*" matches every lever of that family ("backward-off:*":
// "backward-off:wp_x", not "backward-off" itself).
bool matches(const std::string& id, const std::vector<std::string>& names) {
  for (const auto& name : names) {
    if (id == name) return true;
    if (name.size() >= 2 && name.ends_with(":*") && id.starts_with(name.substr(0, name.size() - 1))) return true;
  }
  return false;
}

}  // namespace

bool is_scheduling(const Lever& lever) {
  return lever.name == "load_module_max_workers";
}

bool warp_has_config(const std::string& warp_version, const std::string& name) {
  static constexpr const char* kSince110[] = {"load_module_max_workers", "use_precompiled_headers",
                                              "enable_mathdx_gemm"};
  if (std::none_of(std::begin(kSince110), std::end(kSince110), [&](const char* option) { return name == option; }))
    return true;
  const auto version = major_minor(warp_version);
  if (version == std::pair{0, 0}) return true;  // unknown: the probe says at run time
  return version >= std::pair{1, 10};
}

std::vector<ChosenLever> choose_levers(const Report& baseline, const analysis::Diagnosis& diagnosis,
                                       const ChoiceOptions& options) {
  return Chooser(baseline, diagnosis, options).choose();
}

void apply_selection(std::vector<ChosenLever>& levers, const std::vector<std::string>& only,
                     const std::vector<std::string>& skip) {
  for (auto& chosen : levers) {
    if (!chosen.runnable()) continue;
    const std::string& id = chosen.outcome.lever.id;
    if (!only.empty() && !matches(id, only)) {
      chosen.outcome.status = LeverStatus::skipped;
      chosen.outcome.reason = "not named by --only";
    } else if (matches(id, skip)) {
      chosen.outcome.status = LeverStatus::skipped;
      chosen.outcome.reason = "named by --skip";
    }
  }
}

}  // namespace wcp::levers
