#include "history/trend.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "io/name_table.h"

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

std::string builds_text(const ModuleBuilds& module) {
  return module.builds == 1 ? "once" : times(module.builds);
}

// The modules, a few by name: a commit that touches every kernel would otherwise be a paragraph.
std::string module_list(const std::vector<std::string>& modules) {
  constexpr std::size_t kNamed = 3;
  std::string text;
  for (std::size_t index = 0; index < modules.size() && index < kNamed; ++index)
    text += (index == 0 ? "" : ", ") + modules[index];
  if (modules.size() > kNamed) text += fmt::format(" and {} more", modules.size() - kNamed);
  return text;
}

std::string note_summary(const std::vector<std::string>& modules) {
  return "kernel code changed in " + module_list(modules);
}

std::vector<std::string> structure_parts(const StructureChange& change) {
  std::vector<std::string> parts;
  if (change.identities)
    parts.push_back(fmt::format("identities {} → {}", change.identities->before, change.identities->after));
  // Per module only where the total does not already say it: several modules, or the same total.
  const bool one_module_says_it = change.identities && change.identities_per_module.size() == 1 &&
                                  change.identities_per_module.front().before > 0 &&
                                  change.identities_per_module.front().after > 0;
  for (const auto& module : change.identities_per_module) {
    if (module.before == 0) {
      parts.push_back(fmt::format("module {} added", module.module));
    } else if (module.after == 0) {
      parts.push_back(fmt::format("module {} removed", module.module));
    } else if (!one_module_says_it) {
      parts.push_back(fmt::format("module {} identities {} → {}", module.module, module.before, module.after));
    }
  }
  for (const auto& module : change.built_more)
    parts.push_back(fmt::format("module {} built {}", module.name, times(module.builds)));
  for (const auto& module : change.built_fewer)
    parts.push_back(fmt::format("module {} built {}", module.name, builds_text(module)));
  if (change.warm_compiles)
    parts.push_back(fmt::format("warm compiles {} → {}", change.warm_compiles->before, change.warm_compiles->after));
  if (change.lto_artifacts)
    parts.push_back(fmt::format("LTO artifacts {} → {}", change.lto_artifacts->before, change.lto_artifacts->after));
  return parts;
}

std::string describe(const Step& step, const Point& point, LevelClock clock) {
  std::vector<std::string> parts;
  if (step.delta) {
    const std::string change =
        clock == LevelClock::cold_units            ? fmt::format("cold units {:+.2f}", *step.delta)
        : clock == LevelClock::cold_module_cpu_ms  ? "cold module CPU " + signed_duration(*step.delta)
        : clock == LevelClock::cuda_compile_cpu_ms ? "CUDA compile CPU " + signed_duration(*step.delta)
                                                   : "cold module work " + signed_duration(*step.delta);
    parts.push_back(step.clock_left_band ? fmt::format("{} at {}", change, short_sha(point.commit))
                                         : fmt::format("{} at {} (inside its band)", change, short_sha(point.commit)));
  } else {
    parts.push_back("at " + short_sha(point.commit));
  }
  for (auto& part : structure_parts(step.structure)) parts.push_back(std::move(part));
  // A step at an edit names the edit: the likeliest cause.
  if (step.structure.code_edited()) parts.push_back(note_summary(step.structure.modules_with_new_hashes()));
  std::string text;
  for (const auto& part : parts) text += (text.empty() ? "" : "; ") + part;
  return text;
}

const std::optional<Summary>& level_of(const Result& result, LevelClock clock) {
  switch (clock) {
    case LevelClock::cold_units:
      return result.cold_units;
    case LevelClock::cold_module_cpu_ms:
    case LevelClock::cuda_compile_cpu_ms:  // a CUDA series' results hold it there (cuda_results)
      return result.cold_module_cpu_ms;
    case LevelClock::cold_module_ms:
      break;
  }
  return result.cold_module_ms;
}

