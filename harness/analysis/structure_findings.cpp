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
#include "model/rebuilds.h"
#include "model/stats.h"

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

void check_unique(const Report& report, const DiagnoseInputs& inputs, Diagnosis& out) {
  const CodeOwnership ownership(report);
  std::map<std::string, std::vector<const ModuleEvent*>> by_owner;
  std::map<std::string, ModuleOwnership> owners;
  std::size_t unique_count = 0;
  for (const auto& [name, event] : built_once(report)) {
    const auto kernel = unique_module_kernel(name);
    if (!kernel) continue;
    // With a snapshot, confirm it: a unique module holds exactly its one kernel.
    if (event->detail && !event->detail->kernels.empty() &&
        (event->detail->kernels.size() != 1 || event->detail->kernels.front().key != *kernel)) {
      continue;
    }
    const ModuleOwnership owner = ownership.of_module(name);
    owners.try_emplace(owner.describe(), owner);
    by_owner[owner.describe()].push_back(event);
    ++unique_count;
  }
  std::vector<Finding> found;
  for (const auto& [owner_key, unique] : by_owner) {
    if (unique.size() < 2) continue;
    Finding finding = make_finding(Mechanism::unique_modules);
    std::vector<std::string> names;
    for (const ModuleEvent* event : unique) names.push_back(event->name);
    finding.evidence.push_back(fmt::format("{} one-kernel modules named <kernel>_<8 hex of its content>: {}",
                                           unique.size(), fmt::join(names, ", ")));
    for (const ModuleEvent* event : unique) {
      finding.evidence.push_back(fmt::format("module {} ({}): built once, {}{}", event->name, event->hash,
                                             format_ms(event->ms),
                                             event->built_pch ? " (includes the precompiled header)" : ""));
    }
    add_merge_saving(finding, unique.size(), fixed_module_cost(report, inputs.fixed_cost));
    assign_owner(finding, owners.at(owner_key));
    found.push_back(std::move(finding));
  }
  if (found.empty()) {
    rule_out(out, Mechanism::unique_modules,
             unique_count == 0 ? "no module is named <kernel>_<8 hex>"
                               : "no owner has more than one module named <kernel>_<8 hex>");
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
