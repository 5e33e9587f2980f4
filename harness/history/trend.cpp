#include "history/trend.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace wcp::history {
namespace {

// Seconds above 10 s, milliseconds below: what a person reads at a glance.
std::string signed_duration(double ms) {
  const char* sign = ms < 0 ? "-" : "+";
  const double magnitude = std::abs(ms);
  return magnitude >= 1000.0 ? fmt::format("{}{:.1f} s", sign, magnitude / 1000.0)
                             : fmt::format("{}{:.0f} ms", sign, magnitude);
}

std::string times(int builds) {
  return builds == 2 ? "twice" : fmt::format("{} times", builds);
}

// The values a result contributes to the band: its samples, else its median alone.
void add_values(const Summary& summary, std::vector<double>& window) {
  if (summary.values.empty()) {
    window.push_back(summary.median);
  } else {
    window.insert(window.end(), summary.values.begin(), summary.values.end());
  }
}

ClockMove side_of(double median, const Summary& reference, double band) {
  const double delta = median - reference.median;
  if (std::abs(delta) <= band) return ClockMove::within;
  return delta > 0 ? ClockMove::above : ClockMove::below;
}

std::vector<ModuleBuilds> newly_rebuilt(const Result& now, const Result& before) {
  std::vector<ModuleBuilds> modules;
  if (!now.rebuilt_modules || !before.rebuilt_modules) return modules;
  for (const auto& module : *now.rebuilt_modules) {
    const auto earlier = std::find_if(before.rebuilt_modules->begin(), before.rebuilt_modules->end(),
                                      [&module](const ModuleBuilds& other) { return other.name == module.name; });
    if (earlier == before.rebuilt_modules->end() || earlier->builds < module.builds) modules.push_back(module);
  }
  return modules;
}

std::string describe(const Step& step, const Point& point, LevelClock clock) {
  std::vector<std::string> parts;
  if (step.delta) {
    const std::string change = clock == LevelClock::cold_units ? fmt::format("cold units {:+.2f}", *step.delta)
                                                               : "cold module work " + signed_duration(*step.delta);
    parts.push_back(step.clock_left_band ? fmt::format("{} at {}", change, short_sha(point.commit))
                                         : fmt::format("{} at {} (inside its band)", change, short_sha(point.commit)));
  } else {
    parts.push_back("at " + short_sha(point.commit));
  }
  if (step.identities_changed && step.identities_before && step.identities_after) {
    parts.push_back(
        step.identities_before == step.identities_after
            ? fmt::format("identities {} → {}, hashes changed", *step.identities_before, *step.identities_after)
            : fmt::format("identities {} → {}", *step.identities_before, *step.identities_after));
  } else if (step.identities_changed) {
    parts.push_back("identity set changed");
  }
  for (const auto& module : step.newly_rebuilt)
    parts.push_back(fmt::format("module {} built {}", module.name, times(module.builds)));
  std::string text;
  for (const auto& part : parts) text += (text.empty() ? "" : "; ") + part;
  return text;
}

const std::optional<Summary>& level_of(const Result& result, LevelClock clock) {
  return clock == LevelClock::cold_units ? result.cold_units : result.cold_module_ms;
}

LevelClock level_clock_for(const std::vector<Point>& points) {
  std::optional<std::string> reference;
  for (const auto& point : points) {
    if (!point.result.measured()) continue;
    if (!point.result.cold_units || (reference && *reference != point.result.reference)) return LevelClock::cold_module_ms;
    reference = point.result.reference;
  }
  return reference ? LevelClock::cold_units : LevelClock::cold_module_ms;
}

void find_steps(std::vector<Point>& points, LevelClock clock) {
  std::vector<double> window;  // pooled sample values of the measured commits since the last step
  std::size_t window_commits = 0;
  std::optional<std::size_t> previous;
  for (std::size_t index = 0; index < points.size(); ++index) {
    Point& point = points[index];
    const Result& result = point.result;
    if (!result.measured()) continue;
    Step step;
    if (previous) {
      const Result& before = points[*previous].result;
      if (result.cold_module_ms && before.cold_module_ms) {
        point.change_ms = result.cold_module_ms->median - before.cold_module_ms->median;
      }
      if (result.identity_set && before.identity_set && *result.identity_set != *before.identity_set) {
        step.identities_changed = true;
        std::set_difference(result.identity_set->begin(), result.identity_set->end(), before.identity_set->begin(),
                            before.identity_set->end(), std::back_inserter(step.identities_added));
        std::set_difference(before.identity_set->begin(), before.identity_set->end(), result.identity_set->begin(),
                            result.identity_set->end(), std::back_inserter(step.identities_removed));
        step.identities_before = before.identity_set->size();
        step.identities_after = result.identity_set->size();
      }
      step.newly_rebuilt = newly_rebuilt(result, before);
    }
    const auto& level = level_of(result, clock);
    if (level && window.size() >= kMinimumBandSamples && window_commits >= kMinimumBandCommits) {
      const Summary reference = *summarize(window);
      const double band = noise_band(reference);
      step.delta = level->median - reference.median;
      step.band = band;
      point.clock = side_of(level->median, reference, band);
      if (point.clock == ClockMove::above || point.clock == ClockMove::below) {
        int confirmations = 0;
        bool contradicted = false;
        for (std::size_t next = index + 1; next < points.size() && confirmations < 2 && !contradicted; ++next) {
          const auto& later = level_of(points[next].result, clock);
          if (!points[next].result.measured() || !later) continue;
          if (side_of(later->median, reference, band) == point.clock) {
            ++confirmations;
          } else {
            contradicted = true;
          }
        }
        if (confirmations == 2) {
          step.clock_left_band = true;
        } else {
          point.clock = contradicted ? ClockMove::returned : ClockMove::unconfirmed;
        }
      }
    }
    if (step.identities_changed || step.clock_left_band) {
      step.summary = describe(step, point, clock);
      point.step = std::move(step);
      window.clear();
      window_commits = 0;
    }
    if (level) {
      add_values(*level, window);
      ++window_commits;
    }
    previous = index;
  }
}

// A result that never imported Warp (every sample failed before it) does not know Warp's or
// the toolkit's version: it belongs to the series of the same hardware, not to a series of its own.
bool same_machine(const Machine& series, const Machine& result) {
  const auto same_or_unknown = [](const std::string& a, const std::string& b) {
    return a == b || a.empty() || b.empty();
  };
  return series.host == result.host && series.cpu_model == result.cpu_model && series.gpu == result.gpu &&
         series.driver == result.driver && same_or_unknown(series.warp_version, result.warp_version) &&
         same_or_unknown(series.cuda_toolkit, result.cuda_toolkit);
}

}  // namespace

