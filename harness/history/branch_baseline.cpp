#include "history/branch_baseline.h"

#include <fmt/format.h>

#include <algorithm>

#include "codec/report_json.h"
#include "history/result_from_report.h"
#include "history/structure.h"
#include "history/trend.h"

namespace wcp::history {
namespace {

bool same_toolchain(const Machine& wanted, const Machine& recorded) {
  return wanted.same_hardware(recorded) && wanted.warp_version == recorded.warp_version &&
         wanted.cuda_toolkit == recorded.cuda_toolkit;
}

bool matches(const Result& result, const BranchQuery& query) {
  return result.branch == query.branch && result.name == query.name && result.measured() && result.report_json &&
         same_toolchain(query.machine, result.machine) && !query.tool_version.empty() &&
         result.tool_version == query.tool_version;
}

// The values a summary stands for: its samples, or its median alone where only that was kept.
void append_values(std::vector<double>& values, const std::optional<Summary>& summary) {
  if (!summary) return;
  if (summary->values.empty()) {
    values.push_back(summary->median);
  } else {
    values.insert(values.end(), summary->values.begin(), summary->values.end());
  }
}

std::optional<Summary> pooled(const std::vector<Report>& reports, std::optional<Summary> ColdStartClocks::*clock) {
  std::vector<double> values;
  for (const auto& report : reports) append_values(values, report.*clock);
  return summarize(std::move(values));
}

std::optional<Summary> pooled(const std::vector<Report>& reports, std::optional<Summary> Report::*clock) {
  std::vector<double> values;
  for (const auto& report : reports) append_values(values, report.*clock);
  return summarize(std::move(values));
}

std::string commit_range(const std::vector<const Result*>& runs) {
  if (runs.empty()) return "";
  const auto newest = short_sha(runs.front()->commit);
  const auto oldest = short_sha(runs.back()->commit);
  return newest == oldest ? newest : oldest + ".." + newest;
}

std::string class_text(const Machine& machine) {
  return machine.machine_class.empty() ? machine.host : machine.machine_class;
}

}  // namespace

Report pooled_report(const std::vector<Report>& reports) {
  Report pooled_baseline = reports.front();
  // Every clock from every sample of every run, so the level is the runs' and so is the spread.
  for (auto clock :
       {&ColdStartClocks::cold_module_ms, &ColdStartClocks::cold_module_cpu_ms, &ColdStartClocks::cold_wall_ms,
        &ColdStartClocks::warm_wall_ms, &ColdStartClocks::compile_elapsed_ms}) {
    pooled_baseline.*clock = pooled(reports, clock);
  }
  for (auto clock : {&Report::native_compile_ms, &Report::warm_module_ms, &Report::warm_module_cpu_ms}) {
    pooled_baseline.*clock = pooled(reports, clock);
  }
  pooled_baseline.sample_results.clear();
  pooled_baseline.samples = pooled_baseline.failed_samples = pooled_baseline.timed_out_samples = 0;
  for (const auto& report : reports) {
    pooled_baseline.samples += report.samples;
    pooled_baseline.failed_samples += report.failed_samples;
    pooled_baseline.timed_out_samples += report.timed_out_samples;
    for (auto sample : report.sample_results) {
      sample.index = static_cast<int>(pooled_baseline.sample_results.size()) + 1;
      pooled_baseline.sample_results.push_back(std::move(sample));
    }
  }
  // The one clock a pooled baseline cannot have: a CPU clock missing from any run is missing.
  for (const auto& report : reports) {
    if (report.measured() && !report.cold_module_cpu_ms) {
      pooled_baseline.cold_module_cpu_ms.reset();
      pooled_baseline.module_cpu_unavailable = report.module_cpu_unavailable;
    }
  }
  return pooled_baseline;
}

BranchQuery branch_query_for(const Report& report, const Machine& machine, std::string branch, std::string name,
                             std::size_t window) {
  BranchQuery query;
  query.branch = std::move(branch);
  query.name = std::move(name);
  query.machine = machine_as_recorded(machine, report);
  query.tool_version = report.tool_version;
  query.window = window;
  return query;
}

BranchBaseline branch_baseline(const std::vector<Result>& results, const BranchQuery& query) {
  BranchBaseline answer;
  std::vector<const Result*> newest_first;
  for (const auto& result : results) {
    if (matches(result, query)) newest_first.push_back(&result);
  }
  std::sort(newest_first.begin(), newest_first.end(), [](const Result* a, const Result* b) { return a->id > b->id; });
  const std::size_t matching = newest_first.size();
  for (const Result* run : newest_first) {
    if (answer.runs.size() >= query.window) break;
    // A step on the branch ends the window: older runs measured other work.
    if (!answer.runs.empty() && compare_structure(*run, *answer.runs.front()).structural()) break;
    answer.runs.push_back(run);
  }
  const std::string where = fmt::format("{} on {} (Warp {})", query.branch, class_text(query.machine),
                                        query.machine.warp_version.empty() ? "unknown" : query.machine.warp_version);
  if (answer.runs.size() < query.minimum) {
    answer.not_enough =
        matching == answer.runs.size()
            ? fmt::format("not enough matching runs of {}: {} in the history, needs {}", where, matching, query.minimum)
            : fmt::format("not enough matching runs of {}: {} since its structure last changed ({} in all), needs {}",
                          where, answer.runs.size(), matching, query.minimum);
    answer.runs.clear();
    return answer;
  }
  std::vector<Report> reports;
  for (const Result* run : answer.runs) {
    reports.push_back(report_from_json_text(*run->report_json, fmt::format("history result {}", run->id)));
  }
  answer.baseline = pooled_report(reports);
  answer.description = fmt::format("the last {} runs of {} ({})", answer.runs.size(), where, commit_range(answer.runs));
  return answer;
}

}  // namespace wcp::history
