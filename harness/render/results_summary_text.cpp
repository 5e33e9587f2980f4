#include "render/results_summary_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <ostream>

#include "render/clock_line.h"
#include "render/lever_cells.h"
#include "render/results_cells.h"
#include "render/wrap.h"

namespace wcp::render {
namespace {

// The titles, as the Markdown lists them ("none" when empty); each one's detail is in --verbose.
std::string titles_text(const std::vector<results::MechanismLine>& lines) {
  if (lines.empty()) return "none";
  std::vector<std::string_view> titles;
  for (const auto& line : lines) titles.push_back(info(line.mechanism).title);
  return fmt::format("{}", fmt::join(titles, "; "));
}

}  // namespace

void render_results_summary_text(const results::ResultsReport& results, std::ostream& out) {
  const auto& judgement = results.judgement;
  print_wrapped(judgement.reason, fmt::format("Verdict: {} — ", verdict::to_string(judgement.verdict)), "  ", out);
  for (const auto* clock : verdict::shown_clocks(judgement)) {
    render_clock_lines(*clock, out);
  }
  out << fmt::format("Workload: {}\n", verdict::to_string(judgement.workload.status));
  print_wrapped(residual_sentence(results.residual), "", "  ", out);
  print_wrapped(titles_text(results.fixed), "Fixed by this change: ", "  ", out);
  print_wrapped(titles_text(results.remaining), "Still present: ", "  ", out);
  out << fmt::format("Checked and ruled out: {} mechanism(s); not reached by this measurement: {}\n",
                     results.ruled_out.size(), results.not_reached.size());
  out << (results.ledger.declined.empty()
              ? std::string("Ledger: none given (--ledger ledger.yaml)\n")
              : fmt::format("Ledger: {} option(s) measured and not taken\n", results.ledger.declined.size()));
  if (results.levers) print_wrapped(lever_headline(results::tally(*results.levers)), "Levers: ", "  ", out);
  print_wrapped(
      "`report --verbose`: the full Markdown (tables, each mechanism's detail, the ledger, the levers, the "
      "builds per identity); --markdown FILE and --html FILE write it",
      "", "  ", out);
}

}  // namespace wcp::render
