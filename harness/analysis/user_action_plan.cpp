#include "analysis/user_action_plan.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/deadlines.h"
#include "facts/ownership.h"
#include "facts/queries.h"

namespace wcp::analysis {
namespace {

// Code whose owner is a distribution the user installed (a dependency, Warp): its findings are
// for its maintainers. Modules Warp generated from the user's own code are not: the user's
// Python module is where their options go.
bool for_maintainers(const std::optional<ModuleOwnership>& owner) {
  return owner && !owner->generator && (owner->owner == Owner::dependency || owner->owner == Owner::warp);
}

std::string package_of(const ModuleOwnership& owner) {
  if (owner.package)
    return owner.package->version.empty() ? owner.package->name : owner.package->name + " " + owner.package->version;
  return owner.describe();
}

std::vector<std::string> modules_of(const Finding& finding) {
  if (!finding.modules.empty()) return finding.modules;
  if (!finding.module.empty()) return {finding.module};
  return {};
}

// The build time of a module's backward code, estimated as kernel_usage estimates a never-launched
// kernel's: each build's time × the backward code's share of its generated source. A module one
// of whose builds made the precompiled header has no estimate (that build's time is mostly the
// header's), nor has one without a per-kernel split of its source.
std::optional<double> backward_ms(const std::vector<ModuleUse>& usage, const std::string& module) {
  const auto use = std::find_if(usage.begin(), usage.end(), [&](const ModuleUse& m) { return m.name == module; });
  if (use == usage.end() || use->built_pch) return std::nullopt;
  std::uint64_t backward = 0;
  std::uint64_t all = 0;
  for (const auto& kernel : use->kernels) {
    if (!kernel.forward_bytes || !kernel.backward_bytes) return std::nullopt;
    backward += *kernel.backward_bytes;
    all += kernel.bytes();
  }
  if (all == 0) return std::nullopt;
  return use->build_ms * static_cast<double>(backward) / static_cast<double>(all);
}

// enable_backward off at the entry point (lever `backward-off`), for unused backward code in
// modules of code the user does not own: the one setting of theirs that reaches those modules.
std::optional<EntryPointSetting> backward_off(const Report& report, const Diagnosis& diagnosis) {
  EntryPointSetting setting;
  std::vector<std::string> packages;
  for (const auto& finding : diagnosis.findings) {
    if (finding.mechanism != Mechanism::unused_backward || !for_maintainers(finding.owner)) continue;
    for (auto& module : modules_of(finding)) {
      if (std::find(setting.modules.begin(), setting.modules.end(), module) == setting.modules.end())
        setting.modules.push_back(module);
    }
    if (finding.owner->package &&
        std::find(packages.begin(), packages.end(), finding.owner->package->name) == packages.end())
      packages.push_back(finding.owner->package->name);
  }
  if (setting.modules.empty()) return std::nullopt;
  setting.lever = "backward-off";
  setting.setting = "wp.config.enable_backward = False";
  const auto deadline = setting_deadline(report, setting.modules);
  if (deadline && (deadline->kind != SettingDeadline::Kind::kernel_definition || deadline->users_code)) {
    setting.advice = fix_with<&FixAction::settings>(FixKind::set_before_deadline,
                                                    std::vector<SettingAt>{{"enable_backward", "False", *deadline}});
  } else {
    // No line of the user's is on record before those modules are created: the import that
    // creates them is theirs, whatever it is called.
    setting.advice = fix_with<&FixAction::settings>(FixKind::set_at_entry_point,
                                                    std::vector<SettingAt>{{"enable_backward", "False", {}}});
    setting.advice.package = packages.empty() ? std::string("the package") : packages.front();
  }
  setting.condition = "only if nothing differentiates through them";
  for (const auto& module : setting.modules) {
    if (const auto ms = backward_ms(diagnosis.kernel_usage, module)) {
      setting.saving_ms = setting.saving_ms.value_or(0.0) + *ms;
      ++setting.modules_priced;
    }
  }
  setting.saving_basis =
      "estimate: each build's time × the backward code's share of its generated source (builds that also made the "
      "precompiled header left out); `levers` measures it";
  return setting;
}

std::optional<KeepCache> keep_cache(const Report& report) {
  if (!report.cold_wall_ms || !report.warm_wall_ms) return std::nullopt;
  // Only a warm run that compiled nothing measured what a kept cache gives (one that compiled
  // again is CS-2's finding).
  if (warm_compile_evidence(report).compiled != false) return std::nullopt;
  return KeepCache{report.cold_wall_ms->median, report.warm_wall_ms->median};
}

}  // namespace

UserActions plan_user_actions(const Report& report, const Diagnosis& diagnosis) {
  UserActions actions;
  if (auto setting = backward_off(report, diagnosis)) actions.settings.push_back(std::move(*setting));
  actions.keep_cache = keep_cache(report);
  std::vector<std::size_t> generated;  // modules Warp generated from the user's code: theirs to configure
  for (std::size_t index = 0; index < diagnosis.finding_groups.size(); ++index) {
    const FindingGroup& group = diagnosis.finding_groups[index];
    if (group.yours()) {
      actions.own_groups.push_back(index);
    } else if (!for_maintainers(group.owner)) {
      generated.push_back(index);
    } else {
      const std::string package = package_of(*group.owner);
      auto found = std::find_if(actions.packages.begin(), actions.packages.end(),
                                [&](const PackageFindings& entry) { return entry.package == package; });
      if (found == actions.packages.end()) {
        found = actions.packages.insert(actions.packages.end(), PackageFindings{package, 0, {}});
      }
      found->findings += group.members.size();
      found->groups.push_back(index);
    }
  }
  actions.own_groups.insert(actions.own_groups.end(), generated.begin(), generated.end());
  if (!actions.settings.empty()) {
    actions.levers_command = {"warp-compile-probe", "levers", "--"};
    actions.levers_command.insert(actions.levers_command.end(), report.command.begin(), report.command.end());
  }
  return actions;
}

}  // namespace wcp::analysis
