#include "measure/perfetto_trace.h"

#include <fmt/format.h>

#include <map>
#include <string>
#include <utility>

#include "measure/load_events.h"
#include "measure/process_roles.h"

namespace wcp::measure {

std::vector<TraceTrack> build_trace(const MeasureOptions& options, const std::vector<SampleRecord>& samples) {
  std::vector<TraceTrack> tracks;
  for (const auto& sample : samples) {
    for (const auto& [pass, record] :
         {std::pair{Pass::cold, &sample.cold}, std::pair{Pass::warm, sample.warm ? &*sample.warm : nullptr}}) {
      if (record == nullptr) continue;
      std::map<std::pair<int, long long>, TraceTrack> by_pid;  // (pid, thread); thread 0 is the process's track
      for (const auto& process : processes_of(*record, options.cwd.string())) {
        auto& track = by_pid[{process.pid, 0}];
        track.sample = sample.index;
        track.pass = pass;
        track.pid = process.pid;
        track.label = fmt::format("pid {} {} {}", process.pid, to_string(process.role), process.program);
        if (process.started_s) {
          TraceSlice life{process.program,
                          "process",
                          *process.started_s,
                          process.ended_s.value_or(record->run.wall_ms / 1000.0),
                          {}};
          life.args["role"] = std::string(to_string(process.role));
          life.args["exit"] = process.exit_how.empty() ? "no exit record" : process.exit_how;
          track.slices.push_back(std::move(life));
        }
      }
      for (const auto& event : pass_events(*record, pass)) {
        if (!event.detail || event.detail->end_s <= 0.0) continue;
        // The main thread's OS id is the pid: its loads stay on the process's track.
        const long long thread = event.detail->thread.value_or(event.detail->pid);
        const long long track_thread = thread == event.detail->pid ? 0 : thread;
        auto& track = by_pid[{event.detail->pid, track_thread}];
        track.sample = sample.index;
        track.pass = pass;
        track.pid = event.detail->pid;
        track.thread = track_thread;
        if (track.label.empty()) {
          track.label = track_thread == 0 ? fmt::format("pid {}", event.detail->pid)
                                          : fmt::format("pid {} thread {}", event.detail->pid, track_thread);
        }
        TraceSlice slice{event.hash.empty() ? event.name : event.name + " " + event.hash,
                         to_string(event.status),
                         event.detail->start_s,
                         event.detail->end_s,
                         {}};
        slice.args["module"] = event.name;
        slice.args["hash"] = event.hash;
        slice.args["device"] = event.device;
        slice.args["block_dim"] = event.block_dim ? std::to_string(*event.block_dim) : "";
        slice.args["ms"] = fmt::format("{:.1f}", event.ms);
        if (event.built_pch) slice.args["precompiled_header"] = "built by this load";
        if (event.detail->trigger) {
          slice.args["trigger"] = fmt::format("{}:{} ({})", event.detail->trigger->file, event.detail->trigger->line,
                                              event.detail->trigger->function);
        }
        track.slices.push_back(std::move(slice));
      }
      // The exit-time CUDA builds (`--cuda-arch`, cold passes): a track per building thread.
      for (const auto& build : record->instrumentation.cuda_builds) {
        if (build.t_start <= 0.0 || !build.build.wall_ms) continue;
        auto& track = by_pid[{build.build.pid, -build.thread - 1}];  // apart from the loads' tracks
        track.sample = sample.index;
        track.pass = pass;
        track.pid = build.build.pid;
        track.thread = build.thread;
        track.label = fmt::format("pid {} CUDA build at exit (thread {})", build.build.pid, build.thread);
        const double start = build.t_start - record->run.started_monotonic_s;
        TraceSlice slice{fmt::format("{} {} sm_{}", build.build.module, build.build.hash, build.build.arch),
                         build.build.error.empty() ? "cuda_aot" : "error",
                         start,
                         start + *build.build.wall_ms / 1000.0,
                         {}};
        slice.args["block_dim"] = std::to_string(build.build.block_dim);
        if (build.build.cpu_ms) slice.args["cpu_ms"] = fmt::format("{:.1f}", *build.build.cpu_ms);
        if (build.build.phases.total_ms) slice.args["nvrtc_ms"] = fmt::format("{:.1f}", *build.build.phases.total_ms);
        if (!build.build.error.empty()) slice.args["error"] = build.build.error;
        track.slices.push_back(std::move(slice));
      }
      for (auto& [key, track] : by_pid) tracks.push_back(std::move(track));
    }
  }
  return tracks;
}

}  // namespace wcp::measure
