#include "render/judgement_text.h"

#include "render/wrap.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <ostream>

#include "render/identity_changes_text.h"
#include "render/option_receipts_text.h"

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
    out << fmt::format(
        "  {:<18} paired over {} pairs: median delta {:+.1f} ms, MAD {:.1f}; candidate faster in {}, "
        "slower in {}, equal in {}\n",
        "", paired.pairs, paired.median_delta, paired.mad_delta, paired.faster, paired.slower, paired.equal);
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
    const auto& first = *workload.first_divergence;
    out << fmt::format("  first divergent launch #{}{}: baseline {} | candidate {}\n", first.index + 1,
                       first.process.empty() ? "" : " of " + first.process, first.baseline, first.candidate);
    if (const std::string changes = verdict::divergence_changes_text(first); !changes.empty())
      out << "    what changed: " << changes << '\n';
  }
  for (const auto& line : workload.unordered) out << "  " << line << '\n';
  for (const auto& rename : workload.renames) {
    out << fmt::format("  advisory: kernel renamed {} -> {} (same launch; confirm it is the same computation)\n",
                       rename.baseline, rename.candidate);
  }
}

std::string module_name(const verdict::PairedModule& module) {
  return module.label + "@" + module.device;
}

std::string hash_word(const verdict::PairedModule& module) {
  const auto hashes = [](const std::vector<std::string>& list) {
    return list.empty() ? std::string("-") : fmt::format("{}", fmt::join(list, ","));
  };
  if (!module.hash_moved()) return fmt::format("hash {} unchanged", hashes(module.baseline_hashes));
  return fmt::format("hash {} -> {} moved", hashes(module.baseline_hashes), hashes(module.candidate_hashes));
}

void render_options(const verdict::OptionComparison& options, std::ostream& out) {
  if (!options.baseline_snapshots || !options.candidate_snapshots) {
    out << fmt::format("\nOptions: not compared — the {} report has no per-load option snapshots\n",
                       !options.baseline_snapshots && !options.candidate_snapshots ? "baseline and the candidate"
                       : !options.baseline_snapshots                               ? "baseline"
                                                                                   : "candidate");
    return;
  }
  if (options.changes.empty()) {
    out << "\nOptions: every module present in both runs was built with the same options\n";
  } else {
    out << "\nOptions that differ (baseline -> candidate, from the load snapshots)\n";
    for (const auto& change : options.changes) {
      out << fmt::format("  {:<40} {:<18} {} -> {}  {}\n", module_name(change.module), change.key,
                         change.baseline_value, change.candidate_value,
                         change.module.hash_moved()
                             ? hash_word(change.module)
                             : hash_word(change.module) + ": the option never arrived in the build");
    }
  }
  if (!options.baseline_writes || !options.candidate_writes) {
    out << "  (option writes were not recorded on both sides: which writes differ is unknown)\n";
    return;
  }
  if (options.writes.empty()) return;
  out << "\nOptions set in one run only\n";
  for (const auto& written : options.writes) {
    const auto& receipt = written.receipt;
    const auto& write = receipt.write;
    std::vector<std::string> why;
    if (!written.arrived()) {
      for (const auto& miss : receipt.missed) {
        if (!miss.dependency) why.push_back(miss_text(write, miss));
      }
    }
    out << fmt::format("  {:<10} {} ({}): {}{}\n", verdict::to_string(written.side), spelled(write),
                       write.site ? short_location(*write.site) : "?",
                       written.arrived() ? "arrived" : outcome_label(receipt.outcome),
                       why.empty() ? "" : fmt::format(" — {}", fmt::join(why, "; ")));
    for (const auto& module : written.modules) {
      const auto value = [](const std::optional<std::string>& v) { return v ? *v : std::string("not built"); };
      out << fmt::format("  {:<10}   {}: {} {} -> {}, {}{}\n", "", module_name(module.module), write.key,
                         value(module.baseline_value), value(module.candidate_value), hash_word(module.module),
                         module.value_changed() || module.module.hash_moved() ? ""
                         : written.arrived() ? " — the other run built it with the same value"
                                             : " — never arrived");
    }
  }
}

}  // namespace

void render_structure(const verdict::Judgement& judgement, std::ostream& out) {
  out << "Structure (baseline -> candidate)\n";
  for (const auto& count : judgement.counts) {
    const auto value = [](const std::optional<std::uint64_t>& v) { return v ? std::to_string(*v) : std::string("?"); };
    out << fmt::format("  {:<24} {:>10} -> {:<10}{}\n", to_string(count.count), value(count.baseline),
                       value(count.candidate),
                       count.baseline && count.candidate && count.baseline != count.candidate ? " *" : "");
  }
  if (!judgement.modules.empty()) {
    out << "\nModule hashes (baseline -> candidate; * changed)\n";
    for (const auto& row : judgement.modules) {
      out << fmt::format("  {} {:<30} {} -> {}\n", row.changed ? "*" : " ", row.module,
                         row.baseline_hashes.empty() ? "-" : fmt::format("{}", fmt::join(row.baseline_hashes, ",")),
                         row.candidate_hashes.empty() ? "-" : fmt::format("{}", fmt::join(row.candidate_hashes, ",")));
    }
  }
  const auto& identities = judgement.identity_changes;
  if (!identities.unavailable.empty()) {
    out << "\nModule identities: not explained: " << identities.unavailable << '\n';
  } else if (!identities.empty()) {
    out << "\nModule identities that moved (baseline -> candidate, from the load snapshots)\n";
    for (const auto& line : identity_change_lines(identities, 0)) out << "  " << line << '\n';
  }
}

void render_cuda_moves(const verdict::Judgement& judgement, std::ostream& out) {
  for (const auto& cuda : judgement.cuda) {
    const auto bytes = [](const std::optional<long long>& value) {
      return value ? std::to_string(*value) : std::string("unavailable");
    };
    std::string line =
        fmt::format("output {} → {} bytes", bytes(cuda.build.baseline_bytes), bytes(cuda.build.candidate_bytes));
    if (cuda.build.moved_most)
      line += "; the kernel that moved most: " + verdict::kernel_move_text(*cuda.build.moved_most);
    print_wrapped(line, fmt::format("CUDA sm_{}: ", cuda.build.arch), "  ", out);
  }
}

void render_judgement_text(const verdict::Judgement& judgement, std::ostream& out) {
  for (const auto& warning : judgement.warnings) out << "warning: " << warning << '\n';
  render_workload(judgement.workload, out);
  out << fmt::format("\n  {:<18} {:<26} {:<26} {:<20} {:<12}\n", "clock (ms)", "baseline (median ± MAD)",
                     "candidate (median ± MAD)", "delta", "noise band");
  for (const auto* clock : verdict::shown_clocks(judgement)) render_clock(*clock, out);
  out << '\n';
  render_cuda_moves(judgement, out);
  render_structure(judgement, out);
  render_options(judgement.options, out);
  out << fmt::format("\nVerdict: {}\n", verdict::to_string(judgement.verdict));
  out << "  " << judgement.reason << '\n';
  for (const auto& note : judgement.notes) out << "  note: " << note << '\n';
  out << "  see: docs/measurement.md#decision-rules\n";
}

}  // namespace wcp::render
