#pragma once
// What the instrumentation wrote in one run: one JSON-lines file per Python process that
// imported Warp (docs/instrumentation.md), read back tolerantly — a line cut short by a crashing
// process is skipped and counted, never fatal.
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/cuda_build.h"
#include "model/launch_record.h"
#include "model/module_event.h"
#include "model/option_record.h"

namespace wcp::instrument {

// A real module load (not the per-launch lookup), with its process and monotonic times.
struct InstrumentedLoad {
  std::string name;
  std::string device;
  std::optional<int> block_dim;
  bool failed = false;
  double t_start = 0.0;  // CLOCK_MONOTONIC seconds
  double t_end = 0.0;
  LoadDetail detail;  // pid, kernels, options, config, stack, compiled, error (times filled by the reader's caller)
  std::map<std::string, std::string> cache;  // kernel_cache_dir, cache_kernels, CUDA_CACHE_DISABLE, WARP_CACHE_PATH
  // The native builds inside this load, timed by the build hooks: absent when they were off, or
  // when a compiled load's build went unseen.
  std::optional<double> native_ms;
  bool built_pch = false;  // its CPU build was the first on its precompiled-header folder
};

// An option or warp.config write, with where the application made it.
struct OptionWrite {
  int pid = 0;
  double t = 0.0;
  std::string api;     // "set_module_options", "module.options", "kernel", "config"
  std::string target;  // the Warp module, or "warp.config"
  std::string key;
  std::string value;  // repr
  std::optional<SourceLocation> site;
  std::string kernel;  // api "kernel": the kernel key
  std::string scope;   // api "kernel": "kernel" or "module"
  bool by_warp = false;
};

// A Warp module object came into being (it copied warp.config's values then).
struct ModuleCreated {
  int pid = 0;
  double t = 0.0;
  std::string name;
  std::map<std::string, std::string> config;
  std::map<std::string, std::string> options;
  std::optional<SourceLocation> site;
  std::optional<SourceLocation> entry_site;  // the main script's outermost line on the stack
};

// One `lever` record: a lever's set-up in this process (its status), one thing it reached (a
// module, an intercepted call), or its final tally (docs/instrumentation.md, "Levers").
struct LeverEvent {
  std::string id;
  std::string status;  // "applied", "not_applicable", "failed"; "" on a tally
  std::string detail;
  std::string module;                 // a module it reached
  std::string call;                   // a call it intercepted
  bool final = false;                 // the process's tally at exit: counts beyond the bounded records
  int calls = 0;                      // final: calls intercepted in this process
  std::vector<std::string> modules;   // final: modules reached, by their names at exit
  std::vector<std::string> replaced;  // final: of those, the ones whose option value was gone at exit
};

struct ExitRecord {
  double t = 0.0;
  std::string how;  // "atexit", "os._exit", "SIGTERM"
  std::optional<std::string> kernel_cache_dir;
  std::optional<bool> cache_kernels;
  std::optional<bool> use_precompiled_headers;
  std::string cuda_toolkit;
  std::map<std::string, std::optional<std::string>> environ;  // CUDA_CACHE_DISABLE, WARP_CACHE_PATH at exit
};

// One process's file.
struct ProcessEvents {
  int pid = 0;
  int ppid = 0;
  double t = 0.0;  // when it opened its file
  std::vector<std::string> argv;
  std::string executable;
  std::string cwd;
  std::optional<std::string> main;  // `-m` module name, or the main file's absolute path
  bool mp_child = false;
  std::optional<int> forked_from;
  bool attached = false;
  std::string warp_version;
  std::string warp_dir;
  std::string api;
  std::string timers;
  std::vector<std::string> hooks;  // what the instrumentation wrapped
  std::vector<std::string> missing;
  std::optional<LaunchRecord> launches;  // the last snapshot
  bool launches_final = false;
  std::optional<ExitRecord> exit;
  std::vector<LeverEvent> levers;  // in the order written
  std::size_t malformed_lines = 0;
};

// One `cuda_build` record: the build as the probe saw it, and where NVRTC's trace lies (read by
// measure/, a floor above the trace reader) with the mangled names of the identity's kernels.
struct CudaBuildRecord {
  CudaModuleBuild build;  // phases and kernels empty until the trace is read
  std::string trace_path;
  std::map<std::string, std::string> kernel_keys;  // mangled name → Python kernel key
  double t_start = 0.0;                            // CLOCK_MONOTONIC seconds; 0 when not said
  long long thread = 0;                            // the OS thread that built it
};

// One process's exit-time CUDA builds (`cuda_build_done`): when they ran and how.
struct CudaBuildWindow {
  int pid = 0;
  double t_start = 0.0;  // CLOCK_MONOTONIC seconds
  double t_end = 0.0;
  int workers = 0;
  std::vector<int> archs;
  std::string unavailable;  // why this process compiled nothing
};

struct InstrumentationEvents {
  std::vector<ProcessEvents> processes;  // in the order they opened their files
  // Each process's named modules and their kernels at exit (`registry` records); absent when no
  // process wrote one.
  std::optional<std::vector<RegisteredModule>> registry;
  std::vector<InstrumentedLoad> loads;  // every process's, by end time
  std::vector<OptionWrite> option_writes;
  std::vector<ModuleCreated> modules_created;
  std::vector<CacheClear> cache_clears;
  std::set<std::string> tape_kernels;
  bool tape_backward = false;
  // `measure --cuda-arch`: every process's CUDA builds and build windows.
  std::vector<CudaBuildRecord> cuda_builds;
  std::vector<CudaBuildWindow> cuda_build_windows;

  bool attached() const;
  std::size_t malformed_lines() const;
};

// One process's file; its records of loads, writes and clears go into `run`.
ProcessEvents parse_process_events(std::string_view text, InstrumentationEvents& run);
// Every `events-<pid>.jsonl` in `directory`; none (or no directory) means no process attached.
InstrumentationEvents read_instrumentation_events(const std::filesystem::path& directory);

}  // namespace wcp::instrument
