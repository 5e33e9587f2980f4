#include "render/budget_markdown.h"

#include <fmt/format.h>

#include "render/markdown.h"

#include <algorithm>

#include "render/budget_text.h"
#include "render/identity_changes_text.h"

namespace wcp::render {
namespace {

// How many lines a command's structural delta against its baseline takes in a PR comment.
constexpr std::size_t kMarkdownDeltaLines = 8;

struct Row {
  int rank;  // failures first, then not run, improvements, passes
  std::string status, command, budget, measured, limit, note;
};

std::vector<Row> rows_of(const budget::CheckResult& result) {
  std::vector<Row> rows;
  for (const auto& command : result.commands) {
    if (command.not_run) {
      rows.push_back({1, "⏭️ not run", command.name, "", "", "", *command.not_run});
      continue;
    }
    if (command.run_failure) {
      rows.push_back({0, "❌ FAIL", command.name, "(run)", "", "", *command.run_failure});
      continue;
    }
    for (const auto& outcome : command.outcomes) {
      Row row{3,
              "✅ pass",
              command.name,
              outcome.budget,
              format_budget_value(outcome.measured, outcome.unit),
              format_budget_value(outcome.limit, outcome.unit),
              outcome.note};
      if (outcome.verdict == budget::Verdict::fail) row.rank = 0, row.status = "❌ FAIL";
      if (outcome.verdict == budget::Verdict::improved) row.rank = 2, row.status = "🟢 improved";
      if (outcome.verdict == budget::Verdict::accepted) row.rank = 2, row.status = "📌 accepted";
      if (outcome.verdict == budget::Verdict::not_judged) row.rank = 1, row.status = "⏸️ not judged";
      rows.push_back(std::move(row));
    }
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.rank < b.rank; });
  return rows;
}

}  // namespace

std::string render_budget_markdown(const budget::CheckResult& result) {
  std::string text = fmt::format("## Compile budgets: `{}`\n\n", result.file.filename().string());
  text += result.failed()           ? "**Failed.**\n\n"
          : result.not_judged() > 0 ? "**Passed, but not judged against the baseline** (see below: decide with "
                                      "`check --against-rev <merge base>`).\n\n"
                                    : "**All budgets passed.**\n\n";
  text += "| Status | Command | Budget | Measured | Limit | Note |\n|---|---|---|---|---|---|\n";
  for (const auto& row : rows_of(result)) {
    text += fmt::format("| {} | `{}` | {} | {} | {} | {} |\n", row.status, markdown_cell(row.command),
                        markdown_cell(row.budget), row.measured, row.limit, markdown_cell(row.note));
  }
  text += "\n";
  for (const auto& command : result.commands) {
    if (command.sampling)
      text += fmt::format("- `{}`: {}\n", markdown_cell(command.name), markdown_cell(command.sampling->summary));
  }
  for (const auto& command : result.commands) {
    if (command.failed() && command.since_baseline) {
      // Context for every failure of the command, the timing one included; never a verdict.
      text += fmt::format("\n### `{}`: since the baseline\n\n", command.name);
      text += fmt::format("{}\n\n", markdown_cell(identity_changes_brief(*command.since_baseline)));
      for (const auto& line : identity_change_lines(*command.since_baseline, kMarkdownDeltaLines))
        text += fmt::format("- {}\n", markdown_cell(line));
    }
    for (const auto& outcome : command.outcomes) {
      if (outcome.verdict != budget::Verdict::fail || outcome.offenders.empty()) continue;
      text += fmt::format("\n### `{}`: {}\n\n", command.name, outcome.budget);
      for (const auto& offender : outcome.offenders) {
        text += fmt::format("- {}", markdown_cell(offender_headline(offender)));
        if (const auto why = offender_explanation(offender); !why.empty()) text += " — " + why;
        text += "\n";
      }
    }
  }
  return text;
}

}  // namespace wcp::render
