#include "render/lever_ledger_document.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "render/lever_cells.h"
#include "results/lever_option_text.h"
#include "results/lever_tally.h"

namespace wcp::render {
namespace {

using markup::code;
using markup::plain;
using markup::strong;

markup::Text lever_take_it_cell(const LeverOutcome& outcome) {
  if (outcome.take_it.empty()) return {plain("—")};
  return {plain(outcome.take_it)};
}

markup::Table lever_table(const LeverLedger& ledger) {
  markup::Table table{{{"Lever"},
                       {"Option and scope"},
                       {"Status"},
                       {"Cold module work"},
                       {"Compile elapsed"},
                       {"Verdict"},
                       {"Behaviour"},
                       {"Workload"},
                       {"Predicted → measured"},
                       {"To take it"}},
                      {}};
  for (const auto& outcome : ledger.outcomes) {
    markup::Text option{code(results::lever_option_text(outcome.lever))};
    if (!outcome.scope.empty()) option.push_back(plain(" — " + outcome.scope));
    const bool ran = results::was_run(outcome);
    table.rows.push_back({{code(outcome.lever.id)},
                          option,
                          {plain(std::string(results::status_words(outcome.status)))},
                          {plain(ran ? lever_clock_cell(outcome.cold_module) : "not run")},
                          {plain(ran ? lever_clock_cell(outcome.compile_elapsed) : "not run")},
                          {plain(outcome.status == LeverStatus::measured ? lever_verdict_cell(outcome) : "—")},
                          {plain(outcome.behaviour.empty() ? "unknown" : outcome.behaviour)},
                          {plain(std::string(results::workload_words(outcome.workload)))},
                          {plain(lever_prediction_cell(outcome))},
                          lever_take_it_cell(outcome)});
  }
  return table;
}

markup::List lever_details(const LeverOutcome& outcome) {
  markup::List list{fmt::format("{} — {}", outcome.lever.id, results::status_words(outcome.status)), {}};
  const auto item = [&list](const char* label, const std::string& text) {
    if (!text.empty()) list.items.push_back({strong(label), plain(" " + text)});
  };
  item("Why:", outcome.reason);
  item("Owner:", outcome.owner);
  item("Behaviour:", outcome.behaviour);
  if (results::was_run(outcome)) {
    item("Arrival:", outcome.arrival.empty() ? "not proved: nothing in the run shows it arrived" : outcome.arrival);
    for (const auto& [name, clock] : {std::pair{"Cold module work:", &outcome.cold_module},
                                      std::pair{"Compile elapsed:", &outcome.compile_elapsed}}) {
      std::string text = lever_clock_cell(*clock);
      if (!clock->verdict.empty()) text += ": " + clock->verdict;
      if (!clock->detail.empty()) text += " — " + clock->detail;
      item(name, text);
    }
    item("Judged on:", lever_judged_clock_name(outcome));
  }
  for (const auto& evidence : outcome.behaviour_evidence) item("Evidence:", evidence);
  return list;
}

}  // namespace

std::vector<markup::Block> lever_ledger_summary_blocks(const LeverLedger& ledger) {
  std::vector<markup::Block> blocks;
  blocks.push_back(markup::Lines{{{plain("command: "), code(fmt::format("{}", fmt::join(ledger.command, " ")))},
                                  {plain(lever_run_line(ledger))}}});
  blocks.push_back(markup::Paragraph{{strong(lever_headline(results::tally(ledger)))}, "verdict levers"});
  if (!ledger.outcomes.empty()) blocks.push_back(lever_table(ledger));
  return blocks;
}

markup::Document lever_ledger_document(const LeverLedger& ledger) {
  markup::Document document{"Levers, measured", lever_ledger_summary_blocks(ledger)};
  if (ledger.outcomes.empty()) return document;
  document.blocks.push_back(markup::Heading{2, "Each lever"});
  for (const auto& outcome : ledger.outcomes) document.blocks.push_back(lever_details(outcome));
  return document;
}

}  // namespace wcp::render
