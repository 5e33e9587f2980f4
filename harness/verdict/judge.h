#pragma once
// The one judgement engine: did a candidate compile less than its baseline, for the same
// work? `compare` and the `baseline:` budget both call judge() with the same inputs and get
// the same verdict; budgets only add their own structural ceilings on top.
//
// The decision rules, in order, each a named rule in judge.cpp (the original probe's, which its
// users already follow; see docs/measurement.md#decision-rules):
//   candidate_failed      the candidate has error events or failed samples -> INVALID (exit 1)
//   baseline_failed       the baseline measured nothing                    -> INVALID (exit 1)
//   no_launch_record      either side has no launch record                 -> UNVERIFIED (exit 0)
//   workload_changed      the launch topology differs                      -> INVALID (exit 1)
//   identities_unchanged  the same identities, toolchain, CPU and bytes
//                         (verdict/unchanged_compile.h): the same compile work by
//                         construction, whatever the clocks read          -> UNCHANGED (exit 0); IMPROVED when
//                                                                             compile elapsed improved (not against
//                                                                             a stored baseline), REGRESSION when it
//                                                                             regressed and the budget gates on it
//   work_unavailable      cold module work missing on a side               -> UNVERIFIED (exit 0)
// "Cold module work" is judged on the CPU clock when both reports have it (issue 49: load on
// the machine doubles the wall and barely moves the CPU), else on the wall, and a note says why.
//   same_work_contention  cold module work regressed beyond its band, but the same
//                         work was compiled (contention, not new work)     -> IMPROVED if elapsed improved,
//                                                                             UNVERIFIED if elapsed is missing,
//                                                                             else INCONCLUSIVE (exit 0)
//   regressed             cold module work regressed beyond its band       -> REGRESSION (exit 1)
//   cuda_regressed        the CUDA build's CPU time (`--cuda-arch`, both sides) regressed beyond
//                         its own band                                      -> REGRESSION (exit 1)
//   within_band           inside the band                                  -> IMPROVED if elapsed improved,
//                                                                             else INCONCLUSIVE, or NOT JUDGED
//                                                                             when the smallest change the band
//                                                                             could detect exceeds the caller's
//                                                                             threshold (a budget's; exit 0)
//   improved              improved beyond the band                         -> IMPROVED
// Structural changes and an elapsed-only rise are notes, never the verdict. A value that was
// not measured is never turned into a delta: a missing clock is "unavailable".
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/report.h"
#include "stats/noise.h"
#include "stats/paired.h"
#include "verdict/cuda_comparison.h"
#include "verdict/identity_changes.h"
#include "verdict/option_comparison.h"
#include "verdict/runner_speed.h"
#include "verdict/unchanged_compile.h"
#include "verdict/workload.h"

