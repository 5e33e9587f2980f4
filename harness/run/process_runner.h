#pragma once
// Runs one command as an argv (never through a shell) in its own process group, streams its
// stdout and stderr (each its own pipe, as a terminal would keep them apart) to a callback,
// enforces a timeout, and guarantees that no process of
// the run outlives the call: on timeout, on interrupt, and when the leader exits while
// children it spawned are still around.
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wcp {

class InterruptWatch;

struct RunRequest {
  std::vector<std::string> argv;
  std::map<std::string, std::string> environment;  // the complete environment of the child
  std::filesystem::path cwd;
  std::chrono::milliseconds timeout{900'000};
  std::chrono::milliseconds kill_grace{2'000};  // SIGTERM, then SIGKILL after this
};

struct RunOutcome {
  int exit_code = 0;                 // 128+N when killed by signal N
  std::optional<int> signal;         // the signal that ended the leader, if any
  bool timed_out = false;
  double wall_ms = 0.0;              // spawn to leader exit
  int pid = 0;                       // the leader's pid
  // The spawn on CLOCK_MONOTONIC (steady_clock here, time.monotonic() in Python), in seconds:
  // times the target's processes report are placed on the run's clock with it.
  double started_monotonic_s = 0.0;
  std::string output_tail;           // the last bytes of both streams as they arrived, for error messages
  bool succeeded() const { return !timed_out && !signal && exit_code == 0; }
};

enum class OutputStream { out, err };

// Receives each chunk as it is read, with the stream it came from.
using OutputSink = std::function<void(OutputStream, std::string_view)>;

// Throws UsageError when the command cannot be found or started, Interrupted on SIGINT/SIGTERM
// (after the process group is gone).
RunOutcome run_process(const RunRequest& request, const OutputSink& on_output, InterruptWatch& interrupts);

}  // namespace wcp
