#include "analysis/diagnose.h"

#include <fmt/format.h>

#include "analysis/diagnose_support.h"

namespace wcp::analysis {
namespace {
// Compile time below this share of the cold wall time is not worth a user's effort first.
constexpr double kBottleneckShare = 0.10;

double share_of(double part, double whole) { return whole > 0.0 ? std::max(0.0, part) / whole : 0.0; }
}  // namespace

void state_bottleneck(const Report& report, Diagnosis& out) {
  if (!report.measured()) {
    out.bottleneck = "Nothing was measured: every sample failed.";
    return;
  }
  if (compiled_nothing(report)) {
    out.compile_is_bottleneck = false;
    out.bottleneck = "NO MODULES COMPILED: the command did not reach Warp, or everything came from a cache it should "
                     "not have seen.";
    return;
  }
  const std::optional<bool> warm = warm_near_zero(report);
  const double wall = report.cold_wall_ms ? report.cold_wall_ms->median : 0.0;
  if (!report.cold_module_ms) {
    out.bottleneck = "Compile share of start-up unavailable: Warp printed no module load timers.";
    return;
  }
  const double work = report.cold_module_ms->median;
  // Cold minus warm wall is the compile time only when the warm run came out warm; when the
  // warm run compiled again (or there was none) module work is the measure, and it is paid
  // on every run, not once.
  if (warm == false) {
    out.compile_is_bottleneck = share_of(work, wall) >= kBottleneckShare;
    out.bottleneck = fmt::format(
        "Compilation: {} of module work in every run ({:.0f}% of the {} cold run) — the warm run compiled again "
        "(see CS-2).",
        format_ms(work), 100.0 * share_of(work, wall), format_ms(wall));
    return;
  }
  if (!warm || !report.compile_elapsed_ms) {
    out.compile_is_bottleneck = share_of(work, wall) >= kBottleneckShare;
    out.bottleneck = fmt::format(
        "Compilation: {} of module work in the {} cold run ({:.0f}%); compile elapsed unavailable (no successful "
        "warm run to subtract).",
        format_ms(work), format_ms(wall), 100.0 * share_of(work, wall));
    return;
  }
  const double elapsed = report.compile_elapsed_ms->median;
  const double share = share_of(elapsed, wall);
  out.compile_is_bottleneck = share >= kBottleneckShare;
  out.bottleneck = out.compile_is_bottleneck
                       ? fmt::format("Compilation takes {} of the {} cold run ({:.0f}%).", format_ms(elapsed),
                                     format_ms(wall), 100.0 * share)
                       : fmt::format("Compilation is not the bottleneck: {} of the {} cold run ({:.0f}%); look "
                                     "elsewhere first.",
                                     format_ms(std::max(0.0, elapsed)), format_ms(wall), 100.0 * share);
  if (builds_overlapped(report)) {
    out.bottleneck += fmt::format(" BUILDS OVERLAPPED (overlap factor {:.2f}): judge changes on compile elapsed.",
                                  *report.overlap_factor);
  }
}

Diagnosis diagnose(const Report& report, const DiagnoseInputs& inputs) {
  Diagnosis out;
  state_bottleneck(report, out);
  if (!report.measured()) return out;
  check_churn(report, out);
  check_option_receipts(report, out);
  check_cache(report, inputs, out);
  check_structure(report, inputs, out);
  check_source(report, out);  // after the receipts: CS-10 defers to config-deadline for the same module
  check_precompiled_header(report, inputs, out);
  check_kernel_usage(report, out);
  if (!out.kernel_usage.empty()) out.boundaries = propose_boundaries(report, out.kernel_usage, inputs.fixed_cost);
  check_race(report, out);
  check_processes(report, out);
  return out;
}

}  // namespace wcp::analysis
