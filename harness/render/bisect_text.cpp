#include "render/bisect_text.h"

#include <fmt/format.h>

#include <ostream>

#include "render/judgement_text.h"

namespace wcp::render {
namespace {

void render_bisect_visits(const std::vector<bisect::VisitLine>& visits, std::ostream& out) {
  bool any_skipped = false;
  for (const auto& line : visits) {
    if (line.after_bisection || line.visit.outcome != bisect::StepOutcome::skip) continue;
    if (!any_skipped) out << "Skipped:\n";
    any_skipped = true;
    out << "  " << line.described << ": " << line.visit.reason << "\n";
  }
  out << "Visited (in order):\n";
  for (const auto& line : visits) {
    out << fmt::format("  {:<5} {}{}  {}\n", bisect::to_string(line.visit.outcome), line.described,
                       line.after_bisection ? " (checked after the bisection)" : "", line.visit.reason);
  }
}

}  // namespace

void render_bisect_text(const bisect::BisectResult& result, std::ostream& out) {
  if (result.ending == bisect::BisectEnding::aborted) return;
  if (result.ending != bisect::BisectEnding::first_bad) {
    out << result.reason << "\n";
    render_bisect_visits(result.visits, out);
    return;
  }
  const auto& first_bad = *result.first_bad;
  const auto& parent = *result.parent;
  out << "First bad commit: " << first_bad.line << "\n";
  out << "  " << result.reason << "\n";
  out << "Parent: " << parent.line << " (" << result.parent_outcome << ")\n";
  render_bisect_visits(result.visits, out);
  for (const auto& structure : result.structure) {
    out << fmt::format("\n{}: parent {} -> first bad {}\n", structure.entry, parent.sha.substr(0, 12),
                       first_bad.sha.substr(0, 12));
    render_structure(structure.judgement, out);
  }
  if (result.structure.empty()) out << "\nStructure: unavailable (no report measured at both commits)\n";
}

}  // namespace wcp::render
