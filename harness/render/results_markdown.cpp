#include "render/results_markdown.h"

#include <fmt/format.h>

#include "render/markdown.h"

#include "render/results_cells.h"

namespace wcp::render {
namespace {

void mechanism_list(std::string& out, const char* heading, const std::vector<results::MechanismLine>& lines) {
  out += fmt::format("\n**{}**\n\n", heading);
  if (lines.empty()) {
    out += "- none\n";
    return;
  }
  for (const auto& line : lines) {
    out += fmt::format("- {}{}\n", info(line.mechanism).title, line.detail.empty() ? "" : ": " + line.detail);
  }
}

}  // namespace

std::string render_results_markdown(const results::ResultsReport& results) {
  const auto& judgement = results.judgement;
  std::string out = "# Compile-time results\n\n";
  out += fmt::format("- before: `{}`\n- after: `{}`\n\n", results.baseline_command, results.candidate_command);
  out += fmt::format("**Verdict: {}** — {}\n", verdict::to_string(judgement.verdict), judgement.reason);
  for (const auto& note : judgement.notes) out += fmt::format("\n> {}\n", note);
  out += "\n| clock | before (median ± MAD) | after (median ± MAD) | change | noise band | judged |\n";
  out += "|---|---|---|---|---|---|\n";
  for (const auto* clock : {&judgement.module_work, &judgement.compile_elapsed}) {
    out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", verdict::to_string(clock->clock), summary_cell(clock->baseline),
                       summary_cell(clock->candidate), change_cell(*clock), band_cell(*clock),
                       verdict::to_string(clock->direction));
  }
  out += fmt::format("\nWorkload: {} (launches {} → {}).\n", verdict::to_string(judgement.workload.status),
                     judgement.workload.baseline_launches ? std::to_string(*judgement.workload.baseline_launches) : "?",
                     judgement.workload.candidate_launches ? std::to_string(*judgement.workload.candidate_launches) : "?");

  out += "\n## What compiling still costs\n\n" + residual_sentence(results) + "\n";

  out += "\n## Mechanisms\n";
  mechanism_list(out, "Fixed by this change", results.fixed);
  mechanism_list(out, "Still present", results.remaining);
  mechanism_list(out, "Checked and ruled out", results.ruled_out);
  mechanism_list(out, "Not reached by this measurement", results.not_reached);

  out += "\n## Options measured and not taken\n\n";
  if (results.ledger.declined.empty()) {
    out += "No ledger was given (`--ledger ledger.yaml`); record here every option you measured and declined.\n";
  } else {
    out += "| Option | Measured | Why not taken | To take it |\n|---|---|---|---|\n";
    for (const auto& entry : results.ledger.declined) {
      out += fmt::format("| {} | {} | {} | {} |\n", markdown_cell(entry.option), markdown_cell(entry.measured), markdown_cell(entry.why_not),
                         entry.to_take_it.empty() ? "—" : markdown_cell(entry.to_take_it));
    }
  }

  out += "\n## Builds per identity (cold run, ms)\n\n| module | hash | device | before | after |\n|---|---|---|---:|---:|\n";
  for (const auto& bar : results.identities) {
    out += fmt::format("| `{}` | {} | {} | {} | {} |\n", markdown_cell(bar.module), bar.hash.empty() ? "-" : bar.hash, bar.device,
                       ms_cell(bar.baseline_ms), ms_cell(bar.candidate_ms));
  }
  return out;
}

}  // namespace wcp::render
