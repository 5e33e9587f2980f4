#include "verdict/judge.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "facts/queries.h"
#include "io/name_table.h"
#include "io/units.h"
#include "verdict/judge_notes.h"

namespace wcp::verdict {
namespace {

// "fell by 757.1 ms (16.2%)": the verb carries the sign, so the amount is unsigned.
std::string moved_by(const ClockComparison& clock) {
  std::string text = tenths_milliseconds_text(std::abs(*clock.delta_ms));
  if (clock.delta_percent) text += fmt::format(" ({:.1f}%)", std::abs(*clock.delta_percent));
  return text;
}

std::string_view movement(Direction direction) {
  switch (direction) {
    case Direction::improved:
      return "fell by";
    case Direction::regressed:
      return "rose by";
    default:
      return "changed by";
  }
}

std::vector<ModuleHashRow> hash_table(const Report& baseline, const Report& candidate) {
  std::map<std::string, ModuleHashRow> rows;
  auto add = [&rows](const Report& report, bool is_baseline) {
    for (const ModuleEvent* event : cold_compiled_events(report)) {
      const std::string key = event->name + "@" + event->device;
      auto& row = rows[key];
      row.module = key;
      auto& hashes = is_baseline ? row.baseline_hashes : row.candidate_hashes;
      if (std::find(hashes.begin(), hashes.end(), event->hash) == hashes.end()) hashes.push_back(event->hash);
    }
  };
  add(baseline, true);
  add(candidate, false);
  std::vector<ModuleHashRow> table;
  for (auto& [key, row] : rows) {
    row.changed = row.baseline_hashes != row.candidate_hashes;
    table.push_back(std::move(row));
  }
  return table;
}

std::vector<CountComparison> count_table(const Report& baseline, const Report& candidate) {
  const auto counts_of = [](const Report& report, Count count) -> std::optional<std::uint64_t> {
    if (!report.measured()) return std::nullopt;
    const bool counts_loads = count == Count::identities || count == Count::modules || count == Count::compiled_events;
    if (counts_loads && !report.loads_observed) return std::nullopt;  // nobody saw its loads: not 0
    switch (count) {
      case Count::identities:
        return report.identities;
      case Count::modules:
        return report.modules;
      case Count::compiled_events:
        return report.compiled_events;
      case Count::warm_compiles:
        return warm_compiles(report);
      case Count::generated_source_bytes:
        return report.cache.generated_source_bytes;
      case Count::lto_artifacts:
        return report.cache.lto_artifacts;
    }
    return std::nullopt;
  };
  std::vector<CountComparison> table;
  for (Count count : {Count::identities, Count::modules, Count::compiled_events, Count::warm_compiles,
                      Count::generated_source_bytes, Count::lto_artifacts}) {
    table.push_back({count, counts_of(baseline, count), counts_of(candidate, count)});
  }
  return table;
}

bool same_work_compiled(const Report& baseline, const Report& candidate, const Judgement& judgement) {
  if (judgement.workload.status != WorkloadStatus::equivalent) return false;
  if (compiled_identity_set(baseline) != compiled_identity_set(candidate)) return false;
  for (const auto& count : judgement.counts) {
    if (count.count == Count::warm_compiles) continue;  // the warm pass is not the work compiled
    if (!count.baseline || !count.candidate || count.baseline != count.candidate) return false;
  }
  return true;
}

// The candidate compiled less than the baseline and nothing more: the same launches, no count
// higher (identities, modules, builds, generated source bytes, LTO artifacts), at least one
// lower, and no module built with other options (both sides must have the load snapshots that
// tell). A rise in its summed module time cannot come from its own work: a compiler option,
// which can make the same source slower to build, is the one thing the counts would not show.
bool less_work_compiled(const Judgement& judgement) {
  if (judgement.workload.status != WorkloadStatus::equivalent) return false;
  if (!judgement.options.baseline_snapshots || !judgement.options.candidate_snapshots) return false;
  if (!judgement.options.changes.empty()) return false;
  bool fewer = false;
  for (const auto& count : judgement.counts) {
    if (count.count == Count::warm_compiles) continue;  // the warm pass is not the work compiled
    if (!count.baseline || !count.candidate || *count.candidate > *count.baseline) return false;
    fewer = fewer || *count.candidate < *count.baseline;
  }
  return fewer;
}

SideFacts facts_of(const Report& report) {
  SideFacts facts;
  facts.overlap_factor = report.overlap_factor;
  facts.builds_overlapped = builds_overlapped(report);
  facts.compiled_nothing = compiled_nothing(report);
  facts.samples = report.samples;
  facts.failed_samples = report.failed_samples;
  facts.failed_warm_runs = failed_warm_runs(report);
  facts.elapsed_left_out = elapsed_left_out(report);
  return facts;
}

}  // namespace

std::string detectable_text(const ClockComparison& clock) {
  if (!clock.detectable_percent) return "";
  const std::string runs =
      clock.paired ? fmt::format("{} pair{}", clock.baseline_runs, clock.baseline_runs == 1 ? "" : "s")
      : clock.baseline_runs == clock.candidate_runs
          ? fmt::format("{} run{} a side", clock.baseline_runs, clock.baseline_runs == 1 ? "" : "s")
          : fmt::format("{} and {} runs", clock.baseline_runs, clock.candidate_runs);
  return fmt::format("could detect ≥ {:.1f} % with {}", *clock.detectable_percent, runs);
}

std::string signed_change(const ClockComparison& clock) {
  std::string text = fmt::format("{:+.1f} ms", *clock.delta_ms);
  if (clock.delta_percent) text += fmt::format(" ({:+.1f}%)", *clock.delta_percent);
  return text;
}

namespace {

constexpr NameTable<Verdict, 7> kVerdicts{{
    {Verdict::invalid, "INVALID"},
    {Verdict::regression, "REGRESSION"},
    {Verdict::improved, "IMPROVED"},
    {Verdict::inconclusive, "INCONCLUSIVE"},
    {Verdict::unverified, "UNVERIFIED"},
    {Verdict::unchanged, "UNCHANGED"},
    {Verdict::not_judged, "NOT JUDGED"},
}};

constexpr NameTable<Clock, 4> kClocks{{
    {Clock::module_work, "cold module work"},
    {Clock::module_cpu, "cold module CPU"},
    {Clock::compile_elapsed, "compile elapsed"},
    {Clock::cuda_compile_cpu, "CUDA compile CPU"},
}};

constexpr NameTable<Direction, 4> kDirections{{
    {Direction::improved, "improved"},
    {Direction::within_band, "within noise"},
    {Direction::regressed, "regressed"},
    {Direction::unavailable, "unavailable"},
}};

constexpr NameTable<Count, 6> kCounts{{
    {Count::identities, "compiled identities"},
    {Count::modules, "modules"},
    {Count::compiled_events, "compiled events (cold)"},
    {Count::warm_compiles, "compiled events (warm)"},
    {Count::generated_source_bytes, "generated source bytes"},
    {Count::lto_artifacts, "LTO artifacts"},
}};

}  // namespace

std::string_view to_string(Verdict verdict) {
  return name_of(kVerdicts, verdict);
}

int exit_code_of(Verdict verdict) {
  return verdict == Verdict::invalid || verdict == Verdict::regression ? 1 : 0;
}

std::string_view to_string(Clock clock) {
  return name_of(kClocks, clock);
}

std::string_view to_string(Direction direction) {
  return name_of(kDirections, direction);
}

std::string_view to_string(Count count) {
  return name_of(kCounts, count);
}

namespace {

// Beyond the band either way, or inside it: the one reading of a delta both clocks share.
Direction direction_of(double delta, double band) {
  if (delta < -band) return Direction::improved;
  if (delta > band) return Direction::regressed;
  return Direction::within_band;
}

ClockComparison unjudged(Clock clock, const std::optional<Summary>& baseline, const std::optional<Summary>& candidate) {
  ClockComparison result;
  result.clock = clock;
  result.baseline = baseline;
  result.candidate = candidate;
  return result;
}

void judge_against_band(ClockComparison& result, double delta, double band, const Summary& baseline) {
  result.delta_ms = delta;
  result.band_ms = band;
  if (baseline.median != 0.0) {
    result.delta_percent = 100.0 * delta / std::fabs(baseline.median);
    result.detectable_percent = 100.0 * band / std::fabs(baseline.median);
  }
  result.direction = direction_of(delta, band);
}

}  // namespace

namespace {

// The noise a summary's own samples measured; nullopt when they measured none.
std::optional<Noise> noise_of_samples(const Summary& summary, std::string_view side) {
  return noise_of_summary(summary, NoiseSource::samples, fmt::format("the {}'s {} samples", side, summary.count));
}

Noise no_noise(std::size_t baseline_runs, std::size_t candidate_runs) {
  Noise noise;
  noise.detail = fmt::format("{} and {} sample(s), fewer than {} on either side, and no history or calibration",
                             baseline_runs, candidate_runs, kMinimumNoiseSamples);
  return noise;
}

// Inside a band: the runs per side that would decide a change this size. With no noise
// measured, the fewest that would measure it.
std::optional<int> runs_needed(const ClockComparison& result, const Summary& baseline) {
  if (result.direction != Direction::within_band) return std::nullopt;
  if (!result.noise.measured()) return static_cast<int>(kMinimumNoiseSamples);
  return runs_to_decide(*result.noise.relative_mad, baseline.median, *result.delta_ms);
}

}  // namespace

ClockComparison compare_clock(Clock clock, const std::optional<Summary>& baseline,
                              const std::optional<Summary>& candidate, double tolerance_percent,
                              const std::optional<Noise>& prior) {
  ClockComparison result = unjudged(clock, baseline, candidate);
  if (!baseline || !candidate) return result;
  const double median = std::fabs(baseline->median);
  const double floor = std::max(0.01 * median, tolerance_percent / 100.0 * median);
  double band = 0.0;
  const bool history = prior && prior->source == NoiseSource::history && prior->measured();
  const auto baseline_noise = noise_of_samples(*baseline, "baseline");
  const auto candidate_noise = noise_of_samples(*candidate, "candidate");
  if (baseline_noise) {
    // The original probe's band when the baseline measured its own noise; a history's, when
    // wider, wins: back-to-back samples miss the drift between runs at other times.
    result.noise = *baseline_noise;
    band = noise_band(*baseline, tolerance_percent);
    if (history) {
      const double between_runs =
          spread_band(*prior->relative_mad, median, baseline->count, candidate->count, prior->values);
      if (between_runs > band) {
        result.noise = *prior;
        band = between_runs;
      }
    }
  } else if (history) {
    // Earlier runs at other times hold the drift between runs, which the candidate's own
    // back-to-back samples miss (they read 1-3 % where runs hours apart differ by more).
    result.noise = *prior;
    band = std::max(floor, spread_band(*prior->relative_mad, median, baseline->count, candidate->count, prior->values));
  } else if (candidate_noise) {
    result.noise = *candidate_noise;
    band = std::max(floor, 2.0 * *candidate->mad);
  } else if (prior && prior->measured()) {
    result.noise = *prior;
    band = std::max(floor, spread_band(*prior->relative_mad, median, baseline->count, candidate->count, prior->values));
  } else {
    // A MAD of one or two values reads 0: noise nobody measured. Only a gross change is judged.
    result.noise = no_noise(baseline->count, candidate->count);
    band = std::max(floor, kGrossChangeBound * median);
  }
  judge_against_band(result, candidate->median - baseline->median, band, *baseline);
  result.baseline_runs = baseline->count;
  result.candidate_runs = candidate->count;
  result.samples_to_decide = runs_needed(result, *baseline);
  return result;
}

ClockComparison compare_clock_paired(Clock clock, const std::optional<Summary>& baseline,
                                     const std::optional<Summary>& candidate,
                                     const std::vector<std::pair<double, double>>& pairs, double tolerance_percent) {
  ClockComparison result = unjudged(clock, baseline, candidate);
  if (!baseline || !candidate || pairs.empty()) return result;
  PairedStats stats{paired_differences(pairs)};
  const double median = std::fabs(baseline->median);
  double band = std::max({0.01 * median, 2.0 * stats.mad_delta, tolerance_percent / 100.0 * median});
  if (pairs.size() >= kMinimumNoiseSamples) {
    result.noise.source = NoiseSource::samples;
    if (median != 0.0) result.noise.relative_mad = stats.mad_delta / median;
    result.noise.runs = pairs.size();
    result.noise.detail = fmt::format("the spread of {} paired differences", pairs.size());
  } else {
    result.noise = no_noise(pairs.size(), pairs.size());
    band = std::max(band, kGrossChangeBound * median);
  }
  judge_against_band(result, stats.median_delta, band, *baseline);
  result.baseline_runs = result.candidate_runs = pairs.size();
  const int decided = stats.faster + stats.slower;
  stats.sign_test_p = sign_test_p(stats.median_delta < 0 ? stats.faster : stats.slower, decided);
  if (result.direction != Direction::within_band && stats.sign_test_p > kSignTestAlpha) {
    result.direction = Direction::within_band;
    stats.too_few_to_tell = true;
  }
  result.paired = stats;
  result.samples_to_decide = runs_needed(result, *baseline);
  return result;
}

namespace {

// A stored baseline's band holds the runner's drift since it was taken (JudgeOptions).
void widen_for_drift(ClockComparison& clock, double drift_percent) {
  if (!clock.baseline || !clock.candidate || !clock.band_ms || !clock.delta_ms) return;
  const double drift = drift_percent / 100.0 * std::fabs(clock.baseline->median);
  if (drift <= *clock.band_ms) return;
  clock.band_ms = drift;
  clock.drift_floor = true;
  if (clock.baseline->median != 0.0) clock.detectable_percent = drift_percent;
  clock.direction = direction_of(*clock.delta_ms, drift);
  clock.noise.detail += fmt::format(
      "; widened to the {:.0f} % a runner drifts between a stored baseline and now (no unchanged module to read "
      "its speed on)",
      drift_percent);
  clock.samples_to_decide.reset();  // more runs of the candidate alone cannot narrow a drift
}

// (baseline, candidate) values of one clock for every sample index both arms measured.
std::vector<std::pair<double, double>> pairs_of(const Report& baseline, const Report& candidate, Clock clock) {
  const auto value = [clock](const SampleResult& sample) -> std::optional<double> {
    if (!sample.cold_ok) return std::nullopt;
    if (clock == Clock::module_work) return sample.cold_module_ms;
    if (clock == Clock::module_cpu) return sample.cold_module_cpu_ms;
    return sample_compile_elapsed(sample).ms;  // absent when the warm wall was not below the cold wall
  };
  std::vector<std::pair<double, double>> pairs;
  for (const auto& a : baseline.sample_results) {
    for (const auto& b : candidate.sample_results) {
      if (a.index != b.index) continue;
      const auto x = value(a), y = value(b);
      if (x && y) pairs.emplace_back(*x, *y);
    }
  }
  return pairs;
}

}  // namespace

namespace {

// What every decision rule reads: the two reports and the comparisons already made.
struct RuleInputs {
  const Report& baseline;
  const Report& candidate;
  const Judgement& judgement;
  const JudgeOptions& options;
};

struct Decision {
  Verdict verdict;
  Rule rule;
  std::string reason;
};

// A rule decides, or passes to the next one.
using Ruling = std::optional<Decision>;

// A candidate that failed proves nothing.
Ruling candidate_failed_rule(const RuleInputs& in) {
  const Report& candidate = in.candidate;
  if (!candidate.measured()) {
    return Decision{Verdict::invalid, Rule::candidate_failed, "every candidate sample failed: nothing was measured"};
  }
  const int failed_warm_runs = in.judgement.candidate.failed_warm_runs;
  if (candidate.failed_samples == 0 && candidate.error_events == 0 && failed_warm_runs == 0) return std::nullopt;
  std::vector<std::string> what;
  if (candidate.failed_samples > 0) {
    what.push_back(fmt::format("{} of {} samples failed", candidate.failed_samples, candidate.samples));
  }
  // A program that fails when run again against its own cache is broken, and its warm
  // figures cannot be credited: the sample fails as a whole.
  if (failed_warm_runs > 0) {
    what.push_back(
        fmt::format("{} of {} warm runs failed", failed_warm_runs, candidate.samples - candidate.failed_samples));
  }
  if (candidate.error_events > 0) what.push_back(fmt::format("{} module load error(s)", candidate.error_events));
  return Decision{Verdict::invalid, Rule::candidate_failed,
                  fmt::format("the candidate run is not valid evidence: {}", fmt::join(what, " and "))};
}

// Neither does a baseline that measured nothing.
Ruling baseline_failed_rule(const RuleInputs& in) {
  if (in.baseline.measured()) return std::nullopt;
  return Decision{Verdict::invalid, Rule::baseline_failed,
                  "every baseline sample failed: there is nothing to compare against"};
}

// Without launch records the work may have changed unseen.
Ruling no_launch_record_rule(const RuleInputs& in) {
  const auto& workload = in.judgement.workload;
  if (workload.status != WorkloadStatus::unverified) return std::nullopt;
  return Decision{Verdict::unverified, Rule::no_launch_record,
                  workload.reason + "; check that the program's numeric output is unchanged by hand"};
}

// Less work is not a compile improvement.
Ruling workload_changed_rule(const RuleInputs& in) {
  const auto& workload = in.judgement.workload;
  if (workload.status != WorkloadStatus::different) return std::nullopt;
  std::string reason = "the workload changed: " + workload.reason;
  if (const auto& first = workload.first_divergence) {
    reason += fmt::format("; first divergence at launch #{}", first->index + 1);
    if (const std::string changes = divergence_changes_text(*first); !changes.empty()) reason += ": " + changes;
  }
  return Decision{Verdict::invalid, Rule::workload_changed, reason};
}

std::string elapsed_change(const ClockComparison& elapsed);

// The same code compiled by the same compilers is the same compile work, whatever a clock read:
// decided after one run, with no noise to weigh (verdict/unchanged_compile.h).
// The same work can still be done sooner or later (a lever that builds modules in parallel):
// compile elapsed decides that, as within_band lets it, except against a stored baseline, whose
// walls carry another moment's runner.
Ruling identities_unchanged_rule(const RuleInputs& in) {
  if (in.judgement.sameness.sameness != Sameness::same) return std::nullopt;
  const auto& elapsed = in.judgement.compile_elapsed;
  const std::string same = "compile work unchanged: " + in.judgement.sameness.detail;
  if (elapsed.direction == Direction::improved && !in.options.stored_baseline_drift_percent) {
    return Decision{Verdict::improved, Rule::identities_unchanged,
                    same + "; but " + elapsed_change(elapsed) + ": the same work, done sooner"};
  }
  if (in.options.gate_on_elapsed && elapsed.direction == Direction::regressed) {
    return Decision{Verdict::regression, Rule::identities_unchanged,
                    same + "; but " + elapsed_change(elapsed) + " (this budget gates on elapsed)"};
  }
  return Decision{Verdict::unchanged, Rule::identities_unchanged, same};
}

Ruling work_unavailable_rule(const RuleInputs& in) {
  const auto& work = in.judgement.module_work;
  if (work.direction != Direction::unavailable) return std::nullopt;
  return Decision{Verdict::unverified, Rule::work_unavailable,
                  fmt::format("cold module work is unavailable in the {} report (Warp printed no module timers), so "
                              "there is nothing to judge",
                              !work.baseline && !work.candidate ? "baseline and the candidate"
                              : !work.baseline                  ? "baseline"
                                                                : "candidate")};
}

// From here on cold module work is on both sides, with its band.
// Where the band came from, in the reason: with no noise measured it is the gross-change bound.
std::string band_text(const ClockComparison& clock) {
  if (!clock.noise.measured()) {
    return fmt::format("gross-change bound ±{} ({:.0f} %; {})", tenths_milliseconds_text(*clock.band_ms),
                       100.0 * kGrossChangeBound, clock.noise.summary());
  }
  return fmt::format("noise band ±{} ({})", tenths_milliseconds_text(*clock.band_ms), clock.noise.summary());
}

// "cold module CPU rose by 250.0 ms (13.2%) (1.89 s → 2.14 s), noise band …": the clock named,
// then its move, then both medians.
std::string work_change(const ClockComparison& work) {
  std::string text =
      fmt::format("{} {} {} ({} → {}), {}", to_string(work.clock), movement(work.direction),
                  work.direction == Direction::improved || work.direction == Direction::regressed ? moved_by(work)
                                                                                                  : signed_change(work),
                  reading_text(work.baseline->median), reading_text(work.candidate->median), band_text(work));
  if (!work.noise.measured() && work.direction != Direction::within_band) text += ": a gross change";
  if (const std::string detectable = detectable_text(work); !detectable.empty()) text += "; " + detectable;
  return text;
}

// What would decide a change left inside its band.
std::string what_would_decide(const ClockComparison& work) {
  if (!work.samples_to_decide) return "";
  if (!work.noise.measured()) {
    return fmt::format("; {} samples per side (or a history of this command, --history) would measure its noise",
                       *work.samples_to_decide);
  }
  return fmt::format("; about {} samples per side would decide a change this size at this noise",
                     *work.samples_to_decide);
}

std::string elapsed_change(const ClockComparison& elapsed) {
  if (elapsed.direction == Direction::unavailable) return "compile elapsed unavailable";
  return fmt::format("compile elapsed {} ({}, band ±{})", to_string(elapsed.direction), signed_change(elapsed),
                     tenths_milliseconds_text(*elapsed.band_ms));
}

// The same code compiled (or less of it, and nothing more), yet summed module time rose:
// contention, not new work.
Ruling same_work_contention_rule(const RuleInputs& in) {
  const Judgement& judgement = in.judgement;
  const auto& work = judgement.module_work;
  const auto& elapsed = judgement.compile_elapsed;
  if (work.direction != Direction::regressed || !(judgement.same_work || judgement.less_work)) return std::nullopt;
  std::string why = fmt::format(
      "{}, but {}: contention, not new work, so judge on elapsed; {}", work_change(work),
      judgement.same_work
          ? "the same work was compiled (same launches, identities, counts, source bytes and LTO artifacts)"
          : "the candidate compiled less and nothing more (same launches and options, no count higher, some "
            "lower)",
      elapsed_change(elapsed));
  const Verdict verdict = elapsed.direction == Direction::improved      ? Verdict::improved
                          : elapsed.direction == Direction::unavailable ? Verdict::unverified
                                                                        : Verdict::inconclusive;
  return Decision{verdict, Rule::same_work_contention, std::move(why)};
}

Ruling regressed_rule(const RuleInputs& in) {
  const auto& work = in.judgement.module_work;
  if (work.direction != Direction::regressed) return std::nullopt;
  return Decision{Verdict::regression, Rule::regressed, work_change(work)};
}

// The CPU build held; the CUDA build (measured without a GPU, both sides) did not.
Ruling cuda_regressed_rule(const RuleInputs& in) {
  for (const auto& cuda : in.judgement.cuda) {
    if (cuda.cpu.direction != Direction::regressed) continue;
    std::string why = fmt::format("the CUDA build for sm_{} regressed: {} ({:.1f} s → {:.1f} s), band ±{:.1f} ms",
                                  cuda.build.arch, signed_change(cuda.cpu), cuda.cpu.baseline->median / 1000.0,
                                  cuda.cpu.candidate->median / 1000.0, *cuda.cpu.band_ms);
    if (cuda.build.moved_most) why += "; the kernel that moved most: " + kernel_move_text(*cuda.build.moved_most);
    return Decision{Verdict::regression, Rule::cuda_regressed, std::move(why)};
  }
  return std::nullopt;
}

// Inside the band, compile elapsed can still tell: a change to when modules build shows there.
Ruling within_band_rule(const RuleInputs& in) {
  const auto& work = in.judgement.module_work;
  const auto& elapsed = in.judgement.compile_elapsed;
  if (work.direction != Direction::within_band) return std::nullopt;
  if (elapsed.direction == Direction::improved) {
    return Decision{
        Verdict::improved, Rule::within_band,
        work_change(work) + ", but " + elapsed_change(elapsed) + ": a change to when modules build shows up there"};
  }
  if (in.options.gate_on_elapsed && elapsed.direction == Direction::regressed) {
    return Decision{Verdict::regression, Rule::within_band,
                    work_change(work) + ", but " + elapsed_change(elapsed) + " (this budget gates on elapsed)"};
  }
  // A band wider than the change the caller must catch could hide that change: not a pass.
  // Reports that predate the build environment are judged as before (INCONCLUSIVE), with the
  // detectable change in the reason and a note saying why identity could not decide.
  const bool recorded = in.judgement.sameness.sameness != Sameness::not_recorded;
  // Pairs whose median left the band but whose signs chance could give detected nothing.
  const bool held_back = work.paired && work.paired->too_few_to_tell;
  if (recorded && in.options.threshold_percent && held_back) {
    std::string why = fmt::format(
        "{}: the median paired delta left the band, but the candidate was slower in only {} of {} pairs, which "
        "chance gives too often (sign test p = {:.3f}): no change of any size was shown",
        work_change(work), work.paired->slower, work.paired->pairs, work.paired->sign_test_p);
    if (!in.options.how_to_decide.empty()) why += "; " + in.options.how_to_decide;
    return Decision{Verdict::not_judged, Rule::not_judged, std::move(why)};
  }
  if (recorded && in.options.threshold_percent && work.detectable_percent &&
      *work.detectable_percent > *in.options.threshold_percent) {
    std::string why = fmt::format(
        "{}: wider than the {:.1f} % this must catch, so a regression of that size could "
        "hide inside it; {}",
        work_change(work), *in.options.threshold_percent, elapsed_change(elapsed));
    if (!in.options.how_to_decide.empty()) why += "; " + in.options.how_to_decide;
    return Decision{Verdict::not_judged, Rule::not_judged, std::move(why)};
  }
  return Decision{Verdict::inconclusive, Rule::within_band,
                  work_change(work) + "; " + elapsed_change(elapsed) + what_would_decide(work)};
}

// The last rule: what is left improved beyond the band.
Ruling improved_rule(const RuleInputs& in) {
  return Decision{Verdict::improved, Rule::improved, work_change(in.judgement.module_work)};
}

// The rules in the order they are tried (docs/measurement.md#decision-rules).
constexpr std::array<Ruling (*)(const RuleInputs&), 11> kDecisionRules{candidate_failed_rule,
                                                                       baseline_failed_rule,
                                                                       no_launch_record_rule,
                                                                       workload_changed_rule,
                                                                       identities_unchanged_rule,
                                                                       work_unavailable_rule,
                                                                       same_work_contention_rule,
                                                                       regressed_rule,
                                                                       cuda_regressed_rule,
                                                                       within_band_rule,
                                                                       improved_rule};

Decision first_ruling(const RuleInputs& in) {
  for (const auto rule : kDecisionRules) {
    if (auto ruling = rule(in)) return std::move(*ruling);
  }
  return *improved_rule(in);  // unreached: the last rule always decides
}

}  // namespace

std::vector<const ClockComparison*> shown_clocks(const Judgement& judgement) {
  std::vector<const ClockComparison*> clocks{&judgement.module_work};
  if (judgement.module_wall) clocks.push_back(&*judgement.module_wall);
  clocks.push_back(&judgement.compile_elapsed);
  for (const auto& cuda : judgement.cuda) clocks.push_back(&cuda.cpu);
  return clocks;
}

std::optional<std::string> wall_clock_reason(const Report& baseline, const Report& candidate,
                                             const JudgeOptions& options) {
  if (!baseline.cold_module_ms || !candidate.cold_module_ms) return std::nullopt;  // nothing to judge on either
  if (options.wall_clock) return "cold module work judged on the wall clock, as asked (--clock wall)";
  if (baseline.cold_module_cpu_ms && candidate.cold_module_cpu_ms) return std::nullopt;
  const auto why = [](const Report& report) {
    return report.module_cpu_unavailable.empty() ? std::string("it measured no CPU clock")
                                                 : report.module_cpu_unavailable;
  };
  std::vector<std::string> sides;
  if (!baseline.cold_module_cpu_ms) sides.push_back("the baseline has no CPU clock (" + why(baseline) + ")");
  if (!candidate.cold_module_cpu_ms) sides.push_back("the candidate has no CPU clock (" + why(candidate) + ")");
  return fmt::format("cold module work judged on the wall clock, which load on the machine inflates: {}",
                     fmt::join(sides, " and "));
}

namespace {

std::optional<double> cuda_cpu_of(const SampleResult& sample, int arch) {
  if (!sample.cold_ok || !sample.cuda_compile_cpu_ms) return std::nullopt;
  const auto found = sample.cuda_compile_cpu_ms->find(arch);
  return found == sample.cuda_compile_cpu_ms->end() ? std::nullopt : std::optional<double>(found->second);
}

std::optional<Summary> cuda_summary(const Report& report, int arch) {
  const auto found = report.cuda_compile_cpu_ms.find(arch);
  return found == report.cuda_compile_cpu_ms.end() ? std::nullopt : std::optional<Summary>(found->second);
}

// Each arch's CUDA compile CPU time against its own noise: its samples' (or its pairs'), never
// the CPU build's history, which measures another compiler.
std::vector<CudaClock> cuda_clocks(const Report& baseline, const Report& candidate, const JudgeOptions& options) {
  std::vector<CudaClock> clocks;
  for (auto& build : compare_cuda_builds(baseline, candidate)) {
    const int arch = build.arch;
    CudaClock clock{std::move(build), {}};
    if (options.paired) {
      std::vector<std::pair<double, double>> pairs;
      for (const auto& a : baseline.sample_results) {
        for (const auto& b : candidate.sample_results) {
          const auto before = cuda_cpu_of(a, arch);
          const auto after = cuda_cpu_of(b, arch);
          if (a.index == b.index && before && after) pairs.emplace_back(*before, *after);
        }
      }
      clock.cpu = compare_clock_paired(Clock::cuda_compile_cpu, cuda_summary(baseline, arch),
                                       cuda_summary(candidate, arch), pairs, options.tolerance_percent);
    } else {
      clock.cpu = compare_clock(Clock::cuda_compile_cpu, cuda_summary(baseline, arch), cuda_summary(candidate, arch),
                                options.tolerance_percent);
    }
    clocks.push_back(std::move(clock));
  }
  return clocks;
}

}  // namespace

Judgement judge(const Report& baseline, const Report& candidate, const JudgeOptions& options) {
  Judgement judgement;
  std::string speed_not_applied;
  if (baseline.command != candidate.command) {
    judgement.warnings.push_back("the two reports measured different commands; make sure they run the same workload");
  }
  if (!baseline.warp_version.empty() && !candidate.warp_version.empty() &&
      baseline.warp_version != candidate.warp_version) {
    judgement.warnings.push_back(
        fmt::format("Warp versions differ ({} vs {})", baseline.warp_version, candidate.warp_version));
  }
  judgement.workload = check_workload(baseline, candidate);
  const auto wall_reason = wall_clock_reason(baseline, candidate, options);
  const bool on_cpu = !wall_reason && baseline.cold_module_cpu_ms && candidate.cold_module_cpu_ms;
  if (options.paired) {
    judgement.module_work =
        compare_clock_paired(Clock::module_work, baseline.cold_module_ms, candidate.cold_module_ms,
                             pairs_of(baseline, candidate, Clock::module_work), options.tolerance_percent);
    if (on_cpu) {
      judgement.module_wall = std::move(judgement.module_work);
      judgement.module_work =
          compare_clock_paired(Clock::module_cpu, baseline.cold_module_cpu_ms, candidate.cold_module_cpu_ms,
                               pairs_of(baseline, candidate, Clock::module_cpu), options.tolerance_percent);
    }
    judgement.compile_elapsed = compare_clock_paired(
        Clock::compile_elapsed, credited_compile_elapsed(baseline), credited_compile_elapsed(candidate),
        pairs_of(baseline, candidate, Clock::compile_elapsed), options.tolerance_percent);
  } else {
    // Against a stored baseline, the candidate's work at the baseline's speed where the
    // unchanged modules tell that speed (verdict/runner_speed.h).
    if (options.runner_speed_from_unchanged) {
      auto reading = runner_speed(baseline, candidate, on_cpu);
      judgement.runner_speed = reading.speed;
      speed_not_applied = std::move(reading.not_applied);
    }
    const auto scaled = [&judgement](const std::optional<Summary>& summary,
                                     const std::optional<Summary>& baseline_summary) -> std::optional<Summary> {
      if (!summary || !baseline_summary || !judgement.runner_speed) return summary;
      return at_baseline_speed(*summary, *baseline_summary, *judgement.runner_speed);
    };
    // A history's or calibration's noise is measured on cold module work. Compile elapsed is a
    // wall that holds that work, so it is at least as noisy: it takes the same relative noise
    // (else 3 back-to-back baseline samples that happened to agree give it a band of a few ms,
    // and a run-to-run wobble of 10 % reads as IMPROVED).
    judgement.module_work =
        compare_clock(Clock::module_work, baseline.cold_module_ms,
                      on_cpu ? candidate.cold_module_ms : scaled(candidate.cold_module_ms, baseline.cold_module_ms),
                      options.tolerance_percent, options.prior_noise);
    if (on_cpu) {
      judgement.module_wall = std::move(judgement.module_work);
      judgement.module_work = compare_clock(Clock::module_cpu, baseline.cold_module_cpu_ms,
                                            scaled(candidate.cold_module_cpu_ms, baseline.cold_module_cpu_ms),
                                            options.tolerance_percent, options.prior_cpu_noise);
    }
    judgement.compile_elapsed =
        compare_clock(Clock::compile_elapsed, credited_compile_elapsed(baseline), credited_compile_elapsed(candidate),
                      options.tolerance_percent, options.prior_noise);
  }
  judgement.cuda = cuda_clocks(baseline, candidate, options);
  judgement.sameness = compare_compiled_code(baseline, candidate);
  if (options.stored_baseline_drift_percent && !options.paired && !judgement.runner_speed &&
      judgement.sameness.sameness != Sameness::not_recorded && judgement.sameness.sameness != Sameness::same) {
    widen_for_drift(judgement.module_work, *options.stored_baseline_drift_percent);
  }
  judgement.counts = count_table(baseline, candidate);
  judgement.modules = hash_table(baseline, candidate);
  judgement.options = compare_options(baseline, candidate);
  judgement.identity_changes = compare_identities(baseline, candidate);
  judgement.same_work = same_work_compiled(baseline, candidate, judgement);
  judgement.less_work = !judgement.same_work && less_work_compiled(judgement);
  judgement.baseline = facts_of(baseline);
  judgement.candidate = facts_of(candidate);

  const Decision decision = first_ruling({baseline, candidate, judgement, options});
  judgement.verdict = decision.verdict;
  judgement.rule = decision.rule;
  judgement.exit_code = exit_code_of(decision.verdict);
  judgement.reason = decision.reason;
  judgement.notes = notes_of(judgement);
  if (!speed_not_applied.empty()) {
    judgement.notes.push_back("the whole module work is judged, not only the changed modules': " + speed_not_applied);
  }
  judgement.wall_clock_reason = wall_reason;
  if (wall_reason) judgement.notes.insert(judgement.notes.begin(), *wall_reason);
  if (options.forced_verdict) {
    judgement.reason = fmt::format("{} forced by WCP_JUDGE_FAULT (test only); the rules said {}: {}",
                                   to_string(*options.forced_verdict), to_string(decision.verdict), judgement.reason);
    judgement.verdict = *options.forced_verdict;
    judgement.exit_code = exit_code_of(judgement.verdict);
  }
  return judgement;
}

}  // namespace wcp::verdict
