#include "render/comparison_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <ostream>

namespace wcp::render {
namespace {

using analysis::Comparison;
using analysis::MetricComparison;

void render_metric(const MetricComparison& metric, std::ostream& out) {
  out << fmt::format("  {:<18} {:>10.1f} ms -> {:>10.1f} ms  ({:+.1f} ms, band ±{:.1f} ms)  {}{}\n", metric.name,
                     metric.baseline_median, metric.candidate_median, metric.delta, metric.band,
                     analysis::to_string(metric.direction),
                     metric.below_noise_floor ? " (below the noise floor: judged on counts)" : "");
}

void render_workload(const analysis::WorkloadCheck& workload, std::ostream& out) {
  out << fmt::format("Workload: {} ({} launches -> {})\n", analysis::to_string(workload.status),
                     workload.baseline_launches, workload.candidate_launches);
  if (workload.status == analysis::WorkloadStatus::unverified) out << "  " << workload.reason << '\n';
  for (const auto& entry : workload.count_differences) {
    out << fmt::format("  {}: {} -> {}\n", entry.signature, entry.baseline, entry.candidate);
  }
  if (workload.first_divergence) {
    out << fmt::format("  first divergent launch #{}: baseline {} | candidate {}\n", workload.first_divergence->index,
                       workload.first_divergence->baseline, workload.first_divergence->candidate);
  }
  for (const auto& rename : workload.renames) {
    out << fmt::format("  advisory: kernel renamed {} -> {} (same launch)\n", rename.baseline, rename.candidate);
  }
}

}  // namespace

void render_comparison_text(const Comparison& comparison, std::ostream& out) {
  for (const auto& warning : comparison.warnings) out << "warning: " << warning << '\n';
  render_workload(comparison.workload, out);
  out << "\nTimings (baseline -> candidate, medians)\n";
  render_metric(comparison.module_work, out);
  render_metric(comparison.compile_elapsed, out);
  out << "\nStructure (baseline -> candidate)\n";
  for (const auto& count : comparison.counts) {
    out << fmt::format("  {:<24} {:>10} -> {:<10}{}\n", count.name, count.baseline, count.candidate,
                       count.baseline == count.candidate ? "" : " *");
  }
  if (!comparison.modules.empty()) {
    out << "\nModule hashes (baseline -> candidate; * changed)\n";
    for (const auto& row : comparison.modules) {
      out << fmt::format("  {} {:<30} {} -> {}\n", row.changed ? "*" : " ", row.module,
                         row.baseline_hashes.empty() ? "-" : fmt::format("{}", fmt::join(row.baseline_hashes, ",")),
                         row.candidate_hashes.empty() ? "-" : fmt::format("{}", fmt::join(row.candidate_hashes, ",")));
    }
  }
  out << fmt::format("\nVerdict: {}\n", analysis::to_string(comparison.verdict));
  for (const auto& reason : comparison.reasons) out << "  " << reason << '\n';
  out << "  see: docs/measurement.md#the-noise-band\n";
}

nlohmann::json comparison_to_json(const Comparison& comparison) {
  using nlohmann::json;
  const auto metric = [](const MetricComparison& m) {
    return json{{"baseline_median_ms", m.baseline_median},
                {"baseline_mad_ms", m.baseline_mad},
                {"candidate_median_ms", m.candidate_median},
                {"delta_ms", m.delta},
                {"band_ms", m.band},
                {"below_noise_floor", m.below_noise_floor},
                {"direction", analysis::to_string(m.direction)}};
  };
  json counts = json::object();
  for (const auto& count : comparison.counts)
    counts[count.name] = {{"baseline", count.baseline}, {"candidate", count.candidate}};
  json modules = json::array();
  for (const auto& row : comparison.modules) {
    modules.push_back({{"module", row.module},
                       {"baseline_hashes", row.baseline_hashes},
                       {"candidate_hashes", row.candidate_hashes},
                       {"changed", row.changed}});
  }
  const auto& workload = comparison.workload;
  json differences = json::array();
  for (const auto& entry : workload.count_differences) {
    differences.push_back(
        {{"signature", entry.signature}, {"baseline", entry.baseline}, {"candidate", entry.candidate}});
  }
  json renames = json::array();
  for (const auto& rename : workload.renames)
    renames.push_back({{"baseline", rename.baseline}, {"candidate", rename.candidate}});
  json workload_json{{"status", analysis::to_string(workload.status)},
                     {"reason", workload.reason},
                     {"baseline_launches", workload.baseline_launches},
                     {"candidate_launches", workload.candidate_launches},
                     {"count_differences", differences},
                     {"renames", renames}};
  workload_json["first_divergence"] = workload.first_divergence
                                          ? json{{"index", workload.first_divergence->index},
                                                 {"baseline", workload.first_divergence->baseline},
                                                 {"candidate", workload.first_divergence->candidate}}
                                          : json(nullptr);
  return json{{"verdict", analysis::to_string(comparison.verdict)},
              {"exit_code", comparison.exit_code},
              {"reasons", comparison.reasons},
              {"warnings", comparison.warnings},
              {"workload", workload_json},
              {"cold_module_work", metric(comparison.module_work)},
              {"compile_elapsed", metric(comparison.compile_elapsed)},
              {"structure", analysis::to_string(comparison.structure)},
              {"counts", counts},
              {"modules", modules}};
}

}  // namespace wcp::render
