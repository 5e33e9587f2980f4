// CS-8: Warp's first CPU load can race when several threads load modules at once; the
// symptom is "Failed to find module/forward kernel" after loads that succeeded.
#include <fmt/format.h>

#include "analysis/diagnose_support.h"

namespace wcp::analysis {

void check_race(const Report& report, Diagnosis& out) {
  if (report.find_failures.empty()) {
    rule_out(out, Mechanism::cpu_load_race, "no 'Failed to find ... kernel' lines in Warp's log");
    return;
  }
  Finding finding = make_finding(Mechanism::cpu_load_race);
  const auto compiled = cold_compiled_events(report);
  finding.evidence.push_back(fmt::format("{} 'Failed to find' line(s) after {} successful module load(s)",
                                         report.find_failures.size(), compiled.size()));
  finding.trigger = "Warp logged: " + report.find_failures.front();
  for (const auto& line : report.find_failures) finding.evidence.push_back("Warp: " + line);
  out.findings.push_back(std::move(finding));
}

}  // namespace wcp::analysis
