#include "results/results_report.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "facts/queries.h"
#include "facts/rebuilds.h"

namespace wcp::results {
namespace {

std::string command_line(const std::vector<std::string>& argv) {
  return fmt::format("{}", fmt::join(argv, " "));
}

std::string first_evidence(const analysis::Finding& finding) {
  return finding.evidence.empty() ? std::string() : finding.evidence.front();
}

Residual residual_of(const Report& candidate) {
  Residual residual;
  if (candidate.cold_module_ms) residual.module_ms = candidate.cold_module_ms->median;
  // Only credited samples: a warm wall not below its cold wall is no compile time (facts/queries.h).
  if (const auto elapsed = credited_compile_elapsed(candidate)) residual.elapsed_ms = elapsed->median;
  if (candidate.cold_wall_ms) residual.cold_wall_ms = candidate.cold_wall_ms->median;
  // Summed module work overstates the wait when builds overlapped; elapsed then is the cost.
  const std::optional<double> cost = builds_overlapped(candidate) ? residual.elapsed_ms : residual.module_ms;
  if (cost && residual.cold_wall_ms && *residual.cold_wall_ms > 0.0) {
    residual.share = std::max(0.0, *cost) / *residual.cold_wall_ms;
  }
  return residual;
}

}  // namespace

Timeline cold_timeline(const Report& report) {
  Timeline timeline;
  const auto first = std::find_if(report.sample_results.begin(), report.sample_results.end(),
                                  [](const SampleResult& sample) { return sample.cold_ok; });
  if (first != report.sample_results.end()) timeline.wall_ms = first->cold_wall_ms;
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    if (!event->detail || event->detail->end_s <= 0.0) {
      timeline.spans.clear();
      timeline.unavailable = report.origin == ReportOrigin::original_probe
                                 ? "the original probe records no build times"
                                 : "this report has no per-build times (the instrumentation did not attach)";
      return timeline;
    }
    // The instrumentation's own start when it has one (schema 2), else Warp's timer back from the end.
    const double end = event->detail->end_s * 1000.0;
    const double start =
        event->detail->start_s > 0.0 ? event->detail->start_s * 1000.0 : std::max(0.0, end - event->ms);
    timeline.spans.push_back({event->name, event->hash, start, end, event->built_pch});
  }
  std::sort(timeline.spans.begin(), timeline.spans.end(),
            [](const BuildSpan& a, const BuildSpan& b) { return a.start_ms < b.start_ms; });
  for (std::size_t i = 1; i < timeline.spans.size(); ++i) {
    timeline.overlapped = timeline.overlapped || timeline.spans[i].start_ms < timeline.spans[i - 1].end_ms - 1.0;
  }
  if (timeline.spans.empty()) timeline.unavailable = "nothing was compiled";
  for (const auto& span : timeline.spans) timeline.wall_ms = std::max(timeline.wall_ms, span.end_ms);
  return timeline;
}

ResultsReport build_results_report(const Report& baseline, const Report& candidate, const verdict::Judgement& judgement,
                                   const analysis::Diagnosis& before, const analysis::Diagnosis& after, Ledger ledger) {
  ResultsReport results;
  results.baseline_command = command_line(baseline.command);
  results.candidate_command = command_line(candidate.command);
  results.judgement = judgement;
  results.ledger = std::move(ledger);

  results.residual = residual_of(candidate);
  results.cuda_after = rank_cuda_build(candidate);

  for (const auto& finding : before.findings) {
    if (!after.found(finding.mechanism)) results.fixed.push_back({finding.mechanism, first_evidence(finding)});
  }
  for (const auto& finding : after.findings) results.remaining.push_back({finding.mechanism, first_evidence(finding)});
  // A mechanism this change fixed is ruled out afterwards by definition; it is listed once, as fixed.
  const auto fixed_here = [&results](auto mechanism) {
    return std::any_of(results.fixed.begin(), results.fixed.end(),
                       [mechanism](const auto& fixed) { return fixed.mechanism == mechanism; });
  };
  for (const auto& entry : after.ruled_out) {
    if (!fixed_here(entry.mechanism)) results.ruled_out.push_back({entry.mechanism, entry.signal});
  }
  for (const auto& entry : after.not_checked) results.not_reached.push_back({entry.mechanism, entry.reason});

  std::map<ModuleIdentity, IdentityBar> bars;
  const auto add = [&bars](const Report& report, bool is_baseline) {
    for (const auto& identity : compiled_identities(report)) {
      auto& bar = bars[identity.identity];
      bar.module = identity.identity.name;
      bar.hash = identity.identity.hash;
      bar.device = identity.identity.device;
      bar.block_dim = identity.identity.block_dim;
      (is_baseline ? bar.baseline_ms : bar.candidate_ms) = identity.ms;
      bar.built_pch = bar.built_pch || identity.built_pch;
    }
  };
  add(baseline, true);
  add(candidate, false);
  for (auto& [identity, bar] : bars) results.identities.push_back(std::move(bar));
  std::stable_sort(results.identities.begin(), results.identities.end(), [](const auto& a, const auto& b) {
    return std::max(a.baseline_ms.value_or(0.0), a.candidate_ms.value_or(0.0)) >
           std::max(b.baseline_ms.value_or(0.0), b.candidate_ms.value_or(0.0));
  });
  results.baseline_timeline = cold_timeline(baseline);
  results.candidate_timeline = cold_timeline(candidate);
  return results;
}

}  // namespace wcp::results
