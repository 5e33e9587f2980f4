#pragma once
// The measurement report: the data model every later stage (diagnosis, verdicts, budgets,
// rendering) reads. Field names in JSON are a public contract; see docs/report-schema.md.
//
// Missing is not zero: a timing that was not measured (no successful warm run, no module
// timers in Warp's log) is std::nullopt here and null in JSON, and nothing downstream turns it
// into a delta, a ratio or a verdict.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/cache_audit.h"
#include "model/cold_start_clocks.h"
#include "model/cuda_build.h"
#include "model/hash_stability.h"
#include "model/interop_launch.h"
#include "model/launch_record.h"
#include "model/lever.h"
#include "model/module_event.h"
#include "model/option_record.h"
#include "model/output_check.h"
#include "model/process.h"
#include "model/reference.h"
#include "model/test_attribution.h"
#include "stats/summary.h"

namespace wcp {

// Version 2: missing timings are null (version 1 wrote 0.0), module events carry `pass`, and
// `label` means what the original probe meant by it ("<name> <hash>"). Version 3 adds fields
// only (the option record, Warp's folder, per-kernel source sizes and content hashes): every
// version-2 field keeps its meaning, and version-2 reports read as before. Version 4 adds
// per-sample `compile_elapsed_ms` and `compile_elapsed_left_out`, and leaves a sample whose warm
// wall is not below its cold wall out of `compile_elapsed_ms_*`; earlier reports are read the
// same way (facts/queries.h: credited_compile_elapsed). It also adds each load's `hook_ms` (the
// instrumentation's own time inside Warp's load timer) and `thread`, and the report's
// `overlapping_loads`; kernels' `package` now comes from the dist-info folders. Version 5 adds
// the original probe's flat `launches` list back (the main process's launches, one object per
// launch, up to 10,000), so that the original probe can read the workload of this tool's reports.
// It also adds each sample's `cold_identities` and each module="unique" kernel's `closure` (the
// evidence that tells a kernel made from constants from one made from data, CS-9), each module
// creation's `entry_site` (the deadline advice names it). Version 6 takes loads from the
// instrumentation, which no longer changes Warp's log level: each module event says whose clock
// its `ms` is (`timer`), native compile time comes from the instrumentation's build hooks, and a
// run whose loads could not be observed at all says so (`loads_observed`, `loads_unobserved`)
// and writes null, not 0, for its structure counts. Version 7 adds `lever_arrivals`: what the
// probe said about each lever it was asked to apply (WCP_PROBE_LEVERS, issue 30); earlier reports
// read with none. Version 8 adds `lever_arrivals[].modules_replaced`. Version 9 adds
// `option_record.modules_registered`. Version 10 adds what each load's kernels referenced: each
// kernel's `object`, `args` and `constants`, and the load's `functions` (issue 40: the cause of a
// rebuild whose kernels kept their names). Version 11 adds each load's `test` (the test or phase
// of the suite it happened in) and the report's `tests` (what each test built, issue 41).
// Version 12 adds the bisect and option records' fields (docs/report-schema.md). Version 13 adds
// the CPU clock of module work (issue 49): each load's `cpu_ms` and `children_cpu_s`, each
// sample's `cold_module_cpu_ms` and `warm_module_cpu_ms`, their summaries, and
// `module_cpu_unavailable`; every earlier field keeps its meaning, and reports without them are
// judged on the wall clock, as before. Version 14 adds `document` ("report") and `version` (the
// same number as `schema_version`), which every JSON document of this tool now carries
// (docs/documents.md); nothing else changed. Version 15 adds `build_environment` and each module
// source's `source_digest`, `output_bytes` and `output_digest` (issue 63: a compile decided
// unchanged by identity); schema-14 reports read without them and are judged on time. Version 16
// adds the CUDA build measured without a GPU (issue 64, `measure --cuda-arch`): the report's
// `cuda_build` and `cuda_compile_cpu_ms`, and each sample's `cuda_compile_cpu_ms` and
// `cuda_build_wall_ms`; reports without them have no CUDA build measured (null, never 0).
inline constexpr int kReportSchemaVersion = 16;

// Who wrote a report. The original Python probe (NVIDIA's warp-compile-time-optimizer skill)
// writes the contract fields only, with no schema_version.
enum class ReportOrigin { this_tool, original_probe };

// One kernel's share of a module's generated source: the definitions Warp emits for it (its
// argument struct, forward and backward functions and their entry points), by the mangled name
// "<kernel key>_<8 hex>" (or the bare key with strip_hash).
struct KernelSource {
  std::string name;
  std::uint64_t forward_bytes = 0;
  std::uint64_t backward_bytes = 0;
  bool operator==(const KernelSource&) const = default;
};

// One module directory of the kernel cache, as generated source tells it.
struct ModuleSource {
  std::string directory;  // e.g. "wp___main___b43a5cc"
  std::uint64_t source_bytes = 0;
  std::uint64_t forward_kernels = 0;   // entry points found in the source
  std::uint64_t backward_kernels = 0;  // adjoint entry points (0 when enable_backward is off)
  // Per kernel, in source order; what precedes the first kernel (headers, @wp.func code,
  // structs) is shared_bytes. Empty when the report predates them.
  std::vector<KernelSource> kernels;
  std::uint64_t shared_bytes = 0;
  // Schema 10: Warp's source-line markers (`// <python line> <L N>`) in the kernels' forward
  // code, and how many of them repeat a line already emitted in the same kernel's forward code:
  // an unrolled loop emits its body's lines once per iteration. Absent in earlier reports.
  std::optional<std::uint64_t> forward_line_markers = std::nullopt;
  std::optional<std::uint64_t> repeated_line_markers = std::nullopt;
  // Schema 15: what the build wrote and what it compiled, byte for byte: the CRC-64 (hex) of the
  // generated source, and the bytes and CRC-64 of its native outputs (.o, .cubin, .ptx, .fatbin,
  // in file-name order). Two runs that built one identity from the same bytes with the same
  // compiler wrote the same outputs; absent in earlier reports, and the output fields when the
  // build wrote none.
  std::optional<std::string> source_digest = std::nullopt;
  std::optional<std::uint64_t> output_bytes = std::nullopt;
  std::optional<std::string> output_digest = std::nullopt;
  bool operator==(const ModuleSource&) const = default;
};

// Generated artifacts found in the private kernel cache after the cold run.
struct CacheInventory {
  std::uint64_t generated_source_bytes = 0;  // .cpp and .cu files
  std::uint64_t lto_artifacts = 0;           // .lto and .ltoir files
  std::uint64_t lto_bytes = 0;
  std::uint64_t module_directories = 0;
  // Every regular file the cold run left in its private cache, summed (schema 7): what a CI
  // cache must hold for the command when nothing was restored. Absent in earlier reports.
  std::optional<std::uint64_t> total_bytes;
  std::vector<ModuleSource> modules;
  bool operator==(const CacheInventory&) const = default;
};

// What the injected instrumentation could and could not do in a run.
struct InstrumentationStatus {
  bool attached = false;             // a process that imported warp wrote events
  std::string warp_api;              // the internal layout it attached to: "warp._src" (1.10+) or "warp.context"
  std::string warp_dir;              // the imported warp package's folder (ends in a separator); "" when unknown
  std::string timers;                // how Warp's module timers were switched on: "log_level" or "verbose"
  std::vector<std::string> missing;  // hooks that could not be installed, in plain words
  std::optional<std::string> app_kernel_cache_dir;  // set when the app pointed the cache elsewhere
  bool cache_kernels_disabled = false;
  std::vector<CacheClear> cache_clears;
  std::optional<bool> use_precompiled_headers;
  std::string cuda_toolkit_version;
  // CUDA_CACHE_DISABLE as the measured processes saw it (set by the tool's caller or by the
  // application itself); absent when no process said.
  std::optional<bool> cuda_cache_disabled;
  bool operator==(const InstrumentationStatus&) const = default;
};

// What else decides the bytes a module identity compiles to, beside its hash (schema 15): Warp's
// module hash covers the kernels' source and the module options, not the compilers nor the CPU
// the CPU build targets (Warp's LLVM tunes the object code for the host). Two runs that agree on
// all of it and on the identities compiled the same code with the same compilers.
struct BuildEnvironment {
  std::string warp_version;
  // Warp's CPU compiler, the LLVM/Clang library it ships: "<file name> <bytes> bytes crc64 <hex>";
  // "" when Warp's folder or the library was not found.
  std::string cpu_compiler;
  std::string cuda_toolkit;  // the toolkit Warp was built with (its NVRTC), "" when not said
  // The host CPU: /proc/cpuinfo's model name, and the CRC-64 of its feature flags (what LLVM
  // targets); "" where unreadable.
  std::string cpu_model;
  std::string cpu_features;
  bool operator==(const BuildEnvironment&) const = default;
};

// One sample = one cold run and (when it succeeded) one warm run in a fresh private cache.
struct SampleResult {
  int index = 0;
  bool cold_ok = false;
  bool timed_out = false;
  int exit_code = 0;    // of the cold run; 128+N when killed by signal N
  std::string failure;  // plain words, with the tail of the output, when !cold_ok
  double cold_wall_ms = 0.0;
  // Sum of (compiled) module load timers; absent when modules loaded but Warp printed no timer.
  std::optional<double> cold_module_ms;
  // Sum of "Compile x86/CUDA took" timers; absent when modules compiled but no timer was printed.
  std::optional<double> native_compile_ms;
  std::optional<double> warm_wall_ms;  // absent when the warm run failed or timed out
  std::optional<double> warm_module_ms;
  // Schema 13: the CPU seconds those builds used (measure/module_cpu.h), cold compiled loads and
  // every warm load; absent when a load had no CPU clock, and in earlier reports.
  std::optional<double> cold_module_cpu_ms;
  std::optional<double> warm_module_cpu_ms;
  std::optional<int> warm_compiled_events;
  std::string warm_failure;
  // Cold wall - warm wall of this sample (schema 4); absent when it is not credited, with the
  // reason: a failed warm run, or a warm wall not below the cold wall (facts/queries.h).
  std::optional<double> compile_elapsed_ms;
  std::string compile_elapsed_left_out;
  // The distinct "<module> <hash>" this sample's cold run loaded (schema 5), sorted: whether a
  // module got the same hash in every sample. Absent when not recorded (earlier reports, a
  // failed cold run).
  std::optional<std::vector<std::string>> cold_identities;
  // Schema 16, with `--cuda-arch`: the CPU time of this cold run's CUDA builds per arch (all
  // modules that built; an arch none built for is left out), and the exit-time window they took,
  // which cold_wall_ms leaves out. Absent when no CUDA build was asked for.
  std::optional<std::map<int, double>> cuda_compile_cpu_ms;
  std::optional<double> cuda_build_wall_ms;
  bool operator==(const SampleResult&) const = default;
};

struct Report : ColdStartClocks {
  int schema_version = kReportSchemaVersion;  // of the document it was read from
  ReportOrigin origin = ReportOrigin::this_tool;
  std::string tool_version;
  std::string warp_version;
  std::vector<std::string> command;
  std::string cwd;
  std::string label;

