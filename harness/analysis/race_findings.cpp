// CS-8: Warp's first CPU load can race when several threads load modules at once; the
// symptom is "Failed to find module/forward kernel" after loads that succeeded.
#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "analysis/diagnose_support.h"

namespace wcp::analysis {
namespace {

void add_once(std::vector<std::string>& list, const std::string& value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
}

// The kernels, modules and devices Warp named in its "Failed to find forward kernel 'K' from
// module 'M' for device 'D'" lines (the same words in Warp 1.9 to 1.19); a line in another form
// adds nothing, and the finding keeps its observation as its first line.
void add_missing_kernels(const std::vector<std::string>& lines, FindingFacts& facts) {
  static const std::regex kLine(
      R"(Failed to find (?:forward|backward) kernel '([^']+)' from module '([^']+)' for device '([^']+)')");
  for (const auto& line : lines) {
    std::smatch match;
    if (!std::regex_search(line, match, kLine)) continue;
    if (std::none_of(facts.kernels.begin(), facts.kernels.end(),
                     [&](const KernelFact& kernel) { return kernel.name == match[1].str(); }))
      facts.kernels.push_back({match[1].str(), std::nullopt});
    add_once(facts.modules, match[2].str());
    add_once(facts.names, match[3].str());
  }
  if (!facts.kernels.empty()) facts.event = EventKind::kernels_not_found_after_load;
}

}  // namespace

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
  add_missing_kernels(report.find_failures, finding.facts);
  out.findings.push_back(std::move(finding));
}

}  // namespace wcp::analysis
