#pragma once
// `check` results as plain text: one line per budget (verdict, measured, limit), and under a
// failure the offending modules with the finding that explains each.
#include <iosfwd>
#include <string>

#include "budget/budget_result.h"

namespace wcp::render {

void render_budget_header(const std::filesystem::path& file, std::ostream& out);
void render_command_result(const budget::CommandResult& result, std::ostream& out);
void render_budget_summary(const budget::CheckResult& result, std::ostream& out);

// "3", "1.234 s", "12.0 KiB": shared by the text and markdown renderers.
std::string format_budget_value(const std::optional<double>& value, budget::Unit unit);  // "unavailable" when absent
std::string comparison_sign(const budget::BudgetOutcome& outcome);
// "identity churn — CS-1 Kernel defined after its module loaded: <explanation>; fix: …"
std::string offender_explanation(const budget::Offender& offender);
// "module: detail; first built by test" or, for a test budget's offender, "test id: detail".
std::string offender_headline(const budget::Offender& offender);
// "  fail             cold_module_seconds         2.345 s > 1.000 s  (note)": one budget's line.
std::string budget_line(const budget::BudgetOutcome& outcome);
// The aligned columns of that line (verdict, budget, value, limit) without its note.
std::string budget_line_columns(const budget::BudgetOutcome& outcome);

}  // namespace wcp::render
