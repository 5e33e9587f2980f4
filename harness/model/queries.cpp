#include "model/queries.h"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

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

std::optional<bool> warm_near_zero(const Report& report) {
  const auto compiles = warm_compiles(report);
  if (compiles && *compiles > 0) return false;
  if (!report.warm_module_ms || !report.cold_module_ms) return std::nullopt;
  return report.warm_module_ms->median <= warm_allowance_ms(report.cold_module_ms->median);
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
  return elapsed_is_compile_time(report) && report.overlap_factor && *report.overlap_factor > kOverlapThreshold;
}

bool compiled_nothing(const Report& report) {
  return report.measured() && report.compiled_events == 0 && report.error_events == 0;
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

const ProcessRecord* main_process(const Report& report) {
  for (const auto& process : report.processes) {
    if (process.role == ProcessRole::main) return &process;
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

std::optional<std::string> unique_module_kernel(std::string_view module_name) {
  // A kernel key is an identifier, so a dotted name (a Python module's, warp.fem's generated
  // "<module>.<key>") is never a unique module's.
  if (module_name.find('.') != std::string_view::npos) return std::nullopt;
  static const std::regex pattern(R"((.+)_[0-9a-f]{8})");
  std::match_results<std::string_view::const_iterator> match;
  if (!std::regex_match(module_name.begin(), module_name.end(), match, pattern)) return std::nullopt;
  return match[1].str();
}

const ModuleSource* source_of(const Report& report, const std::string& name, const std::string& hash) {
  const std::string directory = "wp_" + name + "_" + hash;
  for (const auto& module : report.cache.modules) {
    if (module.directory == directory || (!hash.empty() && module.directory.starts_with(directory))) return &module;
  }
  return nullptr;
}

std::optional<FixedCost> fixed_module_cost(const Report& report, const std::optional<FixedCostReference>& calibrated) {
  if (calibrated && calibrated->ms > 0.0) return FixedCost{calibrated->ms, calibrated->basis, false};
  const ModuleEvent* smallest = nullptr;
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    if (event->built_pch) continue;  // that load also paid for the precompiled header
    if (smallest == nullptr || event->ms < smallest->ms) smallest = event;
  }
  if (smallest == nullptr) return std::nullopt;
  return FixedCost{smallest->ms,
                   fmt::format("upper bound: the smallest module this run built ({} {}, {:.0f} ms; no calibration)",
                               smallest->name, smallest->hash, smallest->ms),
                   true};
}

}  // namespace wcp
