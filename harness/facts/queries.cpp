#include "facts/queries.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace wcp {

namespace {
std::vector<const ModuleEvent*> compiled_events(const Report& report, Pass pass) {
  std::vector<const ModuleEvent*> events;
  for (const auto& event : report.module_events) {
    if (event.pass == pass && event.status == LoadStatus::compiled) events.push_back(&event);
  }
  return events;
}
}  // namespace

std::vector<const ModuleEvent*> cold_compiled_events(const Report& report) {
  return compiled_events(report, Pass::cold);
}

std::vector<const ModuleEvent*> warm_compiled_events(const Report& report) {
  return compiled_events(report, Pass::warm);
}

std::set<ModuleIdentity> compiled_identity_set(const Report& report) {
  std::set<ModuleIdentity> identities;
  for (const ModuleEvent* event : cold_compiled_events(report)) identities.insert(identity_of(*event));
  return identities;
}

std::optional<std::uint64_t> warm_compiles(const Report& report) {
  std::optional<std::uint64_t> most;
  for (const auto& sample : report.sample_results) {
    if (!sample.warm_compiled_events) continue;
    const auto count = static_cast<std::uint64_t>(std::max(0, *sample.warm_compiled_events));
    most = std::max(most.value_or(0), count);
  }
  return most;
}

double warm_allowance_ms(double cold_module_ms) {
  return std::max(kWarmShareOfCold * cold_module_ms, kWarmFloorMs);
}

namespace {
bool any_warm_run(const Report& report) {
  if (report.origin == ReportOrigin::original_probe) return report.warm_wall_ms.has_value();
  return std::any_of(report.sample_results.begin(), report.sample_results.end(),
                     [](const SampleResult& sample) { return sample.cold_ok && sample.warm_wall_ms; }) ||
         (report.sample_results.empty() && report.warm_wall_ms.has_value());
}

std::string load_text(const ModuleEvent& event) {
  return fmt::format("{} {} on {}{} ({:.1f} ms)", event.name, event.hash, event.device,
                     event.block_dim && event.device != "cpu" ? fmt::format(" at block_dim {}", *event.block_dim) : "",
                     event.ms);
}
}  // namespace

WarmCompileEvidence warm_compile_evidence(const Report& report) {
  WarmCompileEvidence evidence;
  if (!any_warm_run(report)) {
    evidence.observation = "no warm run succeeded, so whether the warm pass compiled was not observed";
    return evidence;
  }
  bool warm_loads_recorded = false;
  for (const auto& event : report.module_events) {
    if (event.pass != Pass::warm) continue;
    warm_loads_recorded = true;
    if (event.status == LoadStatus::compiled) {
      ++evidence.compiled_loads;
      evidence.compiled_events.push_back(&event);
    } else if (event.status == LoadStatus::cached) {
      ++evidence.cached_loads;
    }
  }
  evidence.counted_compiles = warm_compiles(report);
  if (evidence.compiled_loads > 0) {
    evidence.compiled = true;
    evidence.source = WarmEvidenceSource::warm_loads;
    std::vector<std::string> loads;
    for (const ModuleEvent* event : evidence.compiled_events) loads.push_back(load_text(*event));
    evidence.observation = fmt::format("the warm pass logged {} load(s) as (compiled): {}", evidence.compiled_loads,
                                       fmt::join(loads, "; "));
    return evidence;
  }
  if (evidence.counted_compiles && *evidence.counted_compiles > 0) {
    evidence.compiled = true;
    evidence.source = WarmEvidenceSource::warm_counts;
    evidence.observation = fmt::format("a warm run compiled {} module load(s) (sample_results[].warm_compiled_events)",
                                       *evidence.counted_compiles);
    return evidence;
  }
  if (warm_loads_recorded || evidence.counted_compiles) {
    evidence.compiled = false;
    evidence.source = warm_loads_recorded ? WarmEvidenceSource::warm_loads : WarmEvidenceSource::warm_counts;
    evidence.observation =
        warm_loads_recorded
            ? fmt::format("every warm load was (cached): {} load(s), none compiled", evidence.cached_loads)
            : "the warm runs compiled no module load (sample_results[].warm_compiled_events = 0)";
    return evidence;
  }
  if (report.origin == ReportOrigin::original_probe && report.warm_module_ms && report.cold_module_ms &&
      report.cold_module_ms->median > 0.0) {
    // The original probe keeps no per-load status of its warm run, and runs it without any
    // instrumentation: Warp's own timers, summed, are all it says. Its own CACHE NOT REUSED
    // rule reads them; this tool applies the same rule to its reports and says so.
    const double share = report.warm_module_ms->median / report.cold_module_ms->median;
    evidence.compiled = share > kOriginalProbeWarmShare;
    evidence.source = WarmEvidenceSource::original_probe_rule;
    evidence.observation = fmt::format(
        "report of the original probe (no per-load warm record): its warm run's Warp load timers sum to {:.0f} ms, "
        "{:.0f}% of the cold run's {:.0f} ms ({} the original probe's {:.0f}% rule)",
        report.warm_module_ms->median, 100.0 * share, report.cold_module_ms->median,
        *evidence.compiled ? "above" : "within", 100.0 * kOriginalProbeWarmShare);
    return evidence;
  }
  evidence.observation =
      "the report records no per-load compiled/cached status of the warm pass (no warm module events, no warm "
      "compile counts), and warm milliseconds alone do not say whether it compiled";
  return evidence;
}

