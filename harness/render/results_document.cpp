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

// The candidate's CUDA build per arch, the costliest kernels first (at most this many rows).
constexpr std::size_t kCudaKernelRows = 10;

void add_cuda_blocks(const CudaBuildRanking& ranking, std::vector<markup::Block>& blocks) {
  blocks.push_back(markup::Heading{2, "CUDA build after the change (Warp's NVRTC, no GPU)"});
  if (!ranking.unavailable.empty()) {
    blocks.push_back(markup::Paragraph{{plain("Unavailable: " + ranking.unavailable)}, "unavailable"});
    return;
  }
  for (const auto& arch : ranking.archs) {
    std::string line = fmt::format("sm_{}: {} module(s) built", arch.arch, arch.modules_built);
    if (arch.cpu_ms) line += fmt::format(", {:.0f} ms of CPU (median)", arch.cpu_ms->median);
    if (arch.modules_failed > 0) line += fmt::format(", {} failed", arch.modules_failed);
    if (arch.headers_ms_per_module)
      line += fmt::format("; Warp's headers {:.0f} ms per module in {} trace(s)", *arch.headers_ms_per_module,
                          arch.modules_with_headers);
    blocks.push_back(markup::Paragraph{{plain(line + ".")}, ""});
    if (arch.kernels.empty()) continue;
    markup::Table table{{{"kernel"}, {"module"}, {"forward ms", true}, {"backward ms", true}, {"total ms", true}}, {}};
    for (std::size_t at = 0; at < std::min(kCudaKernelRows, arch.kernels.size()); ++at) {
      const auto& kernel = arch.kernels[at];
      table.rows.push_back({{code(kernel.kernel)},
                            {code(kernel.module)},
                            {plain(ms_cell(kernel.forward_ms))},
                            {plain(ms_cell(kernel.backward_ms))},
                            {plain(fmt::format("{:.0f}", kernel.total_ms))}});
    }
    blocks.push_back(std::move(table));
  }
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
  if (results.cuda_after) add_cuda_blocks(*results.cuda_after, blocks);
  return document;
}

}  // namespace wcp::render
