#include "analysis/diagnose.h"

#include <fmt/format.h>

#include "analysis/diagnose_support.h"

namespace wcp::analysis {
namespace {
// Compile elapsed below this share of the cold wall time is not worth a user's effort first.
constexpr double kBottleneckShare = 0.10;
}  // namespace

void state_bottleneck(const Report& report, Diagnosis& out) {
  const double wall = report.cold_wall_ms.median, elapsed = report.compile_elapsed_ms.median;
  if (wall <= 0.0 || report.compile_elapsed_ms.values.empty()) {
    out.bottleneck = "Compile share of start-up unknown (no successful warm run to subtract).";
    return;
  }
  const double share = std::max(0.0, elapsed) / wall;
  out.compile_is_bottleneck = share >= kBottleneckShare;
  out.bottleneck = out.compile_is_bottleneck
                       ? fmt::format("Compilation takes {} of the {} cold run ({:.0f}%).", format_ms(elapsed),
                                     format_ms(wall), 100.0 * share)
                       : fmt::format(
                             "Compilation is not the bottleneck: {} of the {} cold run ({:.0f}%); look "
                             "elsewhere first.",
                             format_ms(std::max(0.0, elapsed)), format_ms(wall), 100.0 * share);
}

Diagnosis diagnose(const Report& report, const DiagnoseInputs& inputs) {
  Diagnosis out;
  state_bottleneck(report, out);
  if (!report.measured()) {
    out.bottleneck = "Nothing was measured: every sample failed.";
    return out;
  }
  check_churn(report, out);
  check_config_deadline(report, out);
  check_cache(report, inputs, out);
  check_structure(report, inputs, out);
  check_source(report, out);  // after config-deadline: CS-10 defers to it for the same module
  check_race(report, out);
  return out;
}

}  // namespace wcp::analysis
