#include "render/judgement_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <ostream>

namespace wcp::render {
namespace {

using verdict::ClockComparison;
using verdict::Direction;

std::string side(const std::optional<Summary>& summary) {
  if (!summary) return "unavailable";
  std::string text = fmt::format("{:.1f}", summary->median);
  text += summary->mad ? fmt::format(" ± {:.1f}", *summary->mad) : " ± ?";
  text += summary->count > 0 ? fmt::format(" (n={})", summary->count) : " (n=?)";
  return text;
}

void render_clock(const ClockComparison& clock, std::ostream& out) {
  const std::string delta =
      clock.delta_ms ? fmt::format("{:+.1f}{}", *clock.delta_ms,
                                   clock.delta_percent ? fmt::format(" ({:+.1f}%)", *clock.delta_percent) : "")
                     : "—";
  const std::string band = clock.band_ms ? fmt::format("±{:.1f}", *clock.band_ms) : "—";
  out << fmt::format("  {:<18} {:<26} {:<26} {:<20} {:<12} {}\n", to_string(clock.clock), side(clock.baseline),
                     side(clock.candidate), delta, band, to_string(clock.direction));
  if (clock.paired) {
    const auto& paired = *clock.paired;
    out << fmt::format("  {:<18} paired over {} pairs: median delta {:+.1f} ms, MAD {:.1f}; candidate faster in {}, "
                       "slower in {}, equal in {}\n",
                       "", paired.pairs, paired.median_delta, paired.mad_delta, paired.faster, paired.slower,
                       paired.equal);
  }
}

void render_workload(const verdict::WorkloadCheck& workload, std::ostream& out) {
  const auto count = [](const std::optional<std::uint64_t>& launches) {
    return launches ? std::to_string(*launches) : std::string("no record");
  };
  out << fmt::format("Workload: {} (launches {} -> {})\n", verdict::to_string(workload.status),
                     count(workload.baseline_launches), count(workload.candidate_launches));
  if (workload.status != verdict::WorkloadStatus::equivalent && !workload.reason.empty()) {
    out << "  " << workload.reason << '\n';
  }
  for (const auto& entry : workload.count_differences) {
    out << fmt::format("  {}: {} -> {}\n", entry.signature, entry.baseline, entry.candidate);
  }
  if (workload.first_divergence) {
    out << fmt::format("  first divergent launch #{}{}: baseline {} | candidate {}\n", workload.first_divergence->index + 1,
                       workload.first_divergence->process.empty() ? "" : " of " + workload.first_divergence->process,
                       workload.first_divergence->baseline, workload.first_divergence->candidate);
  }
  for (const auto& line : workload.unordered) out << "  " << line << '\n';
  for (const auto& rename : workload.renames) {
    out << fmt::format("  advisory: kernel renamed {} -> {} (same launch; confirm it is the same computation)\n",
                       rename.baseline, rename.candidate);
  }
}

}  // namespace

void render_judgement_text(const verdict::Judgement& judgement, std::ostream& out) {
  for (const auto& warning : judgement.warnings) out << "warning: " << warning << '\n';
  render_workload(judgement.workload, out);
  out << fmt::format("\n  {:<18} {:<26} {:<26} {:<20} {:<12}\n", "clock (ms)", "baseline (median ± MAD)",
                     "candidate (median ± MAD)", "delta", "noise band");
  render_clock(judgement.module_work, out);
  render_clock(judgement.compile_elapsed, out);
  out << "\nStructure (baseline -> candidate)\n";
  for (const auto& count : judgement.counts) {
    const auto value = [](const std::optional<std::uint64_t>& v) { return v ? std::to_string(*v) : std::string("?"); };
    out << fmt::format("  {:<24} {:>10} -> {:<10}{}\n", to_string(count.count), value(count.baseline),
                       value(count.candidate), count.baseline && count.candidate && count.baseline != count.candidate ? " *" : "");
  }
  if (!judgement.modules.empty()) {
    out << "\nModule hashes (baseline -> candidate; * changed)\n";
    for (const auto& row : judgement.modules) {
      out << fmt::format("  {} {:<30} {} -> {}\n", row.changed ? "*" : " ", row.module,
                         row.baseline_hashes.empty() ? "-" : fmt::format("{}", fmt::join(row.baseline_hashes, ",")),
                         row.candidate_hashes.empty() ? "-" : fmt::format("{}", fmt::join(row.candidate_hashes, ",")));
    }
  }
  out << fmt::format("\nVerdict: {}\n", verdict::to_string(judgement.verdict));
  out << "  " << judgement.reason << '\n';
  for (const auto& note : judgement.notes) out << "  note: " << note << '\n';
  out << "  see: docs/measurement.md#decision-rules\n";
}

}  // namespace wcp::render
