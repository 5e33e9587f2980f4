#include "history/history_noise.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "history/history_store.h"
#include "history/result_from_report.h"
#include "stats/summary.h"

namespace wcp::history {
namespace {

// A version nobody recorded may be any version: it matches nothing, not even another unknown.
bool same_known(const std::string& a, const std::string& b) {
  return !a.empty() && a == b;
}

// Stricter than `history show`'s series (trend.cpp), which lets a run that never imported Warp
// join its hardware's series: a spread pooled across Warp versions or toolkits would mix two
// compilers' timings and read as noise.
bool same_machine_key(const Machine& wanted, const Machine& recorded) {
  return wanted.same_hardware(recorded) && same_known(wanted.warp_version, recorded.warp_version) &&
         same_known(wanted.cuda_toolkit, recorded.cuda_toolkit);
}

const std::optional<Summary>& clock_of(const Result& result, const NoiseQuery& query) {
  return query.cpu_clock ? result.cold_module_cpu_ms : result.cold_module_ms;
}

bool speaks_for(const Result& result, const NoiseQuery& query) {
  return result.measured() && clock_of(result, query) && result.argv == query.argv && result.cwd == query.cwd &&
         same_machine_key(query.machine, result.machine) && same_known(query.tool_version, result.tool_version);
}

// The cold run's samples, or the median alone where the writer kept no samples.
std::vector<double> run_values(const Summary& summary) {
  return summary.values.empty() ? std::vector<double>{summary.median} : summary.values;
}

// "2026-12-02T10:00:00Z" → "2026-12-02T10:00Z": seconds say nothing about a span of days.
std::string to_minutes(const std::string& recorded_at) {
  constexpr std::size_t kThroughMinutes = 16;  // "YYYY-MM-DDTHH:MM"
  if (recorded_at.size() > kThroughMinutes && recorded_at.back() == 'Z') {
    return recorded_at.substr(0, kThroughMinutes) + "Z";
  }
  return recorded_at;
}

std::string detail_for(const std::vector<const Result*>& runs) {
  std::vector<std::string> times;
  for (const Result* run : runs) {
    if (!run->recorded_at.empty()) times.push_back(run->recorded_at);
  }
  std::string text = fmt::format("{} earlier runs of this command on this machine", runs.size());
  if (times.empty()) return text;
  // ISO 8601 UTC text sorts as time does.
  const auto [first, last] = std::minmax_element(times.begin(), times.end());
  text += ", " + to_minutes(*first);
  if (*last != *first) text += " to " + to_minutes(*last);
  return text;
}

}  // namespace

NoiseQuery noise_query_for(const Report& report, const Machine& machine) {
  NoiseQuery query;
  query.argv = report.command;
  query.cwd = report.cwd;
  query.machine = machine_as_recorded(machine, report);
  query.tool_version = report.tool_version;
  return query;
}

std::optional<Noise> noise_from_history(const std::vector<Result>& results, const NoiseQuery& query) {
  // One group per compiled code: between groups the level may truly have moved (a kernel edit,
  // a new module), and only the spread within one is noise. A result that recorded no identity
  // set cannot be placed with any other, so it is its own group, keyed by its position.
  using GroupKey = std::pair<std::optional<std::vector<std::string>>, std::size_t>;
  std::map<GroupKey, std::vector<const Result*>> groups;
  for (std::size_t index = 0; index < results.size(); ++index) {
    const Result& result = results[index];
    if (!speaks_for(result, query)) continue;
    groups[{result.identity_set, result.identity_set ? 0 : index}].push_back(&result);
  }

  std::vector<double> ratios;
  std::vector<const Result*> contributing;
  for (const auto& [key, members] : groups) {
    std::vector<double> values;
    for (const Result* member : members) {
      const auto run = run_values(*clock_of(*member, query));
      values.insert(values.end(), run.begin(), run.end());
    }
    if (values.size() < 2) continue;  // one value has no spread to measure
    const double center = median(values);
    if (center == 0.0) continue;
    for (const double value : values) ratios.push_back(value / center);
    contributing.insert(contributing.end(), members.begin(), members.end());
  }
  if (contributing.size() < kMinimumNoiseSamples) return std::nullopt;
  const auto spread = relative_spread(ratios);
  if (!spread) return std::nullopt;

  Noise noise;
  noise.source = NoiseSource::history;
  noise.relative_mad = spread;
  noise.runs = contributing.size();
  noise.values = ratios.size();
  noise.detail = detail_for(contributing) + (query.cpu_clock ? ", on the CPU clock" : "");
  return noise;
}

std::optional<Noise> noise_from_history_at(const HistoryLocation& location, const NoiseQuery& query) {
  std::error_code error;
  if (location.backend == HistoryLocation::Backend::sqlite && !std::filesystem::exists(location.file, error)) {
    return std::nullopt;
  }
  const auto store = open_history(location, HistoryStore::Mode::read);
  // A history nobody has written to yet has no results table to read.
  if (store->schema_version() == 0) return std::nullopt;
  return noise_from_history(store->results(), query);
}

}  // namespace wcp::history
