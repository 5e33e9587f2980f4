#include "verdict/runner_speed.h"

#include <fmt/format.h>

#include <map>
#include <set>

#include "facts/queries.h"
#include "verdict/unchanged_compile.h"

namespace wcp::verdict {
namespace {

struct IdentityTime {
  std::size_t builds = 0;
  double ms = 0.0;
  // A build that also generated the process's precompiled header carries that cost too, and
  // which module pays it moves with build order: such an identity tells no runner's speed.
  bool built_pch = false;
};

// Per compiled identity, its builds and their time on the chosen clock; nullopt when a load
// lacks that clock.
std::optional<std::map<ModuleIdentity, IdentityTime>> identity_times(const Report& report, bool cpu_clock) {
  std::map<ModuleIdentity, IdentityTime> times;
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    std::optional<double> ms = event->ms;
    if (cpu_clock) ms = event->detail ? event->detail->cpu_ms : std::nullopt;
    if (!ms) return std::nullopt;
    auto& time = times[identity_of(*event)];
    ++time.builds;
    time.ms += *ms;
    time.built_pch = time.built_pch || event->built_pch;
  }
  return times;
}

// Identities whose module directory holds other bytes on the two sides (schema 15): not the
// same compile, whatever the hash says (verdict/unchanged_compile.h), so not the runner's speed.
// Warp names a module's directory "wp_<module>_<hash>".
std::set<ModuleIdentity> other_bytes(const Report& baseline, const Report& candidate,
                                     const std::map<ModuleIdentity, IdentityTime>& identities) {
  const auto differing = directories_with_other_bytes(baseline, candidate);
  std::set<ModuleIdentity> result;
  for (const auto& [identity, time] : identities) {
    if (differing.contains("wp_" + identity.name + "_" + identity.hash)) result.insert(identity);
  }
  return result;
}

}  // namespace

RunnerSpeedReading runner_speed(const Report& baseline, const Report& candidate, bool cpu_clock) {
  RunnerSpeedReading reading;
  if (!baseline.loads_observed || !candidate.loads_observed) {
    reading.not_applied = "a side's loads were not observed";
    return reading;
  }
  const auto before = identity_times(baseline, cpu_clock);
  const auto after = identity_times(candidate, cpu_clock);
  if (!before || !after) {
    reading.not_applied = fmt::format("a load has no {} of its own", cpu_clock ? "CPU clock" : "timer");
    return reading;
  }
  RunnerSpeed speed;
  speed.cpu_clock = cpu_clock;
  const auto rewritten = other_bytes(baseline, candidate, *before);
  bool changed = before->size() != after->size();
  for (const auto& [identity, time] : *after) speed.candidate_total_ms += time.ms;
  for (const auto& [identity, time] : *before) {
    speed.baseline_total_ms += time.ms;
    const auto found = after->find(identity);
    if (found == after->end() || found->second.builds != time.builds || rewritten.contains(identity) ||
        time.built_pch || found->second.built_pch) {
      changed = true;
      continue;
    }
    ++speed.unchanged_identities;
    speed.unchanged_baseline_ms += time.ms;
    speed.unchanged_candidate_ms += found->second.ms;
  }
  if (!changed) return reading;  // nothing changed: the whole sum is judged, or decided by identity
  if (speed.unchanged_identities == 0) {
    reading.not_applied = "no module was built identically on both sides";
    return reading;
  }
  if (speed.unchanged_baseline_ms < kMinimumUnchangedMs ||
      speed.unchanged_baseline_ms < kMinimumUnchangedShare * speed.baseline_total_ms ||
      speed.unchanged_candidate_ms <= 0.0) {
    reading.not_applied = fmt::format(
        "the {} module(s) built identically carry {:.0f} ms of the baseline's {:.0f} ms, under the {:.0f} ms and "
        "{:.0f} % it takes to read the runner's speed",
        speed.unchanged_identities, speed.unchanged_baseline_ms, speed.baseline_total_ms, kMinimumUnchangedMs,
        100.0 * kMinimumUnchangedShare);
    return reading;
  }
  speed.ratio = speed.unchanged_candidate_ms / speed.unchanged_baseline_ms;
  reading.speed = speed;
  return reading;
}

Summary at_baseline_speed(const Summary& candidate, const Summary& baseline, const RunnerSpeed& speed) {
  double ratio = speed.ratio;
  if (speed.candidate_total_ms > 0.0 && speed.baseline_total_ms > 0.0 && baseline.median > 0.0) {
    ratio *= (candidate.median / speed.candidate_total_ms) / (baseline.median / speed.baseline_total_ms);
  }
  Summary scaled = candidate;
  scaled.median /= ratio;
  if (scaled.mad) *scaled.mad /= ratio;
  for (double& value : scaled.values) value /= ratio;
  return scaled;
}

}  // namespace wcp::verdict
