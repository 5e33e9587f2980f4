#pragma once
// The named questions every stage asks of a Report, each answered in exactly one place:
// analysis, verdicts, budgets and rendering call these instead of re-filtering events.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/report.h"

namespace wcp {

// Compiled loads of the cold pass, in the order they happened.
std::vector<const ModuleEvent*> cold_compiled_events(const Report& report);
// Compiled loads of the warm pass (of the first successful sample).
std::vector<const ModuleEvent*> warm_compiled_events(const Report& report);

// The distinct (name, hash, device, block_dim) compiled in the cold pass.
std::set<ModuleIdentity> compiled_identity_set(const Report& report);

// How many modules a warm run compiled: the most any successful warm run compiled.
// nullopt when no warm run succeeded, or the report does not say (the original probe).
std::optional<std::uint64_t> warm_compiles(const Report& report);

// Whether the warm pass compiled, and the observation that says so. Only a per-load record
// decides it: a warm load Warp logged as "(compiled)" (module_events of the warm pass), or the
// compiled loads the measurement counted in a warm run (sample_results[].warm_compiled_events).
// Warm milliseconds never decide it: on CUDA a cached first load can read hundreds of ms (the
// driver's context and module load, or an instrumentation defect, docs/measurement.md), and a
// share of cold work is a threshold, not an observation.
//
// The one exception is a report of the original probe, which records no per-load status for
// its warm run at all: there its own rule (the warm run's summed Warp load timers above 25% of
// the cold run's) is the only signal it carries, and the evidence says that is what decided.
enum class WarmEvidenceSource {
  warm_loads,           // the warm pass's module_events (Warp's "(compiled)"/"(cached)")
  warm_counts,          // per-sample counts of compiled warm loads
  original_probe_rule,  // the original probe's report: warm work > 25% of cold (its own rule)
  none,                 // nothing recorded: undecided
};
inline constexpr double kOriginalProbeWarmShare = 0.25;

struct WarmCompileEvidence {
  // true: the warm pass compiled; false: it compiled nothing; nullopt: not decidable.
  std::optional<bool> compiled;
  WarmEvidenceSource source = WarmEvidenceSource::none;
  std::uint64_t compiled_loads = 0;                 // warm module_events with status compiled
  std::uint64_t cached_loads = 0;                   // warm module_events with status cached
  std::optional<std::uint64_t> counted_compiles;    // warm_compiles(): most any warm run compiled
  std::vector<const ModuleEvent*> compiled_events;  // the warm loads logged "(compiled)"
  // What was seen, in plain words ("the warm pass logged 1 load as (compiled): ..."), or why
  // nothing could be decided.
  std::string observation;
};
WarmCompileEvidence warm_compile_evidence(const Report& report);

// The warm pass compiled nothing, by the evidence above; nullopt when that is not decidable
// (no successful warm run, or no per-load record of it).
std::optional<bool> warm_near_zero(const Report& report);

// What a budget's `warm_near_zero` also allows in warm module work: loading cached modules is
// not free, and a tiny app's cold work would make a bare percentage stricter than the timer.
// Used only where a user declared that ceiling; never a diagnosis trigger.
inline constexpr double kWarmShareOfCold = 0.05;
inline constexpr double kWarmFloorMs = 50.0;
double warm_allowance_ms(double cold_module_ms);

// Compile elapsed (cold wall - warm wall) is the compile time only when the warm run compiled
// nothing; when it compiled again, both runs paid the compiling and the difference leaves it out.
bool elapsed_is_compile_time(const Report& report);

// One sample's compile elapsed, cold wall - warm wall: absent (with the reason) when its cold or
// warm run failed, or when the warm wall was not below the cold wall. A non-positive difference
// is not a compile time that fell to zero: the warm run paid something the cold run did not
// (contention, a slower first CUDA load under instrumentation), and crediting it would turn
// that into a saving (docs/measurement.md#a-non-positive-elapsed-is-left-out).
struct SampleElapsed {
  std::optional<double> ms;
  std::string left_out;  // why ms is absent; "" when it is credited
};
SampleElapsed sample_compile_elapsed(const SampleResult& sample);
// The compile elapsed every verdict, budget and headline uses: the summary of the samples whose
// elapsed is credited. Reports with per-sample results are recomputed from them (so reports
// written before samples were left out read the same way); a report of the original probe has
// only a median, which is left out when it is not positive.
std::optional<Summary> credited_compile_elapsed(const Report& report);
// Plain words for each sample (or median) left out of credited_compile_elapsed, in sample order.
std::vector<std::string> elapsed_left_out(const Report& report);

// Samples whose cold run succeeded but whose warm run failed or timed out. `failed_samples`
// counts cold failures only (the original probe's field); a failed warm run also credits nothing.
int failed_warm_runs(const Report& report);

// Builds overlapped when the summed module timers exceed elapsed compile time by this factor,
// judged only where elapsed is the compile time (a cache destroyed every run is not overlap).
inline constexpr double kOverlapThreshold = 1.15;
bool builds_overlapped(const Report& report);
// A measured run that compiled no module: it never reached Warp, or it saw a cache it should not.
bool compiled_nothing(const Report& report);

// Whether a launch record exists (it may be empty). The original probe writes an empty list
// both when nothing launched and when its instrumentation did not attach, so for its reports
// only a non-empty list counts.
bool has_launch_record(const Report& report);
// Launches of every process of the cold run.
std::uint64_t total_launches(const Report& report);
// The modules any process of the cold run launched a kernel of.
std::set<std::string> launched_modules(const Report& report);
// The main process, when the report has one.
const ProcessRecord* main_process(const Report& report);
// The process with this pid; null when the report does not know it.
const ProcessRecord* process_of(const Report& report, int pid);

enum class Backend { cpu, cuda };
bool loads_on_cuda(const Report& report);
bool loads_on_cpu(const Report& report);
Backend backend_of(const Report& report);             // cuda when any load was on a CUDA device
bool uses_precompiled_headers(const Report& report);  // Warp's default (on) when unknown

// The generated source of one compiled identity ("wp_<name>_<hash>" in the kernel cache).
const ModuleSource* source_of(const Report& report, const std::string& name, const std::string& hash);

// What one more module costs before its first kernel.
struct FixedCostReference {  // from a calibration of this machine
  double ms = 0.0;
  std::string basis;  // e.g. "calibrated Warp CPU fixed cost per module (with PCH)"
};
// Warp's CPU precompiled header on this machine, from a calibration (`calibrate --warp-cpu`):
// building it once per process, and the fixed per-module cost with and without it.
struct HeaderCosts {
  double build_ms = 0.0;
  double fixed_with_ms = 0.0;
  double fixed_without_ms = 0.0;
  std::string basis;
};
struct FixedCost {
  double ms = 0.0;
  std::string basis;
  bool upper_bound = false;  // true when taken from this run's smallest module
};
// The calibrated reference when there is one, else the smallest module this run built (never
// the one that also built the precompiled header) as an upper bound; nullopt when neither.
std::optional<FixedCost> fixed_module_cost(const Report& report, const std::optional<FixedCostReference>& calibrated);

}  // namespace wcp
