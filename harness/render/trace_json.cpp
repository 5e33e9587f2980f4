#include "render/trace_json.h"

#include <fmt/format.h>

#include <cmath>
#include <map>

namespace wcp::render {

nlohmann::json trace_to_json(const std::vector<TraceTrack>& tracks) {
  using nlohmann::json;
  json events = json::array();
  std::map<std::pair<int, Pass>, int> trace_pids;  // (sample, pass) -> the trace's process id
  const auto microseconds = [](double seconds) { return std::llround(seconds * 1e6); };
  for (const auto& track : tracks) {
    const auto key = std::pair{track.sample, track.pass};
    auto [found, added] = trace_pids.try_emplace(key, static_cast<int>(trace_pids.size()) + 1);
    const int trace_pid = found->second;
    if (added) {
      events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", trace_pid},
                        {"args", {{"name", fmt::format("sample {} · {}", track.sample, to_string(track.pass))}}}});
      events.push_back({{"name", "process_sort_index"}, {"ph", "M"}, {"pid", trace_pid}, {"args", {{"sort_index", trace_pid}}}});
    }
    // A load on another thread gets that thread's track: parallel loads show side by side.
    const long long tid = track.thread != 0 ? track.thread : track.pid;
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", trace_pid}, {"tid", tid},
                      {"args", {{"name", track.label}}}});
    for (const auto& slice : track.slices) {
      json event{{"name", slice.name}, {"cat", slice.category}, {"ph", "X"}, {"pid", trace_pid}, {"tid", tid},
                 {"ts", microseconds(slice.start_s)}, {"dur", std::max<long long>(1, microseconds(slice.end_s - slice.start_s))}};
      if (!slice.args.empty()) event["args"] = slice.args;
      events.push_back(std::move(event));
    }
  }
  return json{{"traceEvents", events}, {"displayTimeUnit", "ms"}};
}

}  // namespace wcp::render
