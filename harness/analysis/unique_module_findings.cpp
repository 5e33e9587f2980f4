// CS-4 (too many small modules of one package), CS-5 (one module at several CUDA block_dims),
// CS-9 (module="unique" on stable kernels) and CS-13 (independent modules built one at a time):
// what the set of compiled modules looks like, not what changed inside one.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "analysis/diagnose_support.h"
#include "facts/rebuilds.h"
#include "stats/summary.h"

namespace wcp::analysis {
namespace {

// CS-4 is worth acting on when merging saves at least this share of the modules' cold time:
// (modules - 1) x the fixed per-module cost against the time the modules took.
constexpr double kGranularActShare = 0.20;
// Builds overlapping by less than this factor ran one at a time.
constexpr double kSerialOverlap = 1.2;

// Modules built exactly once in the cold pass, with their single event.
std::map<std::string, const ModuleEvent*> built_once(const Report& report) {
  std::map<std::string, int> builds;
  std::map<std::string, const ModuleEvent*> once;
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    ++builds[event->name];
    once[event->name] = event;
  }
  for (const auto& [name, count] : builds) {
    if (count != 1) once.erase(name);
  }
  return once;
}

std::optional<std::size_t> kernel_count(const Report& report, const ModuleEvent& event) {
  if (event.detail && !event.detail->kernels.empty()) return event.detail->kernels.size();
  if (const ModuleSource* source = source_of(report, event.name, event.hash)) return source->forward_kernels;
  return std::nullopt;
}

void add_merge_saving(Finding& finding, std::size_t modules, const std::optional<FixedCost>& fixed) {
  if (!fixed || modules < 2) return;
  finding.cost_ms = static_cast<double>(modules - 1) * fixed->ms;
  finding.cost_basis =
      fmt::format("{} − 1 modules × fixed per-module cost {}; {}", modules, format_ms(fixed->ms), fixed->basis);
}

// Where a module belongs for CS-4: its dotted package; for a top-level module (a script's
// sibling imported by its bare name, or __main__ itself) the folder its kernels live in, so
// sibling files of one folder are one feature too. Modules Warp generated from the user's code
// group by the Python module they are named after.
std::string feature_of(const ModuleEvent& event) {
  const auto dot = event.name.rfind('.');
  if (dot != std::string::npos && dot != 0) return "package " + event.name.substr(0, dot);
  if (!event.detail || event.detail->kernels.empty()) return "";
  const std::string folder = std::filesystem::path(event.detail->kernels.front().file).parent_path().string();
  const bool one_folder =
      std::all_of(event.detail->kernels.begin(), event.detail->kernels.end(),
                  [&](const KernelInfo& k) { return std::filesystem::path(k.file).parent_path().string() == folder; });
  return one_folder && !folder.empty() ? "folder " + folder : "";
}

// What a merge must keep equal: the device, the block_dim and the options a module is built
// with (a merged module has one of each). Modules without a snapshot group by device alone.
std::string build_settings(const ModuleEvent& event) {
  std::string key = event.device + "|" + (event.block_dim ? std::to_string(*event.block_dim) : "?");
  if (event.detail) {
    for (const auto& [option, value] : event.detail->options) {
      if (option != "block_dim") key += "|" + option + "=" + value;
    }
  }
  return key;
}

// The modules' own cold time. A load that also built the precompiled header carries the
// header's cost, which merging does not remove: it counts as its siblings' median instead.
double modules_cold_ms(const std::vector<const ModuleEvent*>& events) {
  std::vector<double> plain;
  for (const ModuleEvent* event : events) {
    if (!event->built_pch) plain.push_back(event->ms);
  }
  double total = 0.0;
  for (const ModuleEvent* event : events) {
    total += event->built_pch && !plain.empty() ? median(plain) : event->ms;
  }
  return total;
}

struct GranularGroup {
  std::string owner_key;
  std::string feature;
  std::vector<const ModuleEvent*> events;
};

void check_granular(const Report& report, const DiagnoseInputs& inputs, Diagnosis& out) {
  const CodeOwnership ownership(report);
  const bool know_launches = has_launch_record(report);
  std::set<std::string> launched;
  for (const auto& process : report.processes) {
    for (const auto& launch : process.launches.signatures) launched.insert(launch.module);
  }
  // (owner, feature, build settings) -> its modules built once
  std::map<std::tuple<std::string, std::string, std::string>, GranularGroup> groups;
  std::map<std::string, ModuleOwnership> owners;
  for (const auto& [name, event] : built_once(report)) {
    if (unique_module_kernel(name)) continue;  // module="unique" modules are CS-9's
    // A module loaded but never launched in this run lives another life than its launched
    // siblings (never-launched's); merging would make the launched ones pay for it.
    if (know_launches && !launched.contains(name)) continue;
    const ModuleOwnership owner = ownership.of_module(name);
    const std::string feature = feature_of(*event);
    if (feature.empty()) continue;
    owners.try_emplace(owner.describe(), owner);
    auto& group = groups[{owner.describe(), feature, build_settings(*event)}];
    group.owner_key = owner.describe();
    group.feature = feature;
    group.events.push_back(event);
  }
  const auto fixed = fixed_module_cost(report, inputs.fixed_cost);
  std::vector<Finding> found;
  std::vector<std::string> below_share;
  for (const auto& [key, group] : groups) {
    const auto& events = group.events;
    if (events.size() < 2 || !fixed) continue;
    const double cold_ms = modules_cold_ms(events);
    if (cold_ms <= 0.0) continue;  // no build time recorded: no share to compare the saving with
    const double saving_ms = static_cast<double>(events.size() - 1) * fixed->ms;
    std::vector<std::string> names;
    for (const ModuleEvent* event : events) names.push_back(event->name);
    if (saving_ms < kGranularActShare * cold_ms) {
      below_share.push_back(fmt::format(
          "{}: {} modules ({}) built once each with the same settings; merging would save ≈ {} of their {} ({:.0f} %, "
          "under {:.0f} %): not worth acting on",
          group.feature, events.size(), fmt::join(names, ", "), format_ms(saving_ms), format_ms(cold_ms),
          100.0 * saving_ms / cold_ms, 100.0 * kGranularActShare));
      continue;
    }
    Finding finding = make_finding(Mechanism::granular_modules);
    finding.module = names.front();
    finding.trigger = fmt::format(
        "Warp's log: {} modules of {} each built once, at one device, block_dim and option set; (modules − 1) × the "
        "fixed per-module cost is {:.0f} % of their cold time (threshold {:.0f} %)",
        events.size(), group.feature, 100.0 * saving_ms / cold_ms, 100.0 * kGranularActShare);
    finding.evidence.push_back(fmt::format(
        "{}: {} modules, each a separate build, {} in all{}", group.feature, events.size(), format_ms(cold_ms),
        std::any_of(events.begin(), events.end(), [](const ModuleEvent* e) { return e->built_pch; })
            ? " (the precompiled header's build counted as a sibling's median)"
            : ""));
    for (const ModuleEvent* event : events) {
      const auto kernels = kernel_count(report, *event);
      finding.evidence.push_back(fmt::format("module {} ({}): {} kernel(s), built once, {}{}", event->name, event->hash,
                                             kernels ? std::to_string(*kernels) : "?", format_ms(event->ms),
                                             event->built_pch ? " (includes the precompiled header)" : ""));
    }
    add_merge_saving(finding, events.size(), fixed);
    finding.fix = fmt::format(
        "Put the kernels of {} ({}) in one Python module (or fewer), so Warp builds one module instead of {}.",
        group.feature, fmt::join(names, ", "), events.size());
    assign_owner(finding, owners.at(group.owner_key));
    found.push_back(std::move(finding));
  }
  std::stable_partition(found.begin(), found.end(), [](const Finding& finding) { return finding.yours(); });
  for (auto& finding : found) out.findings.push_back(std::move(finding));
  for (auto& note : below_share) out.facts.push_back("CS-4 " + note);
  if (found.empty()) {
    rule_out(out, Mechanism::granular_modules,
             below_share.empty()
                 ? "no folder or package has two or more modules built once with the same device, block_dim and "
                   "options"
                 : fmt::format("merging the modules of a feature would save under {:.0f} % of their cold time (see "
                               "facts)",
                               100.0 * kGranularActShare));
  }
}

// ---- CS-9 ------------------------------------------------------------------------------------
// A module="unique" kernel is worth merging only when its code is the same whatever the run: made
// from constants. Made from data at run time, module="unique" is what keeps it from rebuilding its
// neighbours. The evidence, strongest first: several contents of one kernel in one run, a hash
// that moved between samples, a captured argument of its factory (all: data); captured nothing or
// only literals, with the same hash in every sample (constants). Anything less cannot tell.
enum class UniqueOrigin { constants, data, unknown };

struct UniqueModule {
  const ModuleEvent* event = nullptr;  // its first cold build
  std::string kernel;                  // the kernel key the module is named after
  const KernelInfo* snapshot = nullptr;
  ModuleOwnership owner;
  UniqueOrigin origin = UniqueOrigin::unknown;
  std::string why;  // the evidence for `origin`, in words
};

// "center_kernel (made by make_center_kernel() in kernels.py)": the kernel and where it came from.
std::string kernel_label(const UniqueModule& module) {
  const std::string& qualname = module.snapshot != nullptr ? module.snapshot->qualname : std::string();
  if (const auto at = qualname.rfind(".<locals>."); at != std::string::npos) {
    return fmt::format("{} (made by {}() in {})", qualname.substr(at + 10), qualname.substr(0, at),
                       short_path(module.snapshot->file));
  }
  if (const std::string factory = unique_kernel_factory(module.kernel); !factory.empty()) {
    return fmt::format("{} (made by {}())", module.kernel.substr(factory.size() + 10), factory);
  }
  return module.kernel;
}

// The "<module> <hash>" of one kernel's unique modules in each measured sample; empty when fewer
// than two samples recorded them (nothing to compare).
std::vector<std::set<std::string>> identities_per_sample(const Report& report, const std::string& kernel) {
  std::vector<std::set<std::string>> samples;
  for (const auto& sample : report.sample_results) {
    if (!sample.cold_ok || !sample.cold_identities) continue;
    std::set<std::string>& mine = samples.emplace_back();
    for (const auto& identity : *sample.cold_identities) {
      const std::string name = identity.substr(0, identity.find(' '));
      if (unique_module_kernel(name) == kernel) mine.insert(identity);
    }
  }
  if (samples.size() < 2) samples.clear();
  return samples;
}

// Modules outside module="unique" whose hashes differ between samples: the program changed from
// run to run for a reason of its own, so a moving unique hash says nothing about one kernel.
bool other_modules_moved(const Report& report) {
  std::optional<std::set<std::string>> first;
  for (const auto& sample : report.sample_results) {
    if (!sample.cold_ok || !sample.cold_identities) continue;
    std::set<std::string> others;
    for (const auto& identity : *sample.cold_identities) {
      if (!unique_module_kernel(identity.substr(0, identity.find(' ')))) others.insert(identity);
    }
    if (!first) {
      first = std::move(others);
    } else if (others != *first) {
      return true;
    }
  }
  return false;
}

void classify(const Report& report, std::size_t contents_in_run, UniqueModule& module) {
  if (contents_in_run > 1) {
    module.origin = UniqueOrigin::data;
    module.why = fmt::format(
        "this run built {} modules of this kernel with different content: its factory made it "
        "from different values at run time",
        contents_in_run);
    return;
  }
  const auto samples = identities_per_sample(report, module.kernel);
  const bool stable = !samples.empty() && std::all_of(samples.begin(), samples.end(),
                                                      [&](const auto& sample) { return sample == samples.front(); });
  if (!samples.empty() && !stable) {
    if (other_modules_moved(report)) {
      module.why =
          "its hash differed between samples, but so did other modules' hashes: the run changed for "
          "another reason";
      return;
    }
    module.origin = UniqueOrigin::data;
    module.why = "its content hash differed between samples: it is made from something that changes from run to run";
    return;
  }
  std::optional<ClosureKind> closure;
  if (module.snapshot != nullptr) closure = module.snapshot->closure;
  if (closure == ClosureKind::arguments) {
    module.origin = UniqueOrigin::data;
    module.why = "it captures an argument of the function that defined it: it is made from what its caller passes";
    return;
  }
  std::vector<std::string> missing;
  if (module.snapshot == nullptr) {
    missing.push_back("no kernel snapshot");
  } else if (!closure) {
    missing.push_back("what it captured was not recorded");
  } else if (closure == ClosureKind::values) {
    missing.push_back("it captures values other than literals (an array, a function, a Warp type or an object)");
  }
  if (samples.empty()) missing.push_back("fewer than two samples recorded its hash (measure with --samples 2 or more)");
  if (missing.empty()) {
    module.origin = UniqueOrigin::constants;
    module.why = fmt::format("it captures {} and had the same hash in all {} samples",
                             closure == ClosureKind::none ? "nothing" : "only literals", samples.size());
    return;
  }
  module.why = fmt::format("{}", fmt::join(missing, "; "));
}

// The owner scope findings are grouped by: whose code, which package, who generated it. Not the
// factory: one package's several factories are one place to fix.
std::string scope_of(const ModuleOwnership& owner) {
  return fmt::format("{}|{}|{}", to_string(owner.owner), owner.package ? owner.package->name : "",
                     owner.generator ? to_string(*owner.generator) : "");
}

std::string labels(const std::vector<const UniqueModule*>& modules) {
  std::vector<std::string> out;
  for (const UniqueModule* module : modules) out.push_back(kernel_label(*module));
  return fmt::format("{}", fmt::join(out, ", "));
}

std::string unique_fix(const std::vector<const UniqueModule*>& constants,
                       const std::vector<const UniqueModule*>& unknown, const std::vector<const UniqueModule*>& data) {
  std::vector<std::string> parts;
  if (!constants.empty()) {
    parts.push_back(fmt::format(
        "Drop module=\"unique\" from {}: {} from constants, so {} can share {} Python module's Warp module (or one "
        "named module of the package, module=\"<name>\") and build together.",
        labels(constants), constants.size() == 1 ? "it is made" : "they are made",
        constants.size() == 1 ? "it" : "they", constants.size() == 1 ? "its" : "their"));
  }
  for (const UniqueModule* module : unknown) {
    parts.push_back(fmt::format(
        "This run cannot tell whether {} is made from constants ({}): if its code never changes at run time, drop "
        "module=\"unique\" (or put it in the package's module); if it is built from data at run time, keep "
        "module=\"unique\" or give it a named module of its own.",
        kernel_label(*module), module->why));
  }
  if (!data.empty()) {
    parts.push_back(
        fmt::format("Keep module=\"unique\" on {}: made from data at run time, {} its own module so "
                    "that a new value rebuilds it alone (a named module of its own does the same).",
                    labels(data), data.size() == 1 ? "it needs" : "each needs"));
  }
  return fmt::format("{}", fmt::join(parts, " "));
}

std::string_view origin_text(UniqueOrigin origin) {
  switch (origin) {
    case UniqueOrigin::constants: return "made from constants";
    case UniqueOrigin::data: return "made from data at run time";
    case UniqueOrigin::unknown: return "cannot tell";
  }
  return "cannot tell";
}

void check_unique(const Report& report, const DiagnoseInputs& inputs, Diagnosis& out) {
  const CodeOwnership ownership(report);
  // Each unique module once (a generic kernel's module is built again for each new instance:
  // that rebuild is CS-6's), with the kernels it was built with.
  std::vector<UniqueModule> modules;
  std::set<std::string> seen;
  std::map<std::string, std::set<std::string>> contents;  // kernel key -> its unique module names
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    const auto kernel = unique_module_kernel(event->name);
    if (!kernel || !seen.insert(event->name).second) continue;
    const KernelInfo* snapshot = nullptr;
    if (event->detail && !event->detail->kernels.empty()) {
      // With a snapshot, confirm it: a unique module holds exactly its one kernel.
      if (event->detail->kernels.size() != 1 || event->detail->kernels.front().key != *kernel) continue;
      snapshot = &event->detail->kernels.front();
    }
    contents[*kernel].insert(event->name);
    UniqueModule& module = modules.emplace_back();
    module.event = event;
    module.kernel = *kernel;
    module.snapshot = snapshot;
    module.owner = ownership.of_module(event->name);
  }
  // By name, as the evidence lists them: the same report always reads the same.
  std::sort(modules.begin(), modules.end(),
            [](const UniqueModule& a, const UniqueModule& b) { return a.event->name < b.event->name; });
  for (auto& module : modules) classify(report, contents.at(module.kernel).size(), module);

