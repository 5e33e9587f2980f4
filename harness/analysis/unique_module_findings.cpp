// CS-9 (module="unique" on stable kernels): one-kernel modules that could share a module, grouped
// by whose code they are; unique_module_origin.cpp tells constants from data.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/diagnose_support.h"
#include "analysis/unique_module_origin.h"
#include "io/units.h"

namespace wcp::analysis {
namespace {

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

// The kernels alone ("center"), each with its definition where the snapshot has it: what a line
// that has no room for where each came from names.
std::vector<KernelFact> kernel_facts(const std::vector<const UniqueModule*>& modules) {
  std::vector<KernelFact> out;
  for (const UniqueModule* module : modules) {
    const std::string label = kernel_label(*module);
    KernelFact kernel{label.substr(0, label.find(" (")), std::nullopt};
    if (module->snapshot != nullptr) kernel.site = site_at(module->snapshot->file, module->snapshot->line);
    out.push_back(std::move(kernel));
  }
  return out;
}

std::vector<std::string> kernel_names(const std::vector<const UniqueModule*>& modules) {
  std::vector<std::string> out;
  for (const auto& kernel : kernel_facts(modules)) out.push_back(kernel.name);
  return out;
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
    case UniqueOrigin::constants:
      return "made from constants";
    case UniqueOrigin::data:
      return "made from data at run time";
    case UniqueOrigin::unknown:
      return "cannot tell";
  }
  return "cannot tell";
}

}  // namespace

void check_unique_modules(const Report& report, const DiagnoseInputs& inputs, Diagnosis& out) {
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
  for (auto& module : modules) classify_origin(report, contents.at(module.kernel).size(), module);

  std::map<std::string, std::vector<const UniqueModule*>> by_scope;
  for (const auto& module : modules) by_scope[scope_of(module.owner)].push_back(&module);
  std::vector<Finding> found;
  std::vector<std::string> kept;
  std::size_t undecided = 0;  // unique kernels no finding could use: the run cannot tell their origin
  for (const auto& [scope, members] : by_scope) {
    std::vector<const UniqueModule*> constants, unknown, data, candidates;
    for (const UniqueModule* module : members) {
      auto& bucket = module->origin == UniqueOrigin::constants ? constants
                     : module->origin == UniqueOrigin::data    ? data
                                                               : unknown;
      bucket.push_back(module);
      // In code the user does not own, only kernels the run shows are made from constants are
      // evidence: "cannot tell" is not (issue 40's field review: Warp's generic `Any` kernels and
      // a library's factories that need per-variant options were all "cannot tell", and none was
      // stable). In the user's own code the finding says it cannot tell and how to check.
      if (module->origin == UniqueOrigin::constants ||
          (module->origin == UniqueOrigin::unknown && module->owner.owner == Owner::user))
        candidates.push_back(module);
    }
    for (const UniqueModule* module : data) kept.push_back(fmt::format("{} ({})", module->event->name, module->why));
    if (candidates.size() < 2) {  // one module on its own merges with nothing
      if (unknown.size() >= 2) {
        std::vector<std::string> names;
        for (const UniqueModule* module : unknown) names.push_back(module->kernel);
        out.facts.push_back(fmt::format(
            "{} ({}): {} module=\"unique\" kernels this run cannot tell are made from constants or from data ({}); "
            "no finding without that evidence",
            scope, members.front()->owner.describe(), unknown.size(), fmt::join(names, ", ")));
        undecided += unknown.size();
      }
      continue;
    }
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
      finding.evidence.push_back(fmt::format(
          "module {} ({}): {}, {}{}; {}: {}", module->event->name, module->event->hash, kernel_label(*module),
          milliseconds_text(module->event->ms), module->event->built_pch ? " (includes the precompiled header)" : "",
          origin_text(module->origin), module->why));
    }
    add_merge_saving(finding, candidates.size(), fixed_module_cost(report, inputs.fixed_cost));
    if (finding.cost_ms && !unknown.empty()) {
      finding.cost_basis += fmt::format("; counts the {} the run cannot tell about: at most this", unknown.size());
    }
    finding.fix = unique_fix(constants, unknown, data);
    finding.facts.event = EventKind::unique_kernels_stable;
    finding.facts.kernels = kernel_facts(constants);
    finding.facts.names = kernel_names(unknown);
    finding.facts.fix = fix_with<&FixAction::kernels>(FixKind::drop_unique, finding.facts.kernels);
    finding.facts.fix.names = finding.facts.names;
    // Made from constants is seen in the recorded hashes; a kernel the run cannot tell about
    // leaves the cause open for it.
    finding.cause = unknown.empty()     ? CauseStatus::confirmed
                    : constants.empty() ? CauseStatus::cannot_tell
                                        : CauseStatus::inferred;
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
    if (undecided > 0) signal += fmt::format(" ({} the run cannot tell about: see the facts)", undecided);
    if (!kept.empty()) signal += fmt::format("; made from data at run time, rightly unique: {}", fmt::join(kept, "; "));
    rule_out(out, Mechanism::unique_modules, std::move(signal));
    return;
  }
  std::stable_partition(found.begin(), found.end(), [](const Finding& finding) { return finding.yours(); });
  for (auto& finding : found) out.findings.push_back(std::move(finding));
}

}  // namespace wcp::analysis
