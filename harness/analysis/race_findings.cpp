// CS-8: Warp's first CPU load can race when several threads load modules at once; the
// symptom is "Failed to find module/forward kernel" after loads that succeeded.
#include <fmt/format.h>

#include "analysis/diagnose_support.h"

namespace wcp::analysis {

void check_race(const Report& report, Diagnosis& out) {
  if (report.find_failures.empty()) {
    rule_out(out, "CS-8", "no 'Failed to find ... kernel' lines in Warp's log");
    return;
  }
  Finding finding = make_finding("CS-8");
  const auto compiled = cold_compiled(report);
  finding.evidence.push_back(fmt::format("{} 'Failed to find' line(s) after {} successful module load(s)",
                                         report.find_failures.size(), compiled.size()));
  for (const auto& line : report.find_failures) finding.evidence.push_back("Warp: " + line);
  finding.fix =
      "Load modules that can target the CPU with max_workers <= 1 (wp.force_load(..., max_workers=1) or "
      "warp.config.load_module_max_workers = 1), or load them once before starting threads.";
  finding.limits =
      "Parallel loading stays useful for CUDA-only loads (CS-13); restrict it only where the CPU is a "
      "possible device.";
  out.findings.push_back(std::move(finding));
}

}  // namespace wcp::analysis
