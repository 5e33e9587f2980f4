#include "render/lever_ledger_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <ostream>

#include "render/lever_cells.h"
#include "render/wrap.h"
#include "results/lever_option_text.h"
#include "results/lever_tally.h"

namespace wcp::render {
namespace {

// Ids wider than this get a line of their own above their row.
constexpr std::size_t kIdColumnMax = 30;
constexpr std::size_t kIdColumnMin = 12;

std::string_view lever_status_column(LeverStatus status) {
  return status == LeverStatus::needed_by_program ? "needed" : results::status_words(status);
}

// Cold module work unless marked: only the scheduling levers are judged on elapsed.
std::string lever_clock_column(const LeverOutcome& outcome) {
  return (results::judged_on_elapsed(outcome) ? "elapsed " : "") + lever_before_after(results::judged_clock(outcome));
}

// A row: its columns padded, then what it says last (the behaviour for a measured lever, else why
// it was not measured), wrapped under the clock column so the columns stay aligned.
void render_lever_row(const LeverOutcome& outcome, std::size_t width, const std::string& continuation,
                      std::ostream& out) {
  // An id wider than its column gets a line of its own, so the columns below it stay aligned.
  const bool id_alone = columns(outcome.lever.id) > width;
  if (id_alone) out << "  " << outcome.lever.id << '\n';
  std::string head = fmt::format("  {:<{}} {:<14} ", id_alone ? std::string() : outcome.lever.id, width,
                                 lever_status_column(outcome.status));
  std::string last;
  if (outcome.status == LeverStatus::measured) {
    head += fmt::format("{:<24} {:<12} ", lever_clock_column(outcome), lever_verdict_cell(outcome));
    last = outcome.behaviour.empty() ? "behaviour unknown" : outcome.behaviour;
  } else if (!outcome.reason.empty()) {
    last = outcome.reason;
  } else if (!outcome.behaviour_evidence.empty()) {
    last = outcome.behaviour_evidence.front();
  }
  print_wrapped(last, head, continuation, out);
}

void render_lever_table(const LeverLedger& ledger, std::ostream& out) {
  std::size_t width = kIdColumnMin;
  for (const auto& outcome : ledger.outcomes) width = std::max(width, columns(outcome.lever.id));
  width = std::min(width, kIdColumnMax);
  const std::string continuation(2 + width + 1 + 15, ' ');
  print_fitted(fmt::format("  {:<{}} {:<14} {:<24} {:<12} {}", "lever", width, "status", "before → after (cold)",
                           "verdict", "behaviour"),
               continuation, out);
  for (const auto& outcome : ledger.outcomes) render_lever_row(outcome, width, continuation, out);
}

void render_take_it(const LeverLedger& ledger, std::ostream& out) {
  bool any = false;
  for (const auto& outcome : ledger.outcomes) {
    if (results::effect_of(outcome) != results::LeverEffect::saves) continue;
    if (!any) out << "To take it:\n";
    any = true;
    print_wrapped(outcome.take_it.empty() ? results::lever_option_text(outcome.lever) : outcome.take_it,
                  "  " + outcome.lever.id + ": ", "    ", out);
  }
  if (any) return;
  if (const int undecided = results::tally(ledger).undecided; undecided > 0) {
    print_wrapped(fmt::format("No lever was credited yet: {} left the band, but too few pairs agreed; measure "
                              "them again with more --pairs (e.g. --only <id> --pairs {}).",
                              undecided, std::max(ledger.pairs * 2, 5)),
                  "", "  ", out);
  } else {
    print_wrapped("No lever saved compile time beyond the noise: nothing to take.", "", "  ", out);
  }
}

// One labelled line of a lever's --verbose block; nothing when there is nothing to say.
void lever_detail(std::string_view label, const std::string& text, std::ostream& out) {
  if (text.empty()) return;
  print_wrapped(text, fmt::format("    {:<10} ", label), "               ", out);
}

std::string lever_clock_detail(const LeverClock& clock) {
  std::string text = lever_clock_cell(clock);
  if (!clock.verdict.empty()) text += ": " + clock.verdict;
  if (!clock.detail.empty()) text += " — " + clock.detail;
  return text;
}

void render_lever_block(const LeverOutcome& outcome, std::ostream& out) {
  out << "\n";
  const std::string status(results::status_words(outcome.status));
  print_wrapped(outcome.status == LeverStatus::measured ? status + " — " + lever_verdict_cell(outcome) : status,
                "  " + outcome.lever.id + ": ", "    ", out);
  lever_detail("option", results::lever_option_text(outcome.lever), out);
  lever_detail("scope", outcome.scope, out);
  lever_detail("owner", outcome.owner, out);
  lever_detail("why", outcome.reason, out);
  if (results::was_run(outcome)) {
    lever_detail("arrival",
                 outcome.arrival.empty() ? "not proved: nothing in the run shows it arrived" : outcome.arrival, out);
    lever_detail("cold", "module work " + lever_clock_detail(outcome.cold_module), out);
    lever_detail("elapsed", "compile " + lever_clock_detail(outcome.compile_elapsed), out);
    lever_detail("judged on", lever_judged_clock_name(outcome), out);
    lever_detail("workload", std::string(results::workload_words(outcome.workload)), out);
  }
  lever_detail("behaviour", outcome.behaviour, out);
  for (const auto& evidence : outcome.behaviour_evidence) lever_detail("evidence", evidence, out);
  lever_detail("predicted", lever_prediction_cell(outcome), out);
  lever_detail("take it", outcome.take_it, out);
  lever_detail("pairs", outcome.decided_by, out);
}

}  // namespace

void render_lever_ledger_text(const LeverLedger& ledger, bool verbose, std::ostream& out) {
  print_wrapped(fmt::format("{}", fmt::join(ledger.command, " ")), "Levers for ", "  ", out);
  print_wrapped(lever_run_line(ledger), "  ", "  ", out);
  print_wrapped(lever_headline(results::tally(ledger)), "", "  ", out);
  if (ledger.outcomes.empty()) return;
  out << "\n";
  render_lever_table(ledger, out);
  if (verbose) {
    for (const auto& outcome : ledger.outcomes) render_lever_block(outcome, out);
    out << "\n";
  }
  render_take_it(ledger, out);
  if (!verbose) {
    print_wrapped(
        "`levers --verbose`: each lever's scope, owner, proof of arrival, both clocks, behaviour evidence and "
        "prediction; --json, --markdown, --html and --ledger write the ledger",
        "", "  ", out);
  }
}

}  // namespace wcp::render
