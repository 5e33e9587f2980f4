#include "render/diagnosis_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <ostream>

#include "render/option_receipts_text.h"

namespace wcp::render {
namespace {

std::string ms_text(double ms) {
  if (ms >= 10000.0) return fmt::format("{:.1f} s", ms / 1000.0);
  return fmt::format("{:.0f} ms", ms);
}

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
  out << "    fix: " << finding.fix << '\n';
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
      ms ? fmt::format(" and ≈ {} (estimate)", ms_text(*ms)) : std::string());
}

}  // namespace

void render_diagnosis_text(const analysis::Diagnosis& diagnosis, std::ostream& out) {
  out << "\nDiagnosis\n";
  out << "  " << diagnosis.bottleneck << '\n';
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
                       proposal.current_modules.size(), proposal.current_builds, ms_text(proposal.current_ms),
                       fmt::join(proposal.current_modules, ", "));
    out << fmt::format("  Proposed: {} module(s), {} build(s) in this run{}\n", proposal.modules.size(),
                       proposal.proposed_builds,
                       proposal.proposed_ms ? fmt::format(", ≈ {} (estimate)", ms_text(*proposal.proposed_ms)) : "");
    if (!proposal.changes) {
      out << "  Your kernels are already grouped by lifecycle, options and block_dim: nothing to move.\n";
    } else {
      const auto ms = proposal.ms_removed();
      out << fmt::format("  Removes:  {} build(s){}\n", proposal.builds_removed(),
                         ms ? fmt::format(", ≈ {} (estimate)", ms_text(*ms)) : "");
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
                         module.estimated_ms ? fmt::format(", ≈ {}", ms_text(*module.estimated_ms))
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
