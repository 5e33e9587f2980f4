#include "measure/load_events.h"

#include <fmt/format.h>

#include <algorithm>

namespace wcp::measure {
namespace {

// What the probe says in `missing` when it could not hook loads: its load hooks failed
// ("module loads ...") or the whole step did ("loads (probe error: ...)").
bool misses_loads(const std::string& what) {
  return what.starts_with("module loads") || what.starts_with("loads");
}

// Every process the instrumentation attached to had its load hooks working.
std::optional<std::string> load_hooks_missing(const instrument::InstrumentationEvents& events) {
  for (const auto& process : events.processes) {
    if (!process.attached) continue;
    for (const auto& what : process.missing) {
      if (misses_loads(what)) return what;
    }
  }
  return std::nullopt;
}

ModuleEvent event_of(const instrument::InstrumentedLoad& load, double spawn_monotonic_s) {
  const LoadStatus status = load.failed                           ? LoadStatus::error
                            : load.detail.compiled.value_or(true) ? LoadStatus::compiled
                                                                  : LoadStatus::cached;
  // Warp's log names a module by its 7-hex short hash; the instrumentation records the full one.
  std::string hash = load.detail.full_hash.substr(0, std::min<std::size_t>(7, load.detail.full_hash.size()));
  ModuleEvent event = loaded_module({load.name, std::move(hash), load.device, load.block_dim},
                                    std::max(0.0, (load.t_end - load.t_start) * 1000.0), status, load.native_ms,
                                    load.built_pch, LoadTimer::probe);
  event.detail = load.detail;
  event.detail->start_s = std::max(0.0, load.t_start - spawn_monotonic_s);
  event.detail->end_s = std::max(0.0, load.t_end - spawn_monotonic_s);
  return event;
}

// The log line is Warp's timer of this instrumented load: same module, device and hash, and both
// failed or neither did.
bool same_load(const ModuleEvent& instrumented, const ModuleEvent& logged) {
  if (instrumented.name != logged.name) return false;
  if (!instrumented.device.empty() && !logged.device.empty() && instrumented.device != logged.device) return false;
  const std::string& full_hash = instrumented.detail ? instrumented.detail->full_hash : instrumented.hash;
  if (!logged.hash.empty() && !full_hash.empty() && !full_hash.starts_with(logged.hash)) return false;
  return (instrumented.status == LoadStatus::error) == (logged.status == LoadStatus::error);
}

// Each log line takes the first instrumented load it matches, in order; lines that match none
// were loads the instrumentation did not see, and join as the log has them.
void take_warp_timers(std::vector<ModuleEvent>& events, const std::vector<ModuleEvent>& logged) {
  std::vector<bool> taken(events.size(), false);
  std::vector<ModuleEvent> log_only;
  for (const auto& line : logged) {
    bool matched = false;
    for (std::size_t i = 0; i < events.size() && !matched; ++i) {
      if (taken[i] || !same_load(events[i], line)) continue;
      taken[i] = matched = true;
      auto& event = events[i];
      event.ms = line.ms;
      event.timer = LoadTimer::warp;
      if (!event.native_ms) event.native_ms = line.native_ms;
      if (event.detail && !event.detail->compiled) event.status = line.status;
      event.built_pch = event.built_pch || (line.built_pch && event.status == LoadStatus::compiled);
    }
    if (!matched) log_only.push_back(line);
  }
  events.insert(events.end(), log_only.begin(), log_only.end());
}

}  // namespace

ObservedLoads observe_loads(const PassRecord& pass) {
  ObservedLoads out;
  const auto& instrumentation = pass.instrumentation;
  const auto hooks_missing = load_hooks_missing(instrumentation);
  const bool hooked = instrumentation.attached() && !hooks_missing;
  for (const auto& load : instrumentation.loads) out.events.push_back(event_of(load, pass.run.started_monotonic_s));
  take_warp_timers(out.events, pass.log.module_events);
  out.observed = hooked || !pass.log.module_events.empty();
  if (out.observed) return out;
  out.unobserved = !instrumentation.attached()
                       ? "the instrumentation did not attach (the command may never have imported Warp) and Warp's "
                         "log printed no module load timers"
                       : fmt::format(
                             "the instrumentation could not hook module loads ({}) and Warp's log printed no "
                             "module load timers",
                             *hooks_missing);
  return out;
}

void check_against_cache(ObservedLoads& loads, const CacheInventory& cache) {
  if (cache.generated_source_bytes == 0) return;
  if (count_status(loads.events, LoadStatus::compiled) > 0 || count_status(loads.events, LoadStatus::error) > 0) return;
  const std::string built = fmt::format(
      "modules were built but none was observed: the private kernel cache holds {} bytes of generated source in {} "
      "module folder(s)",
      cache.generated_source_bytes, cache.module_directories);
  loads.unobserved = loads.observed ? built + ", and no compiled load was recorded" : loads.unobserved + "; " + built;
  loads.observed = false;
}

std::optional<double> module_work(const ObservedLoads& loads, bool compiled_only) {
  if (!loads.observed) return std::nullopt;
  double total = 0.0;
  for (const auto& event : loads.events) {
    if (!compiled_only || event.status == LoadStatus::compiled) total += event.ms;
  }
  return total;
}

std::optional<double> native_compile(const ObservedLoads& loads) {
  if (!loads.observed) return std::nullopt;
  double total = 0.0;
  for (const auto& event : loads.events) {
    if (event.status != LoadStatus::compiled) continue;
    if (!event.native_ms) return std::nullopt;
    total += *event.native_ms;
  }
  return total;
}

int count_status(const std::vector<ModuleEvent>& events, LoadStatus status) {
  return static_cast<int>(std::count_if(events.begin(), events.end(),
                                        [status](const ModuleEvent& event) { return event.status == status; }));
}

ObservedLoads observe_cold_loads(const SampleRecord& sample) {
  ObservedLoads loads = observe_loads(sample.cold);
  check_against_cache(loads, sample.inventory);
  return loads;
}

std::vector<ModuleEvent> pass_events(const PassRecord& record, Pass pass) {
  std::vector<ModuleEvent> events = observe_loads(record).events;
  for (auto& event : events) event.pass = pass;
  return events;
}

}  // namespace wcp::measure
