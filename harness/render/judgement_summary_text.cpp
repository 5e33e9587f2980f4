#include "render/judgement_summary_text.h"
#include "render/judgement_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <ostream>

#include "render/clock_line.h"
#include "render/identity_changes_text.h"
#include "render/wrap.h"

namespace wcp::render {
namespace {

// How many changed modules the screen names, and how many lines explain them.
constexpr std::size_t kNamedModules = 3;
constexpr std::size_t kIdentityLines = 6;

std::string count_text(const std::optional<std::uint64_t>& count) {
  return count ? std::to_string(*count) : std::string("?");
}

void render_structure_summary(const verdict::Judgement& judgement, std::ostream& out) {
  std::vector<std::string> changed;
  for (const auto& count : judgement.counts) {
    if (count.baseline && count.candidate && count.baseline != count.candidate) {
      changed.push_back(
          fmt::format("{} {} -> {}", to_string(count.count), count_text(count.baseline), count_text(count.candidate)));
    }
  }
  print_wrapped(changed.empty() ? std::string("no count changed") : fmt::format("{}", fmt::join(changed, ", ")),
                "Structure: ", "  ", out);
  const auto& identities = judgement.identity_changes;
  if (identities.unavailable.empty()) {
    if (identities.empty()) return;
    out << "Module identities (baseline -> candidate):\n";
    for (const auto& line : identity_change_lines(identities, kIdentityLines)) print_wrapped(line, "  ", "    ", out);
    return;
  }
  // Nothing to explain them with: name the modules whose hashes moved, as before.
  std::vector<std::string> moved;
  for (const auto& row : judgement.modules) {
    if (row.changed) moved.push_back(row.module);
  }
  if (moved.empty()) return;
  const std::size_t more = moved.size() > kNamedModules ? moved.size() - kNamedModules : 0;
  moved.resize(moved.size() - more);
  print_wrapped(fmt::format("{}{}", fmt::join(moved, ", "), more > 0 ? fmt::format(" and {} more", more) : ""),
                fmt::format("Module hashes changed ({}): ", moved.size() + more), "  ", out);
  print_wrapped(identities.unavailable, "  not explained: ", "    ", out);
}

std::string options_text(const verdict::OptionComparison& options) {
  if (!options.baseline_snapshots || !options.candidate_snapshots) return "not compared (no per-load option snapshots)";
  std::string text = options.changes.empty() ? std::string(
                                                   "every module shared by both runs was built with the same "
                                                   "options")
                                             : fmt::format("{} module option(s) differ", options.changes.size());
  if (!options.writes.empty()) text += fmt::format("; {} option(s) set in one run only", options.writes.size());
  return text;
}

}  // namespace

void render_judgement_summary_text(const verdict::Judgement& judgement, std::ostream& out) {
  print_wrapped(judgement.reason, fmt::format("Verdict: {} — ", verdict::to_string(judgement.verdict)), "  ", out);
  for (const auto& warning : judgement.warnings) print_wrapped(warning, "warning: ", "  ", out);
  if (judgement.wall_clock_reason) print_wrapped(*judgement.wall_clock_reason, "Clock: ", "  ", out);
  for (const auto* clock : verdict::shown_clocks(judgement)) {
    render_clock_lines(*clock, out);
  }
  render_cuda_moves(judgement, out);
  const auto& workload = judgement.workload;
  out << fmt::format("Workload: {} (launches {} -> {})\n", verdict::to_string(workload.status),
                     workload.baseline_launches ? std::to_string(*workload.baseline_launches) : "no record",
                     workload.candidate_launches ? std::to_string(*workload.candidate_launches) : "no record");
  if (workload.status != verdict::WorkloadStatus::equivalent && !workload.reason.empty()) {
    print_wrapped(workload.reason, "  ", "  ", out);
  }
  render_structure_summary(judgement, out);
  print_wrapped(options_text(judgement.options), "Options: ", "  ", out);
  print_wrapped(fmt::format("`compare --verbose`: the full comparison (the count and module hash tables, each "
                            "option, {} note(s), the decision rules)",
                            judgement.notes.size()),
                "", "  ", out);
}

}  // namespace wcp::render
