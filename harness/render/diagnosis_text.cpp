#include "render/diagnosis_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <ostream>

#include "io/units.h"
#include "render/finding_text.h"
#include "render/option_receipts_text.h"
#include "render/user_actions_text.h"
#include "render/wrap.h"

namespace wcp::render {
namespace {

void render_finding(const analysis::Finding& finding, std::ostream& out) {
  out << fmt::format("\n[{}] {}\n", code(finding.mechanism), info(finding.mechanism).title);
  if (finding.owner) out << "    whose: " << finding.owner->describe() << '\n';
  if (!finding.trigger.empty()) out << "    trigger: " << finding.trigger << '\n';
  for (const auto& line : finding.evidence) out << "    - " << line << '\n';
  if (finding.cost_ms) {
    out << fmt::format("    cost: {:.0f} ms", *finding.cost_ms);
    if (!finding.cost_basis.empty()) out << " (" << finding.cost_basis << ")";
    out << '\n';
  } else if (!finding.cost_basis.empty()) {
    out << "    cost: " << finding.cost_basis << '\n';
  }
  out << "    fix: " << fix_text(finding) << '\n';
  out << "    behaviour: " << to_string(finding.fix_effect) << " (" << finding.behaviour << ")\n";
  if (!finding.limits.empty()) out << "    limits: " << finding.limits << '\n';
  out << "    see: " << doc_link(finding.mechanism) << '\n';
}

void render_boundary_pointer(const analysis::BoundaryProposal& proposal, std::ostream& out) {
  if (!proposal.changes || proposal.modules.empty()) return;
  const auto ms = proposal.ms_removed();
  out << fmt::format(
      "\nModule boundaries: regrouping the kernels of your {} module(s) removes {} build(s){} in this "
      "run; see `diagnose --boundaries`.\n",
      proposal.current_modules.size(), proposal.builds_removed(),
      ms ? fmt::format(" and ≈ {} (estimate)", whole_milliseconds_text(*ms)) : std::string());
}

std::string member_text(const analysis::GroupMember& member) {
  std::string text = member.module.empty()       ? std::string("several modules")
                     : member.modules.size() > 1 ? fmt::format("{}", fmt::join(member.modules, ", "))
                                                 : member.module;
  // As --verbose writes a finding's cost, so the two texts show the same figure.
  if (member.cost_ms) text += fmt::format(" {}{:.0f} ms", member.cost_estimated ? "≈ " : "", *member.cost_ms);
  return text;
}

std::string group_cost_text(const analysis::FindingGroup& group) {
  if (!group.total_cost_ms) return group.cost_basis.empty() ? "cost: not computed" : "cost: " + group.cost_basis;
  std::string text =
      fmt::format("total {}{}", group.cost_estimated ? "≈ " : "", whole_milliseconds_text(*group.total_cost_ms));
  if (group.cost_estimated) text += " (estimate)";
  if (group.costs_unknown > 0) text += fmt::format(", {} without a cost", group.costs_unknown);
  return text;
}

void render_group_summary(const analysis::Diagnosis& diagnosis, const analysis::FindingGroup& group,
                          std::ostream& out) {
  const auto& first = diagnosis.findings.at(group.members.front().finding);
  std::string heading = fmt::format("[{}] {}", code(group.mechanism), info(group.mechanism).title);
  if (group.owner) heading += " — " + group.owner->describe();
  out << '\n';
  print_wrapped(heading, "", "    ", out);
  std::vector<std::string> members;
  for (const auto& member : group.members) members.push_back(member_text(member));
  const bool all_named = std::all_of(group.members.begin(), group.members.end(),
                                     [](const analysis::GroupMember& member) { return !member.module.empty(); });
  std::size_t modules = 0;
  for (const auto& member : group.members) modules += std::max<std::size_t>(1, member.modules.size());
  const std::string lead = all_named ? fmt::format("{} module(s): ", modules) : std::string();
  print_wrapped(fmt::format("{}{}; {}", lead, fmt::join(members, ", "), group_cost_text(group)), "  ", "    ", out);
  // The screen holds each fix and observation whole, in its short form: the full fix, the
  // behaviour and the limits are in --verbose and --explain, never cut to fit here.
  const GroupText text = finding_group_text(group, diagnosis.findings);
  if (!text.short_fix.empty()) {
    print_wrapped(text.short_fix, "  fix: ", "    ", out);
  } else {
    // Nothing holds for all: each member's own, never the group's template with its blanks.
    for (const auto& member : group.members) {
      print_wrapped(short_fix_text(diagnosis.findings.at(member.finding)),
                    fmt::format("  fix ({}): ", member.module.empty() ? "several modules" : member.module), "    ",
                    out);
    }
  }
  // The one observation that fired the first member (or the members' shared one), and how far
  // this run establishes the cause; the rest are in --explain.
  std::string evidence = text.headline.empty() ? headline_text(first) : text.headline;
  if (text.headline.empty() && group.members.size() > 1)
    evidence += fmt::format(" (and {} more)", group.members.size() - 1);
  print_wrapped(fmt::format("{} — {} [--explain {}]", to_string(group.cause), evidence, code(group.mechanism)),
                "  cause: ", "    ", out);
}

std::string id_list(const std::vector<std::string_view>& ids) {
  return fmt::format("{}", fmt::join(ids, ", "));
}

}  // namespace

void render_diagnosis_summary_text(const analysis::Diagnosis& diagnosis, std::ostream& out) {
  out << "\nDiagnosis\n";
  print_wrapped(diagnosis.bottleneck, "  ", "  ", out);
  const analysis::UserActions& actions = diagnosis.actions;
  if (diagnosis.finding_groups.empty()) out << "  No compile-cost mechanism found.\n";
  // What this user can act on first (the entry point's settings, the cache, their own groups);
  // the groups about code they do not own follow, for its maintainers, not as things to do.
  if (actions.things_to_do() > 0) {
    print_wrapped(
        fmt::format("What you can do ({}), from {} finding(s):", actions.things_to_do(), diagnosis.findings.size()),
        "  ", "  ", out);
  } else if (!diagnosis.finding_groups.empty()) {
    print_wrapped(
        fmt::format("Nothing this run found is yours to change, from {} finding(s).", diagnosis.findings.size()), "  ",
        "  ", out);
  }
  render_entry_points_and_cache(actions, out);
  for (const std::size_t index : actions.own_groups)
    render_group_summary(diagnosis, diagnosis.finding_groups.at(index), out);
  if (!actions.packages.empty()) {
    out << "\nIn code you do not own, for its maintainers:\n";
    for (const auto& package : actions.packages) {
      for (const std::size_t index : package.groups)
        render_group_summary(diagnosis, diagnosis.finding_groups.at(index), out);
    }
  }
  if (diagnosis.boundaries && diagnosis.boundaries->changes && !diagnosis.boundaries->modules.empty()) {
    print_wrapped(fmt::format("Module boundaries: regrouping your kernels removes {} build(s); see `diagnose "
                              "--boundaries`.",
                              diagnosis.boundaries->builds_removed()),
                  "\n", "  ", out);
  }
  out << '\n';
  std::vector<std::string_view> ids;
  for (const auto& entry : diagnosis.ruled_out) ids.push_back(code(entry.mechanism));
  if (!ids.empty()) print_wrapped(id_list(ids), "Ruled out: ", "  ", out);
  ids.clear();
  for (const auto& entry : diagnosis.not_checked) ids.push_back(code(entry.mechanism));
  if (!ids.empty()) print_wrapped(id_list(ids), "Not checked: ", "  ", out);
  print_wrapped(
      "`diagnose --verbose` shows every finding's evidence, limits and behaviour, the option receipts, "
      "facts and why each mechanism was ruled out or not checked; `--explain ID` shows one.",
      "", "  ", out);
}

void render_mechanism_text(const analysis::Diagnosis& diagnosis, Mechanism mechanism, std::ostream& out) {
  bool said = false;
  for (const auto& finding : diagnosis.findings) {
    if (finding.mechanism != mechanism) continue;
    render_finding(finding, out);
    said = true;
  }
  for (const auto& entry : diagnosis.ruled_out) {
    if (entry.mechanism != mechanism) continue;
    out << fmt::format("\n[{}] {}\n    ruled out: {}\n    see: {}\n", code(mechanism), info(mechanism).title,
                       entry.signal, doc_link(mechanism));
    said = true;
  }
  for (const auto& entry : diagnosis.not_checked) {
    if (entry.mechanism != mechanism) continue;
    out << fmt::format("\n[{}] {}\n    not checked: {}\n    see: {}\n", code(mechanism), info(mechanism).title,
                       entry.reason, doc_link(mechanism));
    said = true;
  }
  if (!said) {
    out << fmt::format("\n[{}] {}\n    not found, ruled out or checked in this run\n    see: {}\n", code(mechanism),
                       info(mechanism).title, doc_link(mechanism));
  }
}

void render_diagnosis_text(const analysis::Diagnosis& diagnosis, std::ostream& out) {
  out << "\nDiagnosis\n";
  out << "  " << diagnosis.bottleneck << '\n';
  // What the user can do whoever's code the findings are about: settings at their entry point
  // (with what reaches which modules, and how the saving was estimated) and the kernel cache.
  if (!diagnosis.actions.settings.empty() || diagnosis.actions.keep_cache) {
    out << "  At your entry point and with the kernel cache:\n";
    render_entry_points_and_cache(diagnosis.actions, out, true);
  }
  const auto yours = static_cast<std::size_t>(std::count_if(diagnosis.findings.begin(), diagnosis.findings.end(),
                                                            [](const analysis::Finding& f) { return f.yours(); }));
  const std::size_t others = diagnosis.findings.size() - yours;
  if (diagnosis.findings.empty()) {
    out << "  No compile-cost mechanism found.\n";
  } else {
    out << fmt::format("  {} finding(s) you can act on in your code{}:\n", yours,
                       others > 0 ? fmt::format(", {} in code you do not own (below)", others) : std::string());
    for (const auto& finding : diagnosis.findings) {
      if (finding.yours()) render_finding(finding, out);
    }
    if (others > 0) {
      out << "\nIn code you do not own (Warp's, dependencies', or generated at run time by Warp)\n";
      for (const auto& finding : diagnosis.findings) {
        if (!finding.yours()) render_finding(finding, out);
      }
    }
  }
  if (diagnosis.option_receipts) render_option_receipts_text(*diagnosis.option_receipts, out);
  if (diagnosis.boundaries) render_boundary_pointer(*diagnosis.boundaries, out);
  if (!diagnosis.facts.empty()) {
    out << "\nFacts\n";
    for (const auto& fact : diagnosis.facts) out << "  " << fact << '\n';
  }
  if (!diagnosis.ruled_out.empty()) {
    out << "\nChecked and ruled out\n";
    for (const auto& entry : diagnosis.ruled_out)
      out << fmt::format("  {:<20} {}\n", code(entry.mechanism), entry.signal);
  }
  if (!diagnosis.not_checked.empty()) {
    out << "\nNot checked in this run\n";
    for (const auto& entry : diagnosis.not_checked)
      out << fmt::format("  {:<20} {}\n", code(entry.mechanism), entry.reason);
  }
}

void render_kernel_usage_text(const std::vector<ModuleUse>& usage, std::ostream& out) {
  if (usage.empty()) return;
  out << "\nCompiled versus launched (per module, this run)\n";
  out << fmt::format("  {:>8} {:>8} {:>8} {:>10}  {}\n", "compiled", "launched", "never", "est. ms", "module");
  for (const auto& module : usage) {
    out << fmt::format("  {:>8} {:>8} {:>8} {:>10}  {}{}\n", module.kernels.size(), module.launched(),
                       module.never_launched(),
                       module.unlaunched_ms ? fmt::format("{:.0f}", *module.unlaunched_ms) : "-", module.name,
                       module.device == "cpu" ? "" : " (" + module.device + ")");
  }
  out << "  est. ms: the builds' time × the never-launched kernels' share of the generated source (an estimate; verify "
         "with `compare`). Other workloads may launch them.\n";
}

void render_boundaries_text(const analysis::BoundaryProposal& proposal, std::ostream& out) {
  out << "\nModule boundaries (a proposal with its evidence, never an edit)\n";
  if (proposal.current_modules.empty()) {
    out << "  No kernels of yours to regroup: every compiled module here is Warp's, a dependency's or generated at run "
           "time.\n";
  } else {
    out << fmt::format("  Now:      {} module(s) of yours, {} build(s) in this run, {}: {}\n",
                       proposal.current_modules.size(), proposal.current_builds,
                       whole_milliseconds_text(proposal.current_ms), fmt::join(proposal.current_modules, ", "));
    out << fmt::format(
        "  Proposed: {} module(s), {} build(s) in this run{}\n", proposal.modules.size(), proposal.proposed_builds,
        proposal.proposed_ms ? fmt::format(", ≈ {} (estimate)", whole_milliseconds_text(*proposal.proposed_ms)) : "");
    if (!proposal.changes) {
      out << "  Your kernels are already grouped by lifecycle, options and block_dim: nothing to move.\n";
    } else {
      const auto ms = proposal.ms_removed();
      out << fmt::format("  Removes:  {} build(s){}\n", proposal.builds_removed(),
                         ms ? fmt::format(", ≈ {} (estimate)", whole_milliseconds_text(*ms)) : "");
    }
    for (const auto& module : proposal.modules) {
      std::vector<std::string> traits;
      traits.push_back(module.launched ? "launched in this run" : "never launched in this run");
      traits.push_back(module.distinct_options.empty() ? "options as the rest" : "options " + module.distinct_options);
      if (!module.devices.empty()) traits.push_back(fmt::format("on {}", fmt::join(module.devices, ", ")));
      if (module.block_dim) traits.push_back(fmt::format("block_dim {}", *module.block_dim));
      if (module.varying_block_dim) traits.push_back("block_dim varies at run time: kept alone");
      out << fmt::format("\n  {}  {}\n", module.name, fmt::join(traits, " · "));
      out << fmt::format("     kernels: {}\n", fmt::join(module.kernels, ", "));
      out << fmt::format("     from:    {}\n", fmt::join(module.from_modules, ", "));
      out << fmt::format("     builds in this run: {}{}\n", module.builds,
                         module.estimated_ms ? fmt::format(", ≈ {}", whole_milliseconds_text(*module.estimated_ms))
                         : module.launched   ? std::string()
                                             : std::string(" (built only by programs that launch them)"));
    }
    out << "\n  How: put each group's kernels in one Python module imported at start-up (or give them one module with "
           "module=wp.get_module(\"<name>\")), and set that group's options there with wp.set_module_options.\n";
    out << "  " << proposal.basis << '\n';
    for (const auto& note : proposal.notes) out << "  Note: " << note << '\n';
  }
  if (!proposal.unmovable.empty()) {
    // One line per owner and reason: a library's twenty modules are one fact.
    std::vector<std::pair<std::string, std::vector<std::string>>> groups;
    for (const auto& module : proposal.unmovable) {
      const std::string key = module.owner + ": " + module.reason;
      auto found = std::find_if(groups.begin(), groups.end(), [&](const auto& group) { return group.first == key; });
      if (found == groups.end()) {
        groups.emplace_back(key, std::vector<std::string>{});
        found = std::prev(groups.end());
      }
      found->second.push_back(module.module);
    }
    out << "\n  Cannot move\n";
    constexpr std::size_t kShown = 4;
    for (const auto& [key, modules] : groups) {
      std::vector<std::string> shown(modules.begin(), modules.begin() + std::min(modules.size(), kShown));
      out << fmt::format("    {} module(s), {}\n      {}{}\n", modules.size(), key, fmt::join(shown, ", "),
                         modules.size() > kShown ? fmt::format(" and {} more", modules.size() - kShown) : "");
    }
  }
}

}  // namespace wcp::render
