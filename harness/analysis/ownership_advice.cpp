// Scope of advice = scope of evidence. A finding about a module the user does not own (Warp's,
// a dependency's, or one Warp generated from the user's code) keeps its evidence but changes its
// fix to what this user can do: options at their entry point or in their own Python module,
// keeping the kernel cache, or reporting upstream with the measurement. It never tells them to
// edit a dependency.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/diagnose_support.h"

namespace wcp::analysis {
namespace {

std::string package_name(const ModuleOwnership& owner) {
  if (!owner.package) return owner.owner == Owner::warp ? "Warp" : "the package";
  return owner.package->version.empty() ? owner.package->name : owner.package->name + " " + owner.package->version;
}

std::string upstream(const ModuleOwnership& owner) {
  return owner.owner == Owner::warp ? "Warp's maintainers (github.com/NVIDIA/warp/issues)"
                                    : "the maintainers of " + package_name(owner);
}

// Why the module's code is not the user's to change, in one sentence.
std::string whose(const ModuleOwnership& owner) {
  if (owner.owner == Owner::user && owner.generator) {
    return fmt::format("Not yours to restructure: {} generates these modules at run time from your code in {}, and "
                       "their boundaries and kernels are its choice.",
                       owner.generated_by, owner.python_module);
  }
  if (owner.owner == Owner::warp) return fmt::format("Not yours to change: this is Warp's own code ({}).", package_name(owner));
  if (owner.owner == Owner::dependency) {
    return fmt::format("Not yours to change: this code belongs to {}; never edit an installed package.",
                       package_name(owner));
  }
  return "Not yours to change.";
}

constexpr std::string_view kKeepCache =
    " Either way, a kernel cache kept between runs (and persisted in CI) means only cold starts pay for it.";

std::string report_upstream(const ModuleOwnership& owner) {
  return fmt::format(" If the cost matters to you, report it to {} with this measurement (`measure --json`).",
                     upstream(owner));
}

// What this user can do instead, per mechanism.
std::string instead(Mechanism mechanism, const ModuleOwnership& owner) {
  const bool generated_from_user = owner.owner == Owner::user && owner.generator.has_value();
  switch (mechanism) {
    case Mechanism::late_kernel:
    case Mechanism::closure_churn:
    case Mechanism::changed_reference:
    case Mechanism::late_generic:
    case Mechanism::late_option:
    case Mechanism::identity_churn:
      return " The evidence names the line of yours that reached each rebuild: nothing in your code removes it "
             "without changing what the program launches." +
             (generated_from_user ? std::string() : report_upstream(owner));
    case Mechanism::granular_modules:
    case Mechanism::unique_modules:
      if (generated_from_user) {
        return fmt::format(" {} builds one module per integrand (and field and option set) it integrates; fewer "
                           "modules would mean fewer distinct integrals, a change of workload. Nothing to merge on "
                           "your side.",
                           owner.generated_by);
      }
      return " Its author chose these module boundaries (module=\"unique\" keeps kernels made per type or at run time "
             "from rebuilding their neighbours); nothing to merge on your side." +
             report_upstream(owner);
    case Mechanism::unused_backward:
      if (generated_from_user) {
        return fmt::format(" {0} copies the module options of {1} into every module it generates from it: call "
                           "wp.set_module_options({{\"enable_backward\": False}}) at the top of {1}, before the first "
                           "integration, if nothing in your program differentiates these integrals.",
                           owner.generated_by, owner.python_module);
      }
      if (owner.owner == Owner::dependency) {
        return fmt::format(" What you can do: at your entry point set wp.config.enable_backward = False right after "
                           "`import warp` and before importing {}; its modules copy the setting when they are "
                           "created. Only if your program never differentiates through it.",
                           package_name(owner));
      }
      return " What you can do: at your entry point set wp.config.enable_backward = False right after `import warp` "
             "and before importing warp.fem, warp.sparse or warp.optim; Warp's modules created after that line copy "
             "it (on warp.examples.fem.example_diffusion it removed the backward code of every such module). Only if "
             "your program never differentiates through them; verify with `compare`.";
    case Mechanism::unroll_budget:
      if (generated_from_user) {
        return fmt::format(" {0} copies max_unroll from the module options of {1}: wp.set_module_options({{\"max_unroll\": "
                           "N}}) at the top of {1} reaches these modules; measure compile and run time.",
                           owner.generated_by, owner.python_module);
      }
      return " Its unroll budget is its author's choice." + report_upstream(owner);
    case Mechanism::never_launched:
      return " A library's module holds kernels for many programs; this run used some of them. Nothing to move on "
             "your side." +
             report_upstream(owner);
    default: return report_upstream(owner);
  }
}

std::string limits_for(Mechanism mechanism, const ModuleOwnership& owner) {
  if (mechanism == Mechanism::unused_backward) {
    return "Leave backward on wherever a Tape or adjoint launch may use the kernels; a setting at your entry point "
           "applies to every module created after it, " +
           std::string(owner.owner == Owner::dependency ? "the library's included." : "Warp's included.");
  }
  return "";
}

}  // namespace

void assign_owner(Finding& finding, const ModuleOwnership& owner) {
  finding.owner = owner;
  if (owner.users_to_change()) return;
  finding.fix = whose(owner) + instead(finding.mechanism, owner) + std::string(kKeepCache);
  finding.limits = limits_for(finding.mechanism, owner);
}

std::string not_yours_and_ruled_out(const ModuleOwnership& owner, std::string_view reason) {
  return whose(owner) + " " + std::string(reason) + std::string(kKeepCache);
}

std::string trigger_text(const TriggerFrames& frames) {
  if (!frames.site) return "triggered with no stack recorded";
  std::string text = "triggered at " + where(*frames.site);
  const bool site_is_yours = frames.user_innermost && *frames.user_innermost == *frames.site;
  if (site_is_yours) {
    if (frames.user_outermost && *frames.user_outermost != *frames.site) text += " under " + where(*frames.user_outermost);
    return text;
  }
  if (!frames.user_innermost) return text + ", with no frame of your code on the stack";
  text += ", reached from your code at " + where(*frames.user_innermost);
  if (frames.user_outermost && *frames.user_outermost != *frames.user_innermost) {
    text += " under " + where(*frames.user_outermost);
  }
  return text;
}

FindingsByOwner::FindingsByOwner(Mechanism mechanism, const CodeOwnership& ownership)
    : mechanism_(mechanism), ownership_(ownership) {}

Finding& FindingsByOwner::for_module(const std::string& module_name) {
  const ModuleOwnership owner = ownership_.of_module(module_name);
  const std::string key = owner.describe();
  auto found = std::find_if(groups_.begin(), groups_.end(), [&](const auto& group) { return group.first == key; });
  if (found == groups_.end()) {
    Finding finding = make_finding(mechanism_);
    assign_owner(finding, owner);
    groups_.emplace_back(key, std::move(finding));
    found = std::prev(groups_.end());
  }
  auto& modules = found->second.modules;
  if (std::find(modules.begin(), modules.end(), module_name) == modules.end()) modules.push_back(module_name);
  return found->second;
}

bool FindingsByOwner::empty() const {
  return std::all_of(groups_.begin(), groups_.end(), [](const auto& group) { return group.second.evidence.empty(); });
}

void FindingsByOwner::emit(Diagnosis& out) {
  // The user's own first: that is what they can act on.
  std::stable_partition(groups_.begin(), groups_.end(), [](const auto& group) { return group.second.yours(); });
  for (auto& [key, finding] : groups_) {
    if (!finding.evidence.empty()) out.findings.push_back(std::move(finding));
  }
  groups_.clear();
}

}  // namespace wcp::analysis