// Cold units where every measured commit has them against one reference (the user asked for
// them); else the CPU clock where every measured commit has it (load on the runner barely moves
// it, issue 49); else the wall. One clock for the whole series: levels of two clocks never mix.
LevelClock level_clock_for(const std::vector<Point>& points) {
  std::optional<std::string> reference;
  bool units = true, cpu = true, any = false;
  for (const auto& point : points) {
    if (!point.result.measured()) continue;
    any = true;
    if (!point.result.cold_units || (reference && *reference != point.result.reference)) units = false;
    reference = point.result.reference;
    if (!point.result.cold_module_cpu_ms) cpu = false;
  }
  if (!any) return LevelClock::cold_module_ms;
  if (units && reference) return LevelClock::cold_units;
  return cpu ? LevelClock::cold_module_cpu_ms : LevelClock::cold_module_ms;
}

// Each measured commit's structure against the previous measured commit's; absent for the
// first measured commit and for commits whose every sample failed.
std::vector<std::optional<StructureChange>> structure_changes(const std::vector<Point>& points) {
  std::vector<std::optional<StructureChange>> changes(points.size());
  std::optional<std::size_t> previous;
  for (std::size_t index = 0; index < points.size(); ++index) {
    if (!points[index].result.measured()) continue;
    if (previous) changes[index] = compare_structure(points[*previous].result, points[index].result);
    previous = index;
  }
  return changes;
}

bool structure_changed_at(const std::vector<std::optional<StructureChange>>& changes, std::size_t index) {
  return changes[index] && changes[index]->structural();
}

// Whether the next two measured commits hold the level this one left the band to. A commit of
// another structure ends the search: its level is its own step's, not a confirmation.
ClockMove level_held(const std::vector<Point>& points, const std::vector<std::optional<StructureChange>>& changes,
                     std::size_t index, ClockMove side, const Summary& reference, double band, LevelClock clock) {
  int confirmations = 0;
  for (std::size_t next = index + 1; next < points.size() && confirmations < 2; ++next) {
    const auto& later = level_of(points[next].result, clock);
    if (!points[next].result.measured() || !later) continue;
    if (structure_changed_at(changes, next)) return ClockMove::unconfirmed;
    if (side_of(later->median, reference, band) != side) return ClockMove::returned;
    ++confirmations;
  }
  return confirmations == 2 ? side : ClockMove::unconfirmed;
}

void find_steps(std::vector<Point>& points, LevelClock clock) {
  const auto changes = structure_changes(points);
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
    }
    if (changes[index]) {
      step.structure = *changes[index];
      step.structure_changed = step.structure.structural();
      if (step.structure.code_edited()) {
        const auto modules = step.structure.modules_with_new_hashes();
        point.note = Note{NoteKind::kernel_code_changed, modules, step.structure.identities_added,
                          step.structure.identities_removed, note_summary(modules)};
      }
    }
    const auto& level = level_of(result, clock);
    if (level && window.size() >= kMinimumBandSamples && window_commits >= kMinimumBandCommits) {
      const Summary reference = *summarize(window);
      const double band = noise_band(reference);
      step.delta = level->median - reference.median;
      step.band = band;
      point.clock = side_of(level->median, reference, band);
      if (point.clock == ClockMove::above || point.clock == ClockMove::below) {
        point.clock = level_held(points, changes, index, point.clock, reference, band, clock);
        step.clock_left_band = point.clock == ClockMove::above || point.clock == ClockMove::below;
      }
    }
    // The same identities as the commit before: the same code by the same toolchain. A level
    // that moved there is the runner's; the band restarts at the new level, and no step is drawn.
    bool runner_moved = false;
    if (step.clock_left_band && !step.structure_changed && previous && result.identity_set &&
        result.identity_set == points[*previous].result.identity_set) {
      runner_moved = true;
      step.clock_left_band = false;
      point.note = Note{NoteKind::runner_level_moved,
                        {},
                        {},
                        {},
                        fmt::format("the level moved ({:+.1f} against a band of ±{:.1f}) while this commit compiled "
                                    "exactly the identities of the one before: the runner, not the code",
                                    *step.delta, *step.band)};
    }
    if (runner_moved) {
      window.clear();
      window_commits = 0;
    }
    if (step.structure_changed || step.clock_left_band) {
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
  return series.same_hardware(result) && same_or_unknown(series.warp_version, result.warp_version) &&
         same_or_unknown(series.cuda_toolkit, result.cuda_toolkit);
}

}  // namespace

