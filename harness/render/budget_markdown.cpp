#include "render/budget_markdown.h"

#include <fmt/format.h>

#include "render/markdown.h"

#include <algorithm>

#include "render/budget_text.h"

namespace wcp::render {
namespace {

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
      Row row{3, "✅ pass", command.name, outcome.budget, format_budget_value(outcome.measured, outcome.unit),
              format_budget_value(outcome.limit, outcome.unit), outcome.note};
      if (outcome.verdict == budget::Verdict::fail) row.rank = 0, row.status = "❌ FAIL";
      if (outcome.verdict == budget::Verdict::improved) row.rank = 2, row.status = "🟢 improved";
      if (outcome.verdict == budget::Verdict::accepted) row.rank = 2, row.status = "📌 accepted";
      rows.push_back(std::move(row));
    }
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.rank < b.rank; });
  return rows;
}

}  // namespace

std::string render_budget_markdown(const budget::CheckResult& result) {
  std::string text = fmt::format("## Compile budgets: `{}`\n\n", result.file.filename().string());
  text += result.failed() ? "**Failed.**\n\n" : "**All budgets passed.**\n\n";
  text += "| Status | Command | Budget | Measured | Limit | Note |\n|---|---|---|---|---|---|\n";
  for (const auto& row : rows_of(result)) {
    text += fmt::format("| {} | `{}` | {} | {} | {} | {} |\n", row.status, markdown_cell(row.command), markdown_cell(row.budget),
                        row.measured, row.limit, markdown_cell(row.note));
  }
  for (const auto& command : result.commands) {
    for (const auto& outcome : command.outcomes) {
      if (outcome.verdict != budget::Verdict::fail || outcome.offenders.empty()) continue;
      text += fmt::format("\n### `{}`: {}\n\n", command.name, outcome.budget);
      for (const auto& offender : outcome.offenders) {
        text += fmt::format("- `{}`: {}", offender.module, offender.detail);
        if (const auto why = offender_explanation(offender); !why.empty()) text += " — " + why;
        text += "\n";
      }
    }
  }
  return text;
}

}  // namespace wcp::render
