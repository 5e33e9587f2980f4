#include "render/diagnosis_brief_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <string>

#include "io/units.h"
#include "render/finding_text.h"
#include "render/user_actions_text.h"
#include "render/wrap.h"

namespace wcp::render {
namespace {

// "3 module(s), total ≈ 900 ms (estimate)": as `diagnose` writes a group's cost, without naming
// the modules (`diagnose` does).
std::string group_extent(const analysis::FindingGroup& group) {
  const bool all_named = std::all_of(group.members.begin(), group.members.end(),
                                     [](const analysis::GroupMember& member) { return !member.module.empty(); });
  std::size_t modules = 0;
  for (const auto& member : group.members) modules += std::max<std::size_t>(1, member.modules.size());
  std::string text =
      all_named ? fmt::format("{} module(s)", modules) : fmt::format("{} finding(s)", group.members.size());
  if (!group.total_cost_ms) {
    text += ", cost not computed";
  } else {
    text +=
        fmt::format(", total {}{}", group.cost_estimated ? "≈ " : "", whole_milliseconds_text(*group.total_cost_ms));
    if (group.cost_estimated) text += " (estimate)";
  }
  return text;
}

// A group's members beyond this many are counted, not shown: the brief stays one screen with
// `measure`'s report however many modules a group touches (`diagnose` lists them all).
constexpr std::size_t kMembersShown = 3;

// Each line whole: a name, a number or a path that does not fit the rest of a line starts the
// next one.
void print_whole(std::string_view text, std::string_view first_prefix, std::ostream& out) {
  print_wrapped(text, first_prefix, "      ", out);
}

void render_group(const analysis::Diagnosis& diagnosis, const analysis::FindingGroup& group, std::ostream& out) {
  std::string heading = fmt::format("[{}] {}", code(group.mechanism), info(group.mechanism).title);
  if (group.owner) heading += " — " + group.owner->describe();
  print_wrapped(fmt::format("{}: {}", heading, group_extent(group)), "  ", "      ", out);
  // One fact and one fix for the whole group where one holds for all its members; otherwise each
  // member's own, never a template with its blanks. Where this run does not confirm the cause,
  // the fact says so (`diagnose` names every group's status; this brief shares measure's screen).
  const bool open_cause = group.cause != analysis::CauseStatus::confirmed;
  const std::string cause = open_cause ? fmt::format("cause: {} — ", to_string(group.cause)) : "";
  const GroupText text = finding_group_text(group, diagnosis.findings);
  if (!text.headline.empty()) print_whole(cause + text.headline, "    ", out);
  if (text.headline.empty() && open_cause) print_whole(fmt::format("cause: {}", to_string(group.cause)), "    ", out);
  const bool each_member_fix = text.short_fix.empty();
  if (text.headline.empty() || each_member_fix) {
    const std::size_t shown = group.members.size() > kMembersShown ? kMembersShown - 1 : group.members.size();
    for (std::size_t index = 0; index < shown; ++index) {
      const analysis::Finding& member = diagnosis.findings.at(group.members[index].finding);
      if (text.headline.empty()) print_whole(headline_text(member), "    - ", out);
      if (each_member_fix)
        print_whole(short_fix_text(member), text.headline.empty() ? "      fix: " : "    fix: ", out);
    }
    if (shown < group.members.size())
      print_whole(fmt::format("and {} more", group.members.size() - shown), "    ", out);
  }
  if (!each_member_fix) print_whole(text.short_fix, "    fix: ", out);
}

}  // namespace

void render_diagnosis_brief_text(const analysis::Diagnosis& diagnosis, std::string_view saved_report,
                                 std::ostream& out) {
  out << "\nDiagnosis\n";
  print_wrapped(diagnosis.bottleneck, "  ", "  ", out);
  // What this user can act on first, each with its cost: the entry point's settings, the cache,
  // then their own code's groups (analysis/user_action_plan.h orders them).
  const analysis::UserActions& actions = diagnosis.actions;
  if (diagnosis.finding_groups.empty()) out << "  No compile-cost mechanism found.\n";
  if (actions.things_to_do() > 0) {
    out << fmt::format("  What you can do ({}):\n", actions.things_to_do());
  } else if (!diagnosis.finding_groups.empty()) {
    out << "  Nothing this run found is yours to change.\n";
  }
  render_entry_points_and_cache(actions, out);
  for (const std::size_t index : actions.own_groups) render_group(diagnosis, diagnosis.finding_groups.at(index), out);
  // Findings in code the user does not own are not things to do: one line per package.
  if (!actions.packages.empty()) {
    out << "  In code you do not own:\n";
    render_package_lines(actions, out);
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
