#include "render/results_document.h"

#include <fmt/format.h>

#include "render/lever_ledger_document.h"
#include "render/results_cells.h"
#include "render/svg_charts.h"

namespace wcp::render {
namespace {

using markup::code;
using markup::plain;
using markup::strong;

markup::List mechanism_list(const char* title, const std::vector<results::MechanismLine>& lines) {
  markup::List list{title, {}};
  if (lines.empty()) list.items.push_back({plain("none")});
  for (const auto& line : lines) {
    list.items.push_back(
        {plain(std::string(info(line.mechanism).title) + (line.detail.empty() ? "" : ": " + line.detail))});
  }
  return list;
}

markup::Table clock_table(const verdict::Judgement& judgement) {
  markup::Table table{
      {{"clock"}, {"before (median ± MAD)"}, {"after (median ± MAD)"}, {"change"}, {"noise band"}, {"judged"}}, {}};
  for (const auto* clock : verdict::shown_clocks(judgement)) {
    table.rows.push_back({{plain(std::string(verdict::to_string(clock->clock)))},
                          {plain(summary_cell(clock->baseline))},
                          {plain(summary_cell(clock->candidate))},
                          {plain(change_cell(*clock))},
                          {plain(band_cell(*clock))},
                          {plain(std::string(verdict::to_string(clock->direction)))}});
  }
  return table;
}

markup::Block ledger_block(const results::Ledger& ledger) {
  if (ledger.declined.empty()) {
    return markup::Paragraph{{plain("No ledger was given ("), code("--ledger ledger.yaml"),
                              plain("); record here every option you measured and declined.")},
                             "unavailable"};
  }
  markup::Table table{{{"Option"}, {"Measured"}, {"Why not taken"}, {"To take it"}}, {}};
  for (const auto& entry : ledger.declined) {
    table.rows.push_back({{plain(entry.option)},
                          {plain(entry.measured)},
                          {plain(entry.why_not)},
                          {plain(entry.to_take_it.empty() ? "—" : entry.to_take_it)}});
  }
  return table;
}

markup::Table identity_table(const std::vector<results::IdentityBar>& identities) {
  markup::Table table{{{"module"}, {"hash"}, {"device"}, {"before", true}, {"after", true}}, {}};
  for (const auto& bar : identities) {
    table.rows.push_back({{code(bar.module)},
                          {plain(bar.hash.empty() ? "-" : bar.hash)},
                          {plain(bar.device)},
                          {plain(ms_cell(bar.baseline_ms))},
                          {plain(ms_cell(bar.candidate_ms))}});
  }
  return table;
}

std::string launches_text(const std::optional<std::uint64_t>& launches) {
  return launches ? std::to_string(*launches) : "?";
}

}  // namespace

markup::Document results_document(const results::ResultsReport& results) {
  const auto& judgement = results.judgement;
  const std::string verdict_word(verdict::to_string(judgement.verdict));
  markup::Document document{"Compile-time results", {}};
  auto& blocks = document.blocks;
  blocks.push_back(markup::Lines{
      {{plain("before: "), code(results.baseline_command)}, {plain("after: "), code(results.candidate_command)}}});
  blocks.push_back(markup::Paragraph{{strong("Verdict: " + verdict_word), plain(" — " + judgement.reason)},
                                     "verdict " + verdict_word});
  for (const auto& note : judgement.notes) blocks.push_back(markup::Note{note});
  blocks.push_back(clock_table(judgement));
  const auto& workload = judgement.workload;
  blocks.push_back(markup::Paragraph{
      {plain(fmt::format("Workload: {} (launches {} → {}).", verdict::to_string(workload.status),
                         launches_text(workload.baseline_launches), launches_text(workload.candidate_launches)))},
      ""});

  blocks.push_back(markup::Heading{2, "What compiling still costs"});
  blocks.push_back(markup::Paragraph{{plain(residual_sentence(results.residual))}, ""});
  blocks.push_back(markup::Figure{timeline_svg(results.baseline_timeline, "Before"), {}});
  blocks.push_back(markup::Figure{timeline_svg(results.candidate_timeline, "After"), {}});

  blocks.push_back(markup::Heading{2, "Mechanisms"});
  blocks.push_back(mechanism_list("Fixed by this change", results.fixed));
  blocks.push_back(mechanism_list("Still present", results.remaining));
  blocks.push_back(mechanism_list("Checked and ruled out", results.ruled_out));
  blocks.push_back(mechanism_list("Not reached by this measurement", results.not_reached));

  blocks.push_back(markup::Heading{2, "Options measured and not taken"});
  blocks.push_back(ledger_block(results.ledger));

  // Only when given: a report without `--levers` has no measured levers to speak of.
  if (results.levers) {
    blocks.push_back(markup::Heading{2, "Levers, measured"});
    for (auto& block : lever_ledger_summary_blocks(*results.levers)) blocks.push_back(std::move(block));
  }

  blocks.push_back(markup::Heading{2, "Builds per identity (cold run, ms)"});
  blocks.push_back(markup::Figure{identity_bars_svg(results.identities), {identity_table(results.identities)}});
  return document;
}

}  // namespace wcp::render
