#include "render/diagnosis_brief_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <string>

#include "io/units.h"
#include "render/wrap.h"

namespace wcp::render {
namespace {

// "3 module(s), total ≈ 900 ms (estimate)": as `diagnose` writes a group's cost, without naming
// the modules (`diagnose` does).
std::string group_extent(const analysis::FindingGroup& group) {
  const bool all_named = std::all_of(group.members.begin(), group.members.end(),
                                     [](const analysis::GroupMember& member) { return !member.module.empty(); });
  std::string text = fmt::format("{} {}", group.members.size(), all_named ? "module(s)" : "finding(s)");
  if (!group.total_cost_ms) {
    text += ", cost not computed";
  } else {
    text +=
        fmt::format(", total {}{}", group.cost_estimated ? "≈ " : "", whole_milliseconds_text(*group.total_cost_ms));
    if (group.cost_estimated) text += " (estimate)";
  }
  return text;
}

// One line: what the start of a long fix is, marked "…" where it was cut.
std::string first_line(std::string_view text, std::string_view prefix) {
  auto lines = wrap(text, kScreenColumns - 1, prefix, "");
  if (lines.size() > 1) lines.front() += "…";
  return lines.front();
}

void render_group(const analysis::FindingGroup& group, std::ostream& out) {
  std::string heading = fmt::format("[{}] {}", code(group.mechanism), info(group.mechanism).title);
  if (group.owner) heading += " — " + group.owner->describe();
  print_wrapped(fmt::format("{}: {}", heading, group_extent(group)), "  ", "      ", out);
  out << first_line(group.fix, "    fix: ") << '\n';
}

}  // namespace

void render_diagnosis_brief_text(const analysis::Diagnosis& diagnosis, std::string_view saved_report,
                                 std::ostream& out) {
  out << "\nDiagnosis\n";
  print_wrapped(diagnosis.bottleneck, "  ", "  ", out);
  if (diagnosis.finding_groups.empty()) out << "  No compile-cost mechanism found.\n";
  // Yours first, as `diagnose` orders them.
  for (const bool yours : {true, false}) {
    for (const auto& group : diagnosis.finding_groups) {
      if (group.yours() == yours) render_group(group, out);
    }
  }
  print_wrapped(fmt::format("{} mechanism(s) ruled out, {} not checked.", diagnosis.ruled_out.size(),
                            diagnosis.not_checked.size()),
                "  ", "  ", out);
  const std::string diagnose = saved_report.empty() ? std::string("`diagnose` on a `measure --json` report")
                                                    : fmt::format("`diagnose {}`", saved_report);
  print_wrapped(fmt::format("{} shows each finding's modules, costs and evidence and the ids ruled out and not "
                            "checked; `measure --verbose` prints the full diagnosis.",
                            diagnose),
                "", "  ", out);
}

}  // namespace wcp::render