std::optional<bool> warm_near_zero(const Report& report) {
  const auto compiled = warm_compile_evidence(report).compiled;
  if (!compiled) return std::nullopt;
  return !*compiled;
}

SampleElapsed sample_compile_elapsed(const SampleResult& sample) {
  if (!sample.cold_ok) return {std::nullopt, fmt::format("sample {}: the cold run failed", sample.index)};
  if (!sample.warm_wall_ms) return {std::nullopt, fmt::format("sample {}: no successful warm run", sample.index)};
  const double elapsed = sample.cold_wall_ms - *sample.warm_wall_ms;
  if (elapsed <= 0.0) {
    return {std::nullopt,
            fmt::format("sample {}: warm wall {:.0f} ms is not below cold wall {:.0f} ms (elapsed {:+.0f} ms), so its "
                        "compile elapsed is unavailable",
                        sample.index, *sample.warm_wall_ms, sample.cold_wall_ms, elapsed)};
  }
  return {elapsed, ""};
}

std::optional<Summary> credited_compile_elapsed(const Report& report) {
  const auto& elapsed = report.compile_elapsed_ms;
  if (!elapsed) return std::nullopt;
  // The summary's values are one per sample with a warm run, in sample order (reports before
  // schema 4 kept the non-positive ones): leaving those out is leaving those samples out.
  if (elapsed->values.empty()) return elapsed->median > 0.0 ? elapsed : std::nullopt;
  std::vector<double> kept;
  for (double value : elapsed->values) {
    if (value > 0.0) kept.push_back(value);
  }
  if (kept.size() == elapsed->values.size()) return elapsed;
  return summarize(kept);
}

std::vector<std::string> elapsed_left_out(const Report& report) {
  std::vector<std::string> reasons;
  for (const auto& sample : report.sample_results) {
    if (!sample.cold_ok || !sample.warm_wall_ms) continue;  // failed runs are reported on their own
    if (const auto elapsed = sample_compile_elapsed(sample); !elapsed.ms) reasons.push_back(elapsed.left_out);
  }
  if (!reasons.empty() || !report.compile_elapsed_ms) return reasons;
  const auto& elapsed = *report.compile_elapsed_ms;
  const auto non_positive =
      std::count_if(elapsed.values.begin(), elapsed.values.end(), [](double value) { return value <= 0.0; });
  if (non_positive > 0) {
    reasons.push_back(fmt::format("{} sample(s) whose warm wall was not below the cold wall", non_positive));
  } else if (elapsed.values.empty() && elapsed.median <= 0.0) {
    reasons.push_back(
        fmt::format("the median compile elapsed, {:+.0f} ms, is not positive (warm wall not below cold "
                    "wall)",
                    elapsed.median));
  }
  return reasons;
}

int failed_warm_runs(const Report& report) {
  int failed = 0;
  for (const auto& sample : report.sample_results) failed += sample.cold_ok && !sample.warm_wall_ms ? 1 : 0;
  return failed;
}

bool elapsed_is_compile_time(const Report& report) {
  return warm_near_zero(report).value_or(false);
}

bool builds_overlapped(const Report& report) {
  // Only where elapsed is credited: a non-positive one says nothing about overlap.
  return elapsed_is_compile_time(report) && credited_compile_elapsed(report) && report.overlap_factor &&
         *report.overlap_factor > kOverlapThreshold;
}

