#include "render/budget_summary_text.h"

#include <fmt/format.h>

#include <ostream>

#include "render/budget_text.h"
#include "render/identity_changes_text.h"
#include "render/wrap.h"

namespace wcp::render {
void render_command_summary(const budget::CommandResult& result, std::ostream& out) {
  // Skipped and unmeasured commands are one line already.
  if (result.not_run || result.run_failure) {
    render_command_result(result, out);
    return;
  }
  out << fmt::format("\n{} (line {})\n", result.name, result.line);
  if (result.sampling) print_fitted("  " + result.sampling->summary, "      ", out);
  for (const auto& outcome : result.outcomes) {
    // The columns stay aligned whatever the note's length: a note too long for the line goes
    // under it, wrapped.
    if (const std::string line = budget_line(outcome); columns(line) <= kScreenColumns) {
      out << line << "\n";
    } else {
      out << budget_line_columns(outcome) << "\n";
      print_wrapped("(" + outcome.note + ")", "      ", "       ", out);
    }
    if (outcome.verdict == budget::Verdict::fail && result.since_baseline) {
      print_wrapped(identity_changes_brief(*result.since_baseline), "      since the baseline: ", "        ", out);
    }
    if (outcome.offenders.empty()) continue;
    const auto& worst = outcome.offenders.front();
    print_wrapped(offender_headline(worst), "      ", "        ", out);
    if (const auto why = offender_explanation(worst); !why.empty()) print_wrapped(why, "        ", "        ", out);
    if (outcome.offenders.size() > 1)
      out << fmt::format("      and {} more offender(s)\n", outcome.offenders.size() - 1);
  }
  if (result.baseline_written) print_fitted("  baseline updated: " + result.baseline_written->string(), "      ", out);
  if (result.baseline_not_written)
    print_fitted("  baseline not updated: " + *result.baseline_not_written, "      ", out);
}

void render_budget_summary_pointer(std::ostream& out) {
  out << "`check --verbose`: every note, reference and offender of each budget\n";
}

}  // namespace wcp::render
