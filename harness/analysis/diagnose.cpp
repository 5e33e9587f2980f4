#include "analysis/diagnose.h"

#include <fmt/format.h>

#include "analysis/diagnose_support.h"
#include "analysis/finding_groups.h"
#include "analysis/user_action_plan.h"
#include "io/units.h"

namespace wcp::analysis {
namespace {
// Compile time below this share of the cold wall time is not worth a user's effort first.
constexpr double kBottleneckShare = 0.10;

double share_of(double part, double whole) {
  return whole > 0.0 ? std::max(0.0, part) / whole : 0.0;
}

bool any_of_warm_wall(const Report& report) {
  return report.warm_wall_ms.has_value();
}

}  // namespace

void state_bottleneck(const Report& report, Diagnosis& out) {
  if (!report.measured()) {
    out.bottleneck = "Nothing was measured: every sample failed.";
    return;
  }
  if (compiled_nothing(report)) {
    out.compile_is_bottleneck = false;
    out.bottleneck =
        "NO MODULES COMPILED: the command did not reach Warp, or everything came from a cache it should "
        "not have seen.";
    return;
  }
  const WarmCompileEvidence warm = warm_compile_evidence(report);
  const double wall = report.cold_wall_ms ? report.cold_wall_ms->median : 0.0;
  if (!report.cold_module_ms) {
    out.bottleneck = report.loads_observed
                         ? "Compile share of start-up unavailable: a sample's cold module work was not measured."
                         : "Compile share of start-up unavailable: " + report.loads_unobserved + ".";
    return;
  }
  const double work = report.cold_module_ms->median;
  // Cold minus warm wall is the compile time only when the warm run came out warm; when the
  // warm run compiled again (or there was none) module work is the measure, and it is paid
  // on every run, not once. "Compiled again" is said only on the evidence CS-2 fires on.
  if (warm.compiled == true) {
    out.compile_is_bottleneck = share_of(work, wall) >= kBottleneckShare;
    out.bottleneck = fmt::format(
        "Compilation: {} of module work in every run ({:.0f}% of the {} cold run) — the warm run compiled again "
        "(see CS-2).",
        milliseconds_text(work), 100.0 * share_of(work, wall), milliseconds_text(wall));
    return;
  }
  const auto elapsed_summary = credited_compile_elapsed(report);
  if (!warm.compiled || !elapsed_summary) {
    out.compile_is_bottleneck = share_of(work, wall) >= kBottleneckShare;
    const std::string why =
        !warm.compiled && any_of_warm_wall(report)
            ? "whether the warm run compiled is not recorded, so cold wall minus warm wall may not be compile time"
        : !warm.compiled                   ? "no successful warm run to subtract"
        : elapsed_left_out(report).empty() ? "no successful warm run to subtract"
                                           : "no sample's warm wall was below its cold wall";
    out.bottleneck =
        fmt::format("Compilation: {} of module work in the {} cold run ({:.0f}%); compile elapsed unavailable ({}).",
                    milliseconds_text(work), milliseconds_text(wall), 100.0 * share_of(work, wall), why);
    return;
  }
  const double elapsed = elapsed_summary->median;
  const double share = share_of(elapsed, wall);
  out.compile_is_bottleneck = share >= kBottleneckShare;
  out.bottleneck = out.compile_is_bottleneck
                       ? fmt::format("Compilation takes {} of the {} cold run ({:.0f}%).", milliseconds_text(elapsed),
                                     milliseconds_text(wall), 100.0 * share)
                       : fmt::format(
                             "Compilation is not the bottleneck: {} of the {} cold run ({:.0f}%); look "
                             "elsewhere first.",
                             milliseconds_text(std::max(0.0, elapsed)), milliseconds_text(wall), 100.0 * share);
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
  check_granular_modules(report, inputs, out);
  check_block_dim_spread(report, out);
  check_unique_modules(report, inputs, out);
  check_serial_builds(report, out);
  check_source(report, out);  // after the receipts: CS-10 defers to config-deadline for the same module
  check_precompiled_header(report, inputs, out);
  check_kernel_usage(report, out);
  if (!out.kernel_usage.empty()) out.boundaries = propose_boundaries(report, out.kernel_usage, inputs.fixed_cost);
  check_race(report, out);
  check_processes(report, out);
  // Every finding says which observation fired it. Where a family did not name one, its first
  // evidence line is that observation (the module, setting or log line the check looked for).
  for (auto& finding : out.findings) {
    if (finding.trigger.empty() && !finding.evidence.empty()) finding.trigger = finding.evidence.front();
    // Whose module it is was guessed from its name: the cause is read from names, not seen.
    if (finding.owner && !finding.owner->from_snapshot && finding.cause == CauseStatus::confirmed)
      finding.cause = CauseStatus::inferred;
  }
  out.finding_groups = group_findings(out.findings);
  out.actions = plan_user_actions(report, out);
  return out;
}

}  // namespace wcp::analysis
