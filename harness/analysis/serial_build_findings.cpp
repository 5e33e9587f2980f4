// CS-13 (independent modules built one at a time): CUDA modules built once each whose builds
// never overlapped.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "analysis/diagnose_support.h"
#include "io/units.h"

namespace wcp::analysis {
namespace {

// Builds overlapping by less than this factor ran one at a time.
constexpr double kSerialOverlap = 1.2;

}  // namespace

void check_serial_builds(const Report& report, Diagnosis& out) {
  if (!loads_on_cuda(report)) {
    not_checked(out, Mechanism::serial_builds,
                "not offered for CPU loads (Warp's CPU compiler is not parallelised here)");
    return;
  }
  const auto once = built_once(report);
  std::vector<const ModuleEvent*> cuda;
  for (const auto& [name, event] : once) {
    if (event->device.starts_with("cuda")) cuda.push_back(event);
  }
  if (cuda.size() < 2) {
    rule_out(out, Mechanism::serial_builds, "fewer than two CUDA modules built once");
    return;
  }
  // The instrumentation's load intervals (start and end on the run's clock) say directly whether
  // builds ran one at a time; the overlap factor (module work / compile elapsed, two clocks) is
  // the fallback for reports without them, and only where elapsed is credited compile time.
  const bool intervals = std::all_of(cuda.begin(), cuda.end(), [](const ModuleEvent* event) {
    return event->detail && event->detail->start_s > 0.0 && event->detail->end_s > event->detail->start_s;
  });
  std::string trigger;
  if (intervals) {
    for (std::size_t i = 0; i < cuda.size(); ++i) {
      for (std::size_t j = i + 1; j < cuda.size(); ++j) {
        const auto& a = *cuda[i]->detail;
        const auto& b = *cuda[j]->detail;
        if (a.start_s < b.end_s && b.start_s < a.end_s) {
          rule_out(out, Mechanism::serial_builds,
                   fmt::format("the load intervals of {} and {} overlap: builds already run in parallel", cuda[i]->name,
                               cuda[j]->name));
          return;
        }
      }
    }
    trigger = fmt::format(
        "the instrumentation's load intervals: {} CUDA modules, each built once, built one after "
        "another (no two intervals overlap)",
        cuda.size());
  } else {
    if (!report.overlap_factor || !elapsed_is_compile_time(report) || !credited_compile_elapsed(report)) {
      not_checked(out, Mechanism::serial_builds,
                  "no load intervals recorded, and the overlap factor is unavailable or not credited (no warm run "
                  "shown to compile nothing and be faster than its cold run)");
      return;
    }
    if (*report.overlap_factor > kSerialOverlap) {
      rule_out(out, Mechanism::serial_builds,
               fmt::format("overlap factor {:.2f}: builds already overlap", *report.overlap_factor));
      return;
    }
    trigger = fmt::format(
        "overlap factor {:.2f} (module work / compile elapsed; no load intervals recorded): "
        "{} CUDA modules, each built once, one at a time",
        *report.overlap_factor, cuda.size());
  }
  double total = 0.0, largest = 0.0;
  for (const ModuleEvent* event : cuda) {
    total += event->ms;
    largest = std::max(largest, event->ms);
  }
  if (largest <= 0.0) {
    not_checked(out, Mechanism::serial_builds, "no build time was recorded for the CUDA modules");
    return;
  }
  Finding finding = make_finding(Mechanism::serial_builds);
  finding.trigger = trigger;
  finding.facts.event = EventKind::built_one_at_a_time;
  for (const ModuleEvent* event : cuda) finding.facts.modules.push_back(event->name);
  finding.evidence.push_back(fmt::format(
      "{} CUDA modules built once each, one at a time{}", cuda.size(),
      report.overlap_factor ? fmt::format(" (overlap factor {:.2f})", *report.overlap_factor) : std::string()));
  finding.evidence.push_back(
      fmt::format("ceiling speed-up Σ/max = {} / {} = {:.1f}x; best possible elapsed = the "
                  "largest module, {}",
                  milliseconds_text(total), milliseconds_text(largest), total / largest, milliseconds_text(largest)));
  finding.cost_ms = total - largest;
  finding.cost_estimated = true;  // a ceiling
  finding.cost_basis = "elapsed above the largest module, if every build ran in parallel (a ceiling)";
  out.findings.push_back(std::move(finding));
}

}  // namespace wcp::analysis