  int samples = 0;
  int failed_samples = 0;
  int timed_out_samples = 0;
  std::vector<SampleResult> sample_results;

  // cold_module_ms, cold_wall_ms, warm_wall_ms, compile_elapsed_ms: the ColdStartClocks base.
  std::optional<Summary> native_compile_ms;
  std::optional<Summary> warm_module_ms;
  std::optional<Summary> warm_module_cpu_ms;  // schema 13
  // Why cold_module_cpu_ms is absent although cold module work was measured (a Warp version or
  // platform without the clock, an older report); "" when it is present or nothing was measured.
  std::string module_cpu_unavailable;
  std::optional<double> overlap_factor;  // cold module work / compile elapsed (medians)

  // Whether the first successful sample's cold run could see its module loads at all: the
  // instrumentation's load hooks ran, or Warp's log printed load timers. When not, the counts
  // below are not measurements (0 here, null in JSON) and `loads_unobserved` says why.
  bool loads_observed = true;
  std::string loads_unobserved;

  // Structure of the first successful sample's cold run (and its warm run's events).
  std::uint64_t identities = 0;
  std::uint64_t modules = 0;
  std::uint64_t compiled_events = 0;
  std::uint64_t cached_events = 0;
  std::uint64_t error_events = 0;
  CacheInventory cache;
  std::vector<ModuleEvent> module_events;
  std::vector<ProcessRecord> processes;  // the cold run's processes that imported Warp, main first
  // The main process's launches in the original probe's flat shape, one per launch (schema 5):
  // absent when it made more than measure::kInteropLaunchLimit, when it has no launch record,
  // and in earlier reports. Derived from `processes`, which stays what every reader here uses.
  std::optional<std::vector<InteropLaunch>> interop_launches;
  // Option writes and module creations of that cold run; absent when they were not recorded
  // (the instrumentation did not attach or could not hook them, or an older report).
  std::optional<OptionRecord> option_record;
  // Schema 11: that cold run's builds per test (facts/test_attribution.h); absent when no load
  // recorded a test context (no test runner), and in earlier reports.
  std::optional<std::vector<TestCompileCost>> tests;