bool compiled_nothing(const Report& report) {
  return report.measured() && report.loads_observed && report.compiled_events == 0 && report.error_events == 0;
}

bool has_launch_record(const Report& report) {
  return std::any_of(report.processes.begin(), report.processes.end(),
                     [](const ProcessRecord& process) { return process.launches_recorded; });
}

std::uint64_t total_launches(const Report& report) {
  std::uint64_t total = 0;
  for (const auto& process : report.processes) total += total_launches(process.launches);
  return total;
}

std::set<std::string> launched_modules(const Report& report) {
  std::set<std::string> launched;
  for (const auto& process : report.processes) {
    for (const auto& launch : process.launches.signatures) launched.insert(launch.module);
  }
  return launched;
}

const ProcessRecord* main_process(const Report& report) {
  for (const auto& process : report.processes) {
    if (process.role == ProcessRole::main) return &process;
  }
  return nullptr;
}

const ProcessRecord* process_of(const Report& report, int pid) {
  for (const auto& process : report.processes) {
    if (process.pid == pid) return &process;
  }
  return nullptr;
}

bool loads_on_cuda(const Report& report) {
  return std::any_of(report.module_events.begin(), report.module_events.end(),
                     [](const ModuleEvent& event) { return event.device.starts_with("cuda"); });
}

bool loads_on_cpu(const Report& report) {
  return std::any_of(report.module_events.begin(), report.module_events.end(),
                     [](const ModuleEvent& event) { return event.device == "cpu"; });
}

Backend backend_of(const Report& report) {
  return loads_on_cuda(report) ? Backend::cuda : Backend::cpu;
}

bool uses_precompiled_headers(const Report& report) {
  return report.instrumentation.use_precompiled_headers.value_or(true);
}

const ModuleSource* source_of(const Report& report, const std::string& name, const std::string& hash) {
  const std::string directory = "wp_" + name + "_" + hash;
  for (const auto& module : report.cache.modules) {
    if (module.directory == directory || (!hash.empty() && module.directory.starts_with(directory))) return &module;
  }
  return nullptr;
}

namespace {

// Whether a build ran while another build of the same process did (a parallel preload): its
// time then holds the wait for the other builds' CPU, so it bounds nothing about one module's
// fixed cost.
bool overlapped_another_build(const ModuleEvent& event, const std::vector<const ModuleEvent*>& builds) {
  if (!event.detail) return false;
  return std::any_of(builds.begin(), builds.end(), [&](const ModuleEvent* other) {
    return other != &event && other->detail && other->detail->pid == event.detail->pid &&
           other->detail->start_s < event.detail->end_s && event.detail->start_s < other->detail->end_s;
  });
}

}  // namespace

std::optional<FixedCost> fixed_module_cost(const Report& report, const std::optional<FixedCostReference>& calibrated) {
  if (calibrated && calibrated->ms > 0.0) return FixedCost{calibrated->ms, calibrated->basis, false};
  // A run that left LTO artifacts generated LTO code in some of its builds (CS-7): that time is
  // outside the native compiler and belongs to the tile/MathDx kernels, not to having a module,
  // so such a run bounds the fixed cost by a module's native compile alone.
  const bool generated_lto = report.cache.lto_artifacts > 0;
  const auto own_ms = [&](const ModuleEvent& event) {
    return generated_lto && event.native_ms && *event.native_ms > 0.0 ? *event.native_ms : event.ms;
  };
  const auto builds = cold_compiled_events(report);
  const ModuleEvent* smallest = nullptr;
  std::size_t overlapped = 0;
  for (const ModuleEvent* event : builds) {
    if (event->built_pch) continue;  // that load also paid for the precompiled header
    if (overlapped_another_build(*event, builds)) {
      ++overlapped;
      continue;
    }
    if (smallest == nullptr || own_ms(*event) < own_ms(*smallest)) smallest = event;
  }
  if (smallest == nullptr) return std::nullopt;
  const double bound_ms = own_ms(*smallest);
  const std::string native_only =
      bound_ms != smallest->ms ? " of native compile; its LTO generation outside the compiler left out" : "";
  const std::string left_out =
      overlapped > 0 ? fmt::format("; {} build(s) that overlapped another left out", overlapped) : "";
  return FixedCost{bound_ms,
                   fmt::format("upper bound: the smallest module this run built ({} {}, {:.0f} ms{}; no calibration){}",
                               smallest->name, smallest->hash, bound_ms, native_only, left_out),
                   true};
}

}  // namespace wcp