namespace {

constexpr NameTable<ClockMove, 6> kClockMoves{{
    {ClockMove::none, "none"},
    {ClockMove::within, "within"},
    {ClockMove::above, "above"},
    {ClockMove::below, "below"},
    {ClockMove::returned, "returned"},
    {ClockMove::unconfirmed, "unconfirmed"},
}};

constexpr NameTable<NoteKind, 2> kNoteKinds{{
    {NoteKind::kernel_code_changed, "kernel_code_changed"},
    {NoteKind::runner_level_moved, "runner_level_moved"},
}};

constexpr NameTable<LevelClock, 4> kLevelClocks{{
    {LevelClock::cold_module_ms, "cold_module_ms"},
    {LevelClock::cold_units, "cold_units"},
    {LevelClock::cold_module_cpu_ms, "cold_module_cpu_ms"},
    {LevelClock::cuda_compile_cpu_ms, "cuda_compile_cpu_ms"},
}};

}  // namespace

std::string to_string(ClockMove move) {
  return std::string(name_of(kClockMoves, move));
}

std::string to_string(NoteKind kind) {
  return std::string(name_of(kNoteKinds, kind));
}

std::string to_string(LevelClock clock) {
  return std::string(name_of(kLevelClocks, clock));
}

std::string short_sha(const std::optional<Commit>& commit) {
  if (!commit) return "no commit";
  return commit->sha.substr(0, 7) + (commit->dirty ? "-dirty" : "");
}

namespace {

// Each result with a CUDA build, once per arch, as a result of its own series "<name> · CUDA
// sm_N": that arch's CPU time in its module clocks, its structure the command's (the CUDA build
// compiles the identities the command loaded), no cold units (the reference times the CPU build).
std::string cuda_series_name(const std::string& name, int arch) {
  return fmt::format("{} · CUDA sm_{}", name, arch);
}

std::vector<std::pair<Result, int>> with_cuda_results(const std::vector<Result>& results) {
  std::vector<std::pair<Result, int>> all;
  for (const auto& result : results) {
    all.emplace_back(result, 0);
    for (const auto& [arch, summary] : result.cuda_compile_cpu_ms) {
      Result cuda = result;
      cuda.name = cuda_series_name(result.name, arch);
      cuda.cold_module_ms = summary;
      cuda.cold_module_cpu_ms = summary;
      cuda.cold_units.reset();
      cuda.reference.clear();
      all.emplace_back(std::move(cuda), arch);
    }
  }
  return all;
}

}  // namespace

std::vector<Series> build_series(const std::vector<Result>& results, const std::string& name, const std::string& host) {
  std::vector<Series> series;
  for (const auto& entry : with_cuda_results(results)) {
    const Result& result = entry.first;  // not a structured binding: lambdas below capture it
    const int cuda_arch = entry.second;
    // A command's name selects its CUDA series too.
    if (!name.empty() && result.name != name && (cuda_arch == 0 || result.name != cuda_series_name(name, cuda_arch)))
      continue;
    if (!host.empty() && result.machine.host != host) continue;
    // The latest series it fits: after a Warp upgrade, a failed run belongs to the new version's.
    Series* owner = nullptr;
    for (auto candidate = series.rbegin(); candidate != series.rend() && !owner; ++candidate) {
      if (candidate->name == result.name && same_machine(candidate->machine, result.machine)) owner = &*candidate;
    }
    if (!owner) {
      Series fresh;
      fresh.name = result.name;
      fresh.machine = result.machine;
      fresh.cuda_arch = cuda_arch;
      series.push_back(std::move(fresh));
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
      Point fresh;
      fresh.commit = result.commit;
      owner->points.push_back(std::move(fresh));
      point = std::prev(owner->points.end());
    }
    ++point->results;
    // The latest measured result speaks for the commit; a failed one only until one succeeds.
    if (result.measured() || !point->result.measured()) point->result = result;
  }
  for (auto& one : series) {
    one.level_clock = one.cuda_arch != 0 ? LevelClock::cuda_compile_cpu_ms : level_clock_for(one.points);
    find_steps(one.points, one.level_clock);
  }
  return series;
}

}  // namespace wcp::history