namespace wcp::verdict {

// unchanged and not_judged were added by issue 63 (the original probe has neither).
enum class Verdict { invalid, regression, improved, inconclusive, unverified, unchanged, not_judged };
std::string_view to_string(Verdict verdict);
int exit_code_of(Verdict verdict);  // 1 for INVALID and REGRESSION, else 0

// The rule that decided, named as above (baseline_failed and work_unavailable are the cases the
// original rules never reach: nothing to compare against, or a clock missing).
enum class Rule {
  candidate_failed,
  baseline_failed,
  no_launch_record,
  workload_changed,
  identities_unchanged,
  work_unavailable,
  same_work_contention,
  regressed,
  within_band,
  improved,
  not_judged,      // within_band, with a detectable change above the threshold
  cuda_regressed,  // the CPU build held, the CUDA build measured without a GPU regressed (issue 64)
};

// module_work is the summed wall clock of the builds (Warp's load timers), module_cpu the CPU
// seconds they used (measure/module_cpu.h), compile_elapsed cold wall − warm wall.
enum class Clock { module_work, compile_elapsed, module_cpu, cuda_compile_cpu };
std::string_view to_string(Clock clock);

enum class Direction { improved, within_band, regressed, unavailable };
std::string_view to_string(Direction direction);

// The pairs of an interleaved A/B run (`ab`): sample k of each arm, taken back to back.
struct PairedStats : PairedDifferences {
  // One-sided sign test of the direction the median delta points to: the chance that at least
  // this many of the non-equal pairs go that way when the two arms are the same.
  double sign_test_p = 1.0;
  bool too_few_to_tell = false;  // the median delta left the band, but the sign test is above kSignTestAlpha
};

// A paired clock is judged improved or regressed only when its pairs could not easily have
// gone that way by chance: a median delta outside the band from 3 pairs all one way (p = 0.125)
// is what an order effect on a busy machine produces with two identical arms.
inline constexpr double kSignTestAlpha = 0.05;

struct ClockComparison {
  Clock clock = Clock::module_work;
  // Set when judged on pairs: delta is then the median paired delta, and the band
  // max(1% of the baseline median, 2 × the MAD of the paired deltas).
  std::optional<PairedStats> paired;
  std::optional<Summary> baseline;
  std::optional<Summary> candidate;
  // Absent whenever either side is unavailable.
  std::optional<double> delta_ms;       // candidate − baseline
  std::optional<double> delta_percent;  // of the baseline median (absent when that is 0)
  std::optional<double> band_ms;
  Direction direction = Direction::unavailable;
  // What the band was weighed from (stats/noise.h): the samples, a history, a calibration, or
  // nothing; then the band is the gross-change bound and only a change beyond it is judged.
  Noise noise;
  // Inside the band: how many runs per side would decide a change this size, at this noise
  // (with no noise measured, the fewest that measure it); absent when none would.
  std::optional<int> samples_to_decide;
  // The smallest change this comparison could have judged: the band as a share of the baseline
  // median, with the runs behind it (per side; pairs when paired). Absent when unavailable.
  std::optional<double> detectable_percent;
  std::size_t baseline_runs = 0;
  std::size_t candidate_runs = 0;
  // The band is a stored baseline's drift allowance (JudgeOptions::stored_baseline_drift_percent),
  // which no number of runs narrows.
  bool drift_floor = false;
};

// "could detect ≥ 6.0 % with 2 runs" (or "2 and 3 runs", "5 pairs"); "" when unavailable.
std::string detectable_text(const ClockComparison& clock);

// "+12.3 ms (+4.5%)": a judged clock's delta (and its share of the baseline), as the reasons and
// notes write it.
std::string signed_change(const ClockComparison& clock);

// Compares one clock against the baseline's noise band (exposed for unit tests).
// With fewer than kMinimumNoiseSamples samples on both sides, `prior` (a history's or a
// calibration's noise) weighs the change; without one, only a change beyond kGrossChangeBound is.
ClockComparison compare_clock(Clock clock, const std::optional<Summary>& baseline,
                              const std::optional<Summary>& candidate, double tolerance_percent = 0.0,
                              const std::optional<Noise>& prior = std::nullopt);
// The same on paired samples: `pairs` holds (baseline, candidate) values of each pair.
ClockComparison compare_clock_paired(Clock clock, const std::optional<Summary>& baseline,
                                     const std::optional<Summary>& candidate,
                                     const std::vector<std::pair<double, double>>& pairs,
                                     double tolerance_percent = 0.0);

enum class Count { identities, modules, compiled_events, warm_compiles, generated_source_bytes, lto_artifacts };
std::string_view to_string(Count count);

struct CountComparison {
  Count count = Count::identities;
  std::optional<std::uint64_t> baseline;  // absent when that report does not say
  std::optional<std::uint64_t> candidate;
};

struct ModuleHashRow {
  std::string module;  // name@device
  std::vector<std::string> baseline_hashes;
  std::vector<std::string> candidate_hashes;
  bool changed = false;
};

// What each side's measurement says about itself, for the reader.
struct SideFacts {
  std::optional<double> overlap_factor;
  bool builds_overlapped = false;  // overlap factor above kOverlapThreshold
  bool compiled_nothing = false;
  int samples = 0;
  int failed_samples = 0;
  int failed_warm_runs = 0;  // successful cold runs whose warm run failed: credited nothing
  // Samples whose compile elapsed was left out (warm wall not below cold wall), in plain words.
  std::vector<std::string> elapsed_left_out;
};

struct JudgeOptions {
  double tolerance_percent = 0.0;  // widens both bands (a budget's baseline_tolerance_percent)
  bool gate_on_elapsed = false;    // a budget's opt-in: elapsed regressed beyond its band -> REGRESSION
  // The two reports come from one interleaved `ab` run: judge the clocks on paired samples
  // (sample k of each arm), which cancels the drift both arms shared.
  bool paired = false;
  // The noise of one run of this command when the reports' own samples are too few to measure
  // it: from a history of earlier runs, else the machine's calibration (cli resolves it).
  std::optional<Noise> prior_noise;
  // The same for the CPU clock, from a history of its own values: never the wall's noise, which
  // load inflates, nor a calibration's (timed on the wall).
  std::optional<Noise> prior_cpu_noise;
  // Judge module work on the wall even when both sides have the CPU clock (`--clock wall`).
  bool wall_clock = false;
  // Test only (WCP_JUDGE_FAULT, verdict/judge_fault.h): the verdict every judgement gives,
  // whatever the rules decided; the reason says so and what the rules said.
  std::optional<Verdict> forced_verdict;
  // The smallest regression the caller needs caught, in % of the baseline (a budget's): a clock
  // left inside a band wider than this is NOT JUDGED, not INCONCLUSIVE. Absent: no such need.
  std::optional<double> threshold_percent;
  // What NOT JUDGED tells the reader to do instead (check: "--against-rev <merge base>").
  std::string how_to_decide;
  // Judge only what changed (issue 63, item 3): outside paired runs, scale the candidate's
  // module work by the runner's speed on the modules both sides built identically, where they
  // carry enough work (verdict/runner_speed.h). Off for reports normalised by a reference.
  bool runner_speed_from_unchanged = true;
  // A baseline stored earlier (a file, a history's runs) carries its runner's speed at the time:
  // runners of one class, and one runner hours apart, differ by several percent (the gate bench
  // measured 6-10 %). Set by budgets outside paired runs: the band of a changed compile judged
  // on the whole sum is at least this share of the baseline, unless the runner's speed was read
  // off unchanged modules or a reference. compare leaves it unset (the original probe's rules).
  std::optional<double> stored_baseline_drift_percent;
};

// The drift a stored baseline allows for (JudgeOptions::stored_baseline_drift_percent).
inline constexpr double kStoredBaselineDriftPercent = 10.0;

// One architecture's CUDA build, both sides measured: its CPU time judged against its own noise,
// with the output bytes and the kernel that moved most beside it.
struct CudaClock {
  CudaArchComparison build;
  ClockComparison cpu;
};

struct Judgement {
  Verdict verdict = Verdict::inconclusive;
  Rule rule = Rule::within_band;
  int exit_code = 0;
  std::string reason;                 // why this verdict, one or two sentences
  std::vector<std::string> notes;     // what else matters; never the verdict
  std::vector<std::string> warnings;  // e.g. the commands differ
  WorkloadCheck workload;
  // Cold module work as judged: on the CPU clock (clock == Clock::module_cpu) when both reports
  // have it, else on the wall (Clock::module_work).
  ClockComparison module_work;
  // Judged on the CPU clock: the wall beside it, reported and never the verdict.
  std::optional<ClockComparison> module_wall;
  // Judged on the wall: why (a report without the CPU clock, or --clock wall); also the first note.
  std::optional<std::string> wall_clock_reason;
  ClockComparison compile_elapsed;
  std::vector<CountComparison> counts;
  bool same_work = false;  // same launches, identities, counts, source bytes and LTO artifacts
  bool less_work = false;  // same launches and options, no count higher and some lower (judge.cpp)
  std::vector<ModuleHashRow> modules;
  // Which options differ between the runs and whether they arrived: for the reader, never
  // part of the decision.
  OptionComparison options;
  // Why each module that appeared, disappeared or changed identity did: for the reader, never
  // part of the decision.
  IdentityChanges identity_changes;
  // Whether the two runs compiled the same code with the same compilers (the
  // identities_unchanged rule), and why not.
  CompileSameness sameness;
  // Outside paired runs: the runner's speed on the unchanged modules, by which the candidate's
  // module work was scaled before it was judged; absent when not applied (and why, in notes).
  std::optional<RunnerSpeed> runner_speed;
  // Per architecture both reports compiled for CUDA (`--cuda-arch`); empty otherwise.
  std::vector<CudaClock> cuda;
  SideFacts baseline;
  SideFacts candidate;
};

// The clocks a reader is shown, judged first: module work, the wall beside it when judged on
// CPU, compile elapsed, then each arch's CUDA compile CPU.
std::vector<const ClockComparison*> shown_clocks(const Judgement& judgement);

// Why module work was judged on the wall although the CPU clock exists in this tool's reports;
// nullopt when judged on the CPU, or when no side measured module work.
std::optional<std::string> wall_clock_reason(const Report& baseline, const Report& candidate,
                                             const JudgeOptions& options);

Judgement judge(const Report& baseline, const Report& candidate, const JudgeOptions& options = {});

}  // namespace wcp::verdict
