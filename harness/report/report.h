#pragma once
// The measurement report: everything later stages (diagnosis, compare, budgets) read.
// Field names in JSON are a public contract; see docs/report-schema.md.
#include <optional>
#include <string>
#include <vector>

#include "report/launch.h"
#include "report/module_event.h"
#include "report/stats.h"

namespace wcp {

inline constexpr int kReportSchemaVersion = 1;

// One module directory of the kernel cache, as generated source tells it.
struct ModuleSource {
  std::string directory;            // e.g. "wp___main___b43a5cc"
  std::uint64_t source_bytes = 0;
  std::uint64_t forward_kernels = 0;   // entry points found in the source
  std::uint64_t backward_kernels = 0;  // adjoint entry points (0 when enable_backward is off)
  bool operator==(const ModuleSource&) const = default;
};

// Generated artifacts found in the private kernel cache after the cold run.
struct CacheInventory {
  std::uint64_t generated_source_bytes = 0;  // .cpp and .cu files
  std::uint64_t lto_artifacts = 0;           // .lto and .ltoir files
  std::uint64_t lto_bytes = 0;
  std::uint64_t module_directories = 0;
  std::vector<ModuleSource> modules;
  bool operator==(const CacheInventory&) const = default;
};

// What the injected instrumentation could and could not do in a run.
struct InstrumentationStatus {
  bool attached = false;              // the event file was written by a process that imported warp
  std::vector<std::string> missing;   // hooks that could not be installed, in plain words
  std::optional<std::string> app_kernel_cache_dir;  // set when the app pointed the cache elsewhere
  bool cache_kernels_disabled = false;
  std::vector<std::string> cache_clears;  // e.g. "clear_kernel_cache" calls seen
  std::optional<bool> use_precompiled_headers;
  std::string cuda_toolkit_version;
  bool operator==(const InstrumentationStatus&) const = default;
};

// One sample = one cold run and (when it succeeded) one warm run in a fresh private cache.
struct SampleResult {
  int index = 0;
  bool cold_ok = false;
  bool timed_out = false;
  int exit_code = 0;          // of the cold run; 128+N when killed by signal N
  std::string failure;        // plain words, with the tail of the output, when !cold_ok
  double cold_wall_ms = 0.0;
  double cold_module_ms = 0.0;        // sum of (compiled) module load timers
  double native_compile_ms = 0.0;     // sum of "Compile x86/CUDA took" timers
  std::optional<double> warm_wall_ms;       // absent when the warm run failed or timed out
  std::optional<double> warm_module_ms;
  std::optional<int> warm_compiled_events;
  std::string warm_failure;
  bool operator==(const SampleResult&) const = default;
};

struct Report {
  int schema_version = kReportSchemaVersion;
  std::string tool_version;
  std::string warp_version;
  std::vector<std::string> command;
  std::string cwd;
  std::string label;

  int samples = 0;
  int failed_samples = 0;
  int timed_out_samples = 0;
  std::vector<SampleResult> sample_results;

  Summary cold_module_ms;
  Summary native_compile_ms;
  Summary warm_module_ms;
  Summary cold_wall_ms;
  Summary warm_wall_ms;
  Summary compile_elapsed_ms;  // per sample: cold wall - warm wall
  double overlap_factor = 0.0; // cold module work / compile elapsed (medians)

  // Structure of the first successful sample's cold run (and its warm run's events).
  std::uint64_t identities = 0;
  std::uint64_t modules = 0;
  std::uint64_t compiled_events = 0;
  std::uint64_t cached_events = 0;
  std::uint64_t error_events = 0;
  CacheInventory cache;
  std::vector<ModuleEvent> module_events;
  std::vector<LaunchRun> launches;

  // Log signals the diagnosis needs that are not module loads.
  std::vector<std::string> hash_changes;     // "[Module.load] Module hash changed" lines
  std::vector<std::string> find_failures;    // "Failed to find ... kernel" lines
  InstrumentationStatus instrumentation;
  std::vector<std::string> notes;            // isolation caveats and warnings, in plain words

  bool measured() const { return failed_samples < samples; }
};

}  // namespace wcp