  // Log signals the diagnosis needs that are not module loads.
  std::vector<HashChange> hash_changes;
  std::vector<std::string> find_failures;  // "Failed to find ... kernel" lines
  InstrumentationStatus instrumentation;
  // Schema 15: what decides the bytes each identity compiles to besides its hash; absent in
  // earlier reports and the original probe's, whose time verdicts say they could not be decided
  // by identity.
  std::optional<BuildEnvironment> build_environment;
  std::vector<std::string> notes;  // isolation caveats and warnings, in plain words
  // The machine reference measured beside the command (`measure --reference`, `check` with
  // cold_units): its cost and the cold units it gives. Absent when none was asked for.
  std::optional<MachineReference> reference;
  // The program's output and exit status without the probe against the first sample's
  // (`measure --check-output`); absent when not asked for.
  std::optional<OutputCheck> output_check;
  // Whether the module hashes survive another process and another checkout (schema 7): the
  // experiments `measure` ran when a hash varied or when asked; absent when none ran.
  std::optional<HashStability> hash_stability;
  // Per lever the run was asked to apply (WCP_PROBE_LEVERS), in the order of that list: whether
  // the probe could apply it in the first successful sample's cold run, and what it reached
  // there (measure/lever_arrivals.h). Empty when no levers were asked for.
  std::vector<LeverArrival> lever_arrivals;
  // What one warm pass used of a restored kernel cache (`measure --warm-cache DIR`, schema 7);
  // absent when not asked for.
  std::optional<CacheAudit> cache_audit;
  // Schema 16, with `--cuda-arch`: the first successful sample's CUDA builds, each module and
  // kernel (model/cuda_build.h), and per arch the summary of every sample's CUDA compile CPU time
  // (its noise). Absent when no CUDA build was asked for.
  std::optional<CudaBuildRun> cuda_build;
  std::map<int, Summary> cuda_compile_cpu_ms;

  bool measured() const { return samples > failed_samples; }
};

}  // namespace wcp
