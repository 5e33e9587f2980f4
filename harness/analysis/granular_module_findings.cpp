// CS-4 (module boundaries too granular): many small modules of one feature, each a separate
// build, that one module would build together.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "analysis/diagnose_support.h"
#include "facts/cuda_build_ranking.h"
#include "facts/test_session.h"
#include "io/units.h"
#include "stats/summary.h"

namespace wcp::analysis {
namespace {

// CS-4 is worth acting on when merging saves at least this share of the modules' cold time:
// (modules - 1) x the fixed per-module cost against the time the modules took.
constexpr double kGranularActShare = 0.20;

std::optional<std::size_t> kernel_count(const Report& report, const ModuleEvent& event) {
  if (event.detail && !event.detail->kernels.empty()) return event.detail->kernels.size();
  if (const ModuleSource* source = source_of(report, event.name, event.hash)) return source->forward_kernels;
  return std::nullopt;
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

using GranularGroups = std::map<std::tuple<std::string, std::string, std::string>, GranularGroup>;

// (owner, feature, build settings) -> its launched modules built once, with each owner.
GranularGroups granular_groups(const Report& report, const CodeOwnership& ownership,
                               std::map<std::string, ModuleOwnership>& owners) {
  const bool know_launches = has_launch_record(report);
  const std::set<std::string> launched = launched_modules(report);
  GranularGroups groups;
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
  return groups;
}

Finding granular_finding(const Report& report, const GranularGroup& group, const std::vector<std::string>& names,
                         double saving_ms, double cold_ms, const std::optional<FixedCost>& fixed,
                         const ModuleOwnership& owner) {
  const auto& events = group.events;
  Finding finding = make_finding(Mechanism::granular_modules);
  finding.module = names.front();
  finding.facts.event = EventKind::modules_built_separately;
  finding.facts.modules = names;
  finding.facts.names = {group.feature};
  finding.trigger = fmt::format(
      "Warp's log: {} modules of {} each built once, at one device, block_dim and option set; (modules − 1) × the "
      "fixed per-module cost is {:.0f} % of their cold time (threshold {:.0f} %)",
      events.size(), group.feature, 100.0 * saving_ms / cold_ms, 100.0 * kGranularActShare);
  finding.evidence.push_back(fmt::format(
      "{}: {} modules, each a separate build, {} in all{}", group.feature, events.size(), milliseconds_text(cold_ms),
      std::any_of(events.begin(), events.end(), [](const ModuleEvent* e) { return e->built_pch; })
          ? " (the precompiled header's build counted as a sibling's median)"
          : ""));
  for (const ModuleEvent* event : events) {
    const auto kernels = kernel_count(report, *event);
    finding.evidence.push_back(fmt::format("module {} ({}): {} kernel(s), built once, {}{}", event->name, event->hash,
                                           kernels ? std::to_string(*kernels) : "?", milliseconds_text(event->ms),
                                           event->built_pch ? " (includes the precompiled header)" : ""));
  }
  add_merge_saving(finding, events.size(), fixed);
  if (const auto cuda = cuda_cost_of_modules(report, names)) {
    // Measured in the CUDA build (`--cuda-arch`): what each separate module pays there.
    finding.evidence.push_back(fmt::format(
        "their CUDA build for sm_{} (measured, NVRTC's trace): {} module(s), {} of CPU; Warp's headers {}", cuda->arch,
        cuda->modules_built, milliseconds_text(cuda->cpu_ms),
        cuda->modules_with_headers == 0
            ? std::string("were not timed in their traces")
            : fmt::format("{} per module in the {} trace(s) that parsed them (NVRTC keeps a precompiled header per "
                          "process, so later modules may skip them)",
                          milliseconds_text(cuda->headers_ms / static_cast<double>(cuda->modules_with_headers)),
                          cuda->modules_with_headers)));
  }
  finding.fix = fmt::format(
      "Put the kernels of {} ({}) in one Python module (or fewer), so Warp builds one module instead of {}.",
      group.feature, fmt::join(names, ", "), events.size());
  assign_owner(finding, owner);
  return finding;
}

}  // namespace

void check_granular_modules(const Report& report, const DiagnoseInputs& inputs, Diagnosis& out) {
  const CodeOwnership ownership(report);
  const TestSession session(report);
  std::map<std::string, ModuleOwnership> owners;
  const GranularGroups groups = granular_groups(report, ownership, owners);
  const auto fixed = fixed_module_cost(report, inputs.fixed_cost);
  std::vector<Finding> found;
  std::vector<std::string> below_share;
  std::vector<std::string> scoped;     // groups in code the user does not own
  std::vector<std::string> unbounded;  // groups with no fixed cost to weigh them by
  for (const auto& [key, group] : groups) {
    const auto& events = group.events;
    if (events.size() < 2) continue;
    if (!fixed) {
      // No build ran alone (a parallel preload; fixed_module_cost): each one's time holds the
      // wait for the others, so none bounds the fixed per-module cost, and a share computed from
      // it would be a threshold on contention, not evidence of what merging saves.
      unbounded.push_back(fmt::format(
          "{}: {} modules built once each, none of this run's builds alone (each overlapping another build, or "
          "carrying the precompiled header)",
          group.feature, events.size()));
      continue;
    }
    const double cold_ms = modules_cold_ms(events);
    if (cold_ms <= 0.0) continue;  // no build time recorded: no share to compare the saving with
    const double saving_ms = static_cast<double>(events.size() - 1) * fixed->ms;
    std::vector<std::string> names;
    for (const ModuleEvent* event : events) names.push_back(event->name);
    if (saving_ms < kGranularActShare * cold_ms) {
      below_share.push_back(fmt::format(
          "{}: {} modules ({}) built once each with the same settings; merging would save ≈ {} of their {} ({:.0f} %, "
          "under {:.0f} %): not worth acting on",
          group.feature, events.size(), fmt::join(names, ", "), milliseconds_text(saving_ms),
          milliseconds_text(cold_ms), 100.0 * saving_ms / cold_ms, 100.0 * kGranularActShare));
      continue;
    }
    // One run that uses part of a library (a test file, one example) never supports
    // restructuring that library: its own module boundaries are an observation of this run, for
    // its maintainers, never a thing to do (issue 40). Its whole test suite measured as one
    // command would be the evidence.
    // Modules a library generates from the user's code (warp.fem's integrands) are its choice too.
    // The same holds for the user's own code that a test run only calls (a maintainer's run of
    // one test file from a checkout): modules the tests define themselves are seen whole.
    const bool part_of_suite =
        session.present() && !std::all_of(events.begin(), events.end(), [&](const auto* e) {
          return e->detail && !e->detail->kernels.empty() &&
                 std::all_of(e->detail->kernels.begin(), e->detail->kernels.end(),
                             [&](const KernelInfo& k) { return session.defines(k.file, k.python_module); });
        });
    if (const ModuleOwnership& owner = owners.at(group.owner_key); !owner.users_to_change() || part_of_suite) {
      scoped.push_back(fmt::format(
          "{} ({}): {} modules ({}) built once each with the same settings in this run; merging them would save ≈ {} "
          "here, but one run of part of a library does not show its other users; measured over its whole test suite "
          "as one command, it would",
          group.feature, owner.describe(), events.size(), fmt::join(names, ", "), milliseconds_text(saving_ms)));
      continue;
    }
    found.push_back(granular_finding(report, group, names, saving_ms, cold_ms, fixed, owners.at(group.owner_key)));
  }
  std::stable_partition(found.begin(), found.end(), [](const Finding& finding) { return finding.yours(); });
  for (auto& finding : found) out.findings.push_back(std::move(finding));
  for (auto& note : below_share) out.facts.push_back("CS-4 " + note);
  for (auto& note : scoped) out.facts.push_back("CS-4 " + note);
  if (found.empty() && !unbounded.empty()) {
    not_checked(out, Mechanism::granular_modules,
                fmt::format("{}: no build bounds the fixed per-module cost and there is no calibration "
                            "(`warp-compile-probe calibrate` measures it)",
                            fmt::join(unbounded, "; ")));
  } else if (found.empty() && !scoped.empty()) {
    rule_out(out, Mechanism::granular_modules,
             "the only features split over several modules are in code you do not own or a library generates (see "
             "facts: one run is no evidence for restructuring a library)");
  } else if (found.empty()) {
    rule_out(out, Mechanism::granular_modules,
             below_share.empty()
                 ? "no folder or package has two or more modules built once with the same device, block_dim and "
                   "options"
                 : fmt::format("merging the modules of a feature would save under {:.0f} % of their cold time (see "
                               "facts)",
                               100.0 * kGranularActShare));
  }
}

}  // namespace wcp::analysis
