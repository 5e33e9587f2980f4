#pragma once
// The Python processes of a measured command that imported Warp: the command itself, the
// multiprocessing workers it started, other Python programs it ran. Each has its own launch
// record; the workload is all of them, matched between runs by role and program, never by pid.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/launch_record.h"

namespace wcp {

enum class ProcessRole {
  main,    // the process the tool started
  worker,  // a multiprocessing child (spawn, fork or forkserver)
  child,   // another Python process started by the command (subprocess, a launcher's child)
};

std::string_view to_string(ProcessRole role);
std::optional<ProcessRole> process_role_from_string(std::string_view text);

struct ProcessRecord {
  int pid = 0;
  int ppid = 0;
  ProcessRole role = ProcessRole::main;
  // What it ran, stable between runs: the main module (`-m pkg.app`) or script path (relative
  // to the measured cwd when inside it); "multiprocessing worker of <program>" for workers.
  std::string program;
  std::vector<std::string> argv;
  std::optional<double> started_s;  // on the run's clock (seconds since the tool started the command)
  std::optional<double> ended_s;    // when it wrote its exit record
  std::string exit_how;             // "atexit", "os._exit", "SIGTERM"; "" when it wrote none (killed, crashed)
  bool launches_recorded = false;   // a launch record arrived
  bool launches_final = false;      // ... and it is final (written at exit)
  LaunchRecord launches;
  bool operator==(const ProcessRecord&) const = default;
};

// How processes of two runs are paired: by role, never by pid or program (a fix may rename the
// main script). The main process with the main process; all multiprocessing workers as one
// group (which worker ran what is the scheduler's choice); other children in the order they
// started. `children_before` is how many child processes started before this one.
std::string match_key(const ProcessRecord& process, std::size_t children_before);

}  // namespace wcp