  std::map<std::string, std::vector<const UniqueModule*>> by_scope;
  for (const auto& module : modules) by_scope[scope_of(module.owner)].push_back(&module);
  std::vector<Finding> found;
  std::vector<std::string> kept;
  for (const auto& [scope, members] : by_scope) {
    std::vector<const UniqueModule*> constants, unknown, data, candidates;
    for (const UniqueModule* module : members) {
      auto& bucket = module->origin == UniqueOrigin::constants ? constants
                     : module->origin == UniqueOrigin::data    ? data
                                                               : unknown;
      bucket.push_back(module);
      if (module->origin != UniqueOrigin::data) candidates.push_back(module);
    }
    for (const UniqueModule* module : data) kept.push_back(fmt::format("{} ({})", module->event->name, module->why));
    if (candidates.size() < 2) continue;  // one module on its own merges with nothing
    Finding finding = make_finding(Mechanism::unique_modules);
    std::vector<std::string> names;
    for (const UniqueModule* module : candidates) names.push_back(module->event->name);
    finding.trigger = fmt::format(
        "Warp's log: {} compiled modules named <kernel>_<8 hex> (module=\"unique\"), one kernel each; {} made from "
        "constants, {} the run cannot tell about{}",
        candidates.size(), constants.size(), unknown.size(),
        data.empty() ? std::string() : fmt::format(" ({} more made from data at run time)", data.size()));
    finding.evidence.push_back(fmt::format("{} one-kernel modules named <kernel>_<8 hex of its content>: {}",
                                           candidates.size(), fmt::join(names, ", ")));
    for (const UniqueModule* module : members) {
      finding.evidence.push_back(fmt::format("module {} ({}): {}, {}{}; {}: {}", module->event->name,
                                             module->event->hash, kernel_label(*module), format_ms(module->event->ms),
                                             module->event->built_pch ? " (includes the precompiled header)" : "",
                                             origin_text(module->origin), module->why));
    }
    add_merge_saving(finding, candidates.size(), fixed_module_cost(report, inputs.fixed_cost));
    if (finding.cost_ms && !unknown.empty()) {
      finding.cost_basis += fmt::format("; counts the {} the run cannot tell about: at most this", unknown.size());
    }
    finding.fix = unique_fix(constants, unknown, data);
    // One owner for the scope; a phrase naming one factory would misname the others.
    ModuleOwnership owner = members.front()->owner;
    for (const UniqueModule* module : members) {
      if (module->owner.generated_by != owner.generated_by) owner.generated_by.clear();
      owner.from_snapshot = owner.from_snapshot && module->owner.from_snapshot;
    }
    assign_owner(finding, owner);
    found.push_back(std::move(finding));
  }
  if (found.empty()) {
    std::string signal = modules.empty() ? "no module is named <kernel>_<8 hex>"
                                         : "no owner has two or more module=\"unique\" kernels that may be stable";
    if (!kept.empty()) signal += fmt::format("; made from data at run time, rightly unique: {}", fmt::join(kept, "; "));
    rule_out(out, Mechanism::unique_modules, std::move(signal));
    return;
  }
  std::stable_partition(found.begin(), found.end(), [](const Finding& finding) { return finding.yours(); });
  for (auto& finding : found) out.findings.push_back(std::move(finding));
}