std::string to_string(ClockMove move) {
  switch (move) {
    case ClockMove::none:
      return "none";
    case ClockMove::within:
      return "within";
    case ClockMove::above:
      return "above";
    case ClockMove::below:
      return "below";
    case ClockMove::returned:
      return "returned";
    case ClockMove::unconfirmed:
      return "unconfirmed";
  }
  return "none";
}

std::string to_string(LevelClock clock) {
  return clock == LevelClock::cold_units ? "cold_units" : "cold_module_ms";
}

std::string short_sha(const std::optional<Commit>& commit) {
  if (!commit) return "no commit";
  return commit->sha.substr(0, 7) + (commit->dirty ? "-dirty" : "");
}

std::vector<Series> build_series(const std::vector<Result>& results, const std::string& name, const std::string& host) {
  std::vector<Series> series;
  for (const auto& result : results) {
    if (!name.empty() && result.name != name) continue;
    if (!host.empty() && result.machine.host != host) continue;
    // The latest series it fits: after a Warp upgrade, a failed run belongs to the new version's.
    Series* owner = nullptr;
    for (auto candidate = series.rbegin(); candidate != series.rend() && !owner; ++candidate) {
      if (candidate->name == result.name && same_machine(candidate->machine, result.machine)) owner = &*candidate;
    }
    if (!owner) {
      series.push_back({result.name, result.machine, {}});
      owner = &series.back();
    }
    // A series started by a failed run learns the versions from its first measured one.
    if (owner->machine.warp_version.empty()) owner->machine.warp_version = result.machine.warp_version;
    if (owner->machine.cuda_toolkit.empty()) owner->machine.cuda_toolkit = result.machine.cuda_toolkit;
    // A dirty tree at a commit is other code than the commit: it is its own point. A result
    // without a commit is always its own point.
    auto point = std::find_if(owner->points.begin(), owner->points.end(), [&result](const Point& candidate) {
      return result.commit && candidate.commit == result.commit;
    });
    if (point == owner->points.end()) {
      owner->points.push_back({result.commit, {}, 0, std::nullopt, ClockMove::none, std::nullopt});
      point = std::prev(owner->points.end());
    }
    ++point->results;
    // The latest measured result speaks for the commit; a failed one only until one succeeds.
    if (result.measured() || !point->result.measured()) point->result = result;
  }
  for (auto& one : series) {
    one.level_clock = level_clock_for(one.points);
    find_steps(one.points, one.level_clock);
  }
  return series;
}

}  // namespace wcp::history
