#include "render/budget_text.h"

#include <fmt/format.h>

#include <ostream>

#include "io/units.h"
#include "render/identity_changes_text.h"
#include "render/report_text.h"

namespace wcp::render {
namespace {
// How many lines the full text gives a failure's structural delta against the baseline.
constexpr std::size_t kTextDeltaLines = 10;
}  // namespace

std::string format_budget_value(const std::optional<double>& value, budget::Unit unit) {
  if (!value) return "unavailable";
  switch (unit) {
    case budget::Unit::count:
      return fmt::format("{:.0f}", *value);
    case budget::Unit::seconds:
      return fmt::format("{:.3f} s", *value);
    case budget::Unit::bytes:
      return bytes_text(static_cast<std::uint64_t>(*value));
    case budget::Unit::units:
      return fmt::format("{:.2f} units", *value);
  }
  return "";
}

std::string comparison_sign(const budget::BudgetOutcome& outcome) {
  if (!outcome.measured || !outcome.limit) return "vs";
  return *outcome.measured <= *outcome.limit ? "<=" : ">";
}

std::string offender_headline(const budget::Offender& offender) {
  if (offender.module.empty()) return fmt::format("test {}: {}", offender.test, offender.detail);
  if (offender.test.empty()) return fmt::format("{}: {}", offender.module, offender.detail);
  return fmt::format("{}: {}; first built by {}", offender.module, offender.detail, offender.test);
}

std::string offender_explanation(const budget::Offender& offender) {
  std::string text;
  if (offender.rebuild) {
    switch (*offender.rebuild) {
      case RebuildCause::identity_churn:
        text = "identity churn";
        break;
      case RebuildCause::block_dim_spread:
        text = "block_dim spread";
        break;
      case RebuildCause::both:
        text = "identity churn and block_dim spread";
        break;
      case RebuildCause::same_identity:
        text = "same identity built again";
        break;
      case RebuildCause::several_processes:
        text = "built in several processes";
        break;
    }
  }
  if (offender.mechanism) {
    text +=
        fmt::format("{}{} {}", text.empty() ? "" : " — ", code(*offender.mechanism), info(*offender.mechanism).title);
  }
  if (!offender.explanation.empty()) text += (text.empty() ? "" : ": ") + offender.explanation;
  if (!offender.fix.empty()) text += (text.empty() ? "fix: " : "; fix: ") + offender.fix;
  return text;
}

std::string budget_line_columns(const budget::BudgetOutcome& outcome) {
  std::string line = fmt::format("  {:<16} {:<27} {}", to_string(outcome.verdict), outcome.budget,
                                 format_budget_value(outcome.measured, outcome.unit));
  if (outcome.limit) {
    line += fmt::format(" {} {}", comparison_sign(outcome), format_budget_value(outcome.limit, outcome.unit));
  }
  return line;
}

std::string budget_line(const budget::BudgetOutcome& outcome) {
  return budget_line_columns(outcome) + (outcome.note.empty() ? "" : "  (" + outcome.note + ")");
}

void render_budget_header(const std::filesystem::path& file, std::ostream& out) {
  out << "compile budgets: " << file.string() << "\n";
}

void render_command_result(const budget::CommandResult& result, std::ostream& out) {
  out << fmt::format("\n{} (line {})\n", result.name, result.line);
  if (result.not_run) {
    out << "  NOT RUN  " << *result.not_run << "\n";
    return;
  }
  if (result.run_failure) {
    out << "  FAIL     the command could not be measured: " << *result.run_failure << "\n";
    return;
  }
  if (result.sampling) out << "  runs: " << result.sampling->summary << "\n";
  for (const auto& note : result.notes) out << "  note: " << note << "\n";
  for (const auto& outcome : result.outcomes) {
    out << budget_line(outcome) << "\n";
    if (!outcome.decided_by.empty()) out << "      decided by: " << outcome.decided_by << "\n";
    if (outcome.judgement) {
      for (const auto& note : outcome.judgement->notes) out << "      note: " << note << "\n";
    }
    if (const auto& use = outcome.reference) {
      out << fmt::format("      reference ({}): {} {}; {:.1f} ms, MAD {:.1f}, {} sample(s)\n", use->source,
                         to_string(use->kind), use->description, use->cost_ms.median, use->cost_ms.mad.value_or(0.0),
                         use->cost_ms.count);
      out << fmt::format("      units {:.2f} ± {:.2f} (band; MAD {:.2f} over {} {})\n", use->units.median,
                         use->band_units, use->units.mad.value_or(0.0), use->units.count,
                         use->same_run ? "interleaved pair(s)" : "sample(s) against the stored reference");
      if (use->drift) {
        out << fmt::format("      stored calibration's reference {:.1f} ms: this run {:+.0f}%\n", *use->stored_ms,
                           100.0 * *use->drift);
      }
    }
    for (const auto& offender : outcome.offenders) {
      out << "      " << offender_headline(offender) << "\n";
      if (const auto why = offender_explanation(offender); !why.empty()) out << "        " << why << "\n";
    }
    if (outcome.verdict == budget::Verdict::fail && result.since_baseline) {
      out << "      since the baseline (context, not the verdict):\n";
      for (const auto& line : identity_change_lines(*result.since_baseline, kTextDeltaLines))
        out << "        " << line << "\n";
      if (result.since_baseline->empty() && result.since_baseline->unavailable.empty())
        out << "        no module identity changed\n";
    }
  }
  if (result.baseline_written) out << "  baseline updated: " << result.baseline_written->string() << "\n";
  if (result.baseline_not_written) out << "  baseline not updated: " << *result.baseline_not_written << "\n";
}

void render_budget_summary(const budget::CheckResult& result, std::ostream& out) {
  int failed = 0, not_run = 0, improved = 0;
  for (const auto& command : result.commands) {
    failed += command.failed() ? 1 : 0;
    not_run += command.not_run ? 1 : 0;
    improved += command.improved() ? 1 : 0;
  }
  const int not_judged = result.not_judged();
  const int passed = static_cast<int>(result.commands.size()) - failed - not_run - not_judged;
  out << fmt::format("\n{} command(s): {} passed, {} failed, {} not run", result.commands.size(), passed, failed,
                     not_run);
  if (not_judged > 0) out << fmt::format(", {} not judged", not_judged);
  out << "\n";
  if (not_judged > 0) {
    out << fmt::format(
        "{} command(s) NOT JUDGED against their baseline: the runs could not see a regression of the "
        "size the budget must catch; decide them in pairs: `warp-compile-probe check {} --against-rev "
        "<merge base>`\n",
        not_judged, result.file.string());
  }
  if (improved > 0) {
    out << fmt::format(
        "{} command(s) beat their baseline: run `warp-compile-probe check {} --update-baseline` to accept\n", improved,
        result.file.string());
  }
}

}  // namespace wcp::render