void check_block_dims(const Report& report, Diagnosis& out) {
  if (!loads_on_cuda(report)) {
    not_checked(out, Mechanism::block_dim_spread, "CUDA only: this run loaded modules on the CPU only");
    return;
  }
  bool found = false;
  const CodeOwnership ownership(report);
  for (const auto& rebuilt : rebuilt_modules(report)) {
    if (rebuilt.cause != RebuildCause::block_dim_spread && rebuilt.cause != RebuildCause::both) continue;
    Finding finding = make_finding(Mechanism::block_dim_spread);
    finding.module = rebuilt.name;
    assign_owner(finding, ownership.of_module(rebuilt.name));
    // CS-5's builds are the first build at each block_dim; a further build at one block_dim is
    // churn (CS-1/CS-3/CS-6, churn_findings.cpp), listed and costed there.
    std::vector<std::string> at_each;
    double extra = 0.0;
    for (std::size_t i = 0; i < rebuilt.by_block_dim.size(); ++i) {
      const auto& at = rebuilt.by_block_dim[i];
      at_each.push_back(fmt::format("{} (hash {}, {})", at.block_dim ? std::to_string(*at.block_dim) : "unknown",
                                    at.hashes.front(), format_ms(at.first_ms)));
      if (i > 0) extra += at.first_ms;
    }
    finding.trigger = fmt::format("Warp's log: module {} on {} compiled at {} block_dims", rebuilt.name, rebuilt.device,
                                  rebuilt.by_block_dim.size());
    finding.evidence.push_back(fmt::format("module {} on {}: first build at each block_dim: {}", rebuilt.name,
                                           rebuilt.device, fmt::join(at_each, ", ")));
    if (rebuilt.churned()) {
      finding.evidence.push_back(
          "further builds at one block_dim changed the hash there: that is churn, reported and costed apart (see "
          "CS-1, CS-3, CS-6 or closure-churn)");
    }
    finding.cost_ms = extra;
    finding.cost_basis = "the first build at every block_dim but the first one";
    out.findings.push_back(std::move(finding));
    found = true;
  }
  if (!found) rule_out(out, Mechanism::block_dim_spread, "every module was built at a single block_dim");
}

