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

// The warm pass is "near zero" when it compiled nothing and its module work is at most
// max(kWarmShareOfCold × cold module work, kWarmFloorMs): loading cached modules is not
// free, and a tiny app's cold work would make a bare percentage stricter than the timer.
inline constexpr double kWarmShareOfCold = 0.05;
inline constexpr double kWarmFloorMs = 50.0;
double warm_allowance_ms(double cold_module_ms);
// nullopt when there is no warm measurement to judge.
std::optional<bool> warm_near_zero(const Report& report);

// Compile elapsed (cold wall - warm wall) is the compile time only when the warm run compiled
// (about) nothing; when it compiled again, both runs paid the compiling and the difference
// leaves it out.
bool elapsed_is_compile_time(const Report& report);

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
// The main process, when the report has one.
const ProcessRecord* main_process(const Report& report);

enum class Backend { cpu, cuda };
bool loads_on_cuda(const Report& report);
bool loads_on_cpu(const Report& report);
Backend backend_of(const Report& report);             // cuda when any load was on a CUDA device
bool uses_precompiled_headers(const Report& report);  // Warp's default (on) when unknown

// `@wp.kernel(module="unique")` names each module "<kernel key>_<8 hex of its content hash>":
// the kernel key for such a name, nullopt otherwise.
std::optional<std::string> unique_module_kernel(std::string_view module_name);

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