void check_serial(const Report& report, Diagnosis& out) {
  if (!loads_on_cuda(report)) {
    not_checked(out, Mechanism::serial_builds,
                "not offered for CPU loads (Warp's CPU compiler is not parallelised here)");
    return;
  }
  const auto once = built_once(report);
  std::vector<const ModuleEvent*> cuda;
  for (const auto& [name, event] : once) {
    if (event->device.starts_with("cuda")) cuda.push_back(event);
  }
  if (cuda.size() < 2) {
    rule_out(out, Mechanism::serial_builds, "fewer than two CUDA modules built once");
    return;
  }
  // The instrumentation's load intervals (start and end on the run's clock) say directly whether
  // builds ran one at a time; the overlap factor (module work / compile elapsed, two clocks) is
  // the fallback for reports without them, and only where elapsed is credited compile time.
  const bool intervals = std::all_of(cuda.begin(), cuda.end(), [](const ModuleEvent* event) {
    return event->detail && event->detail->start_s > 0.0 && event->detail->end_s > event->detail->start_s;
  });
  std::string trigger;
  if (intervals) {
    for (std::size_t i = 0; i < cuda.size(); ++i) {
      for (std::size_t j = i + 1; j < cuda.size(); ++j) {
        const auto& a = *cuda[i]->detail;
        const auto& b = *cuda[j]->detail;
        if (a.start_s < b.end_s && b.start_s < a.end_s) {
          rule_out(out, Mechanism::serial_builds,
                   fmt::format("the load intervals of {} and {} overlap: builds already run in parallel", cuda[i]->name,
                               cuda[j]->name));
          return;
        }
      }
    }
    trigger = fmt::format(
        "the instrumentation's load intervals: {} CUDA modules, each built once, built one after "
        "another (no two intervals overlap)",
        cuda.size());
  } else {
    if (!report.overlap_factor || !elapsed_is_compile_time(report) || !credited_compile_elapsed(report)) {
      not_checked(out, Mechanism::serial_builds,
                  "no load intervals recorded, and the overlap factor is unavailable or not credited (no warm run "
                  "shown to compile nothing and be faster than its cold run)");
      return;
    }
    if (*report.overlap_factor > kSerialOverlap) {
      rule_out(out, Mechanism::serial_builds,
               fmt::format("overlap factor {:.2f}: builds already overlap", *report.overlap_factor));
      return;
    }
    trigger = fmt::format(
        "overlap factor {:.2f} (module work / compile elapsed; no load intervals recorded): "
        "{} CUDA modules, each built once, one at a time",
        *report.overlap_factor, cuda.size());
  }
  double total = 0.0, largest = 0.0;
  for (const ModuleEvent* event : cuda) {
    total += event->ms;
    largest = std::max(largest, event->ms);
  }
  if (largest <= 0.0) {
    not_checked(out, Mechanism::serial_builds, "no build time was recorded for the CUDA modules");
    return;
  }
  Finding finding = make_finding(Mechanism::serial_builds);
  finding.trigger = trigger;
  finding.evidence.push_back(fmt::format(
      "{} CUDA modules built once each, one at a time{}", cuda.size(),
      report.overlap_factor ? fmt::format(" (overlap factor {:.2f})", *report.overlap_factor) : std::string()));
  finding.evidence.push_back(
      fmt::format("ceiling speed-up Σ/max = {} / {} = {:.1f}x; best possible elapsed = the "
                  "largest module, {}",
                  format_ms(total), format_ms(largest), total / largest, format_ms(largest)));
  finding.cost_ms = total - largest;
  finding.cost_estimated = true;  // a ceiling
  finding.cost_basis = "elapsed above the largest module, if every build ran in parallel (a ceiling)";
  out.findings.push_back(std::move(finding));
}

}  // namespace

void check_structure(const Report& report, const DiagnoseInputs& inputs, Diagnosis& out) {
  check_granular(report, inputs, out);
  check_block_dims(report, out);
  check_unique(report, inputs, out);
  check_serial(report, out);
}

}  // namespace wcp::analysis
