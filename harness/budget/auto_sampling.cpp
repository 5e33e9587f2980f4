#include "budget/auto_sampling.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

#include "budget/budget_keys.h"
#include "facts/queries.h"
#include "stats/sequential.h"
#include "verdict/paired_stop.h"

namespace wcp::budget {
namespace {

// How far beyond its band a verdict resting on one candidate run must be to stand without a
// second run: the band is two-sided 1 % (z = 2.576); one run cannot show that it is itself an
// outlier, so it must clear two-sided 0.1 % (z = 3.291), 1.28 bands.
constexpr double kConfirmWithinBands = 3.291 / 2.576;

struct PriorNoises {
  const std::optional<Noise>& wall;
  const std::optional<Noise>& cpu;
  const Report* paired_baseline = nullptr;
};

struct Assessment {
  bool decided = true;
  std::string how;
};

std::string runs_text(int runs, bool pairs = false) {
  return fmt::format("{} {}{}", runs, pairs ? "pair" : "run", runs == 1 ? "" : "s");
}

// The per-run values behind a timing ceiling, when the budget reads one clock's median.
std::optional<Summary> values_of(const BudgetOutcome& outcome, const Report& report) {
  if (outcome.budget == key::cold_seconds) return report.cold_module_ms;
  if (outcome.budget == key::cold_cpu_seconds) return report.cold_module_cpu_ms;
  if (outcome.budget == key::compile_elapsed_seconds) return credited_compile_elapsed(report);
  if (outcome.budget == key::cold_units && outcome.reference) return outcome.reference->units;
  if (outcome.budget == key::max_cuda_compile_seconds) {
    // The arch the outcome measured: the one with the largest median.
    const Summary* worst = nullptr;
    for (const auto& [arch, summary] : report.cuda_compile_cpu_ms) {
      if (!worst || summary.median > worst->median) worst = &summary;
    }
    if (worst) return *worst;
  }
  return std::nullopt;
}

// A ceiling on a timing: decided when the median is beyond noise of the limit, either way.
Assessment assess_ceiling(const BudgetOutcome& outcome, const Report& report, const PriorNoises& prior_noises) {
  // Each clock's ceiling weighs against its own clock's noise (a history's or calibration's is
  // of cold module work on the wall; the CPU's is the history's CPU values).
  const bool cpu = outcome.budget == key::cold_cpu_seconds;
  const std::optional<Noise>& prior = cpu ? prior_noises.cpu : prior_noises.wall;
  if (!outcome.measured || !outcome.limit || *outcome.limit <= 0.0) {
    return {true, "not measured: more runs would not measure it"};
  }
  const double value = *outcome.measured;
  const double limit = *outcome.limit;
  const double margin = std::fabs(value - limit) / limit;
  const std::string side = value <= limit ? "below" : "above";
  const auto values = values_of(outcome, report);
  const std::size_t runs = values ? values->count : static_cast<std::size_t>(report.samples - report.failed_samples);
  std::optional<Noise> noise;
  if (const auto spread = values ? measured_spread(*values) : std::nullopt) {
    noise = Noise{NoiseSource::samples, spread, values->count, fmt::format("its {} runs", values->count)};
  } else if (prior && prior->measured() && (outcome.budget == key::cold_seconds || cpu)) {
    noise = prior;
  }
  if (noise) {
    const double band = limit_band(*noise->relative_mad, value, runs);
    if (std::fabs(value - limit) > band) {
      return {true, fmt::format("margin {:.0f} % {} the limit against a band of {:.1f} % ({})", 100.0 * margin, side,
                                100.0 * band / limit, noise->summary())};
    }
    return {false, fmt::format("{:.1f} % {} the limit, within a band of {:.1f} % ({})", 100.0 * margin, side,
                               100.0 * band / limit, noise->summary())};
  }
  if (std::fabs(value - limit) > kGrossChangeBound * value) {
    return {true, fmt::format("margin {:.0f} % {} the limit, beyond the gross-change bound ({:.0f} %; noise not "
                              "measured)",
                              100.0 * margin, side, 100.0 * kGrossChangeBound)};
  }
  return {false, fmt::format("{:.1f} % {} the limit, inside the gross-change bound ({:.0f} %) with no noise measured",
                             100.0 * margin, side, 100.0 * kGrossChangeBound)};
}

bool just_beyond_band_on_one_run(const verdict::Judgement& judgement) {
  const auto& work = judgement.module_work;
  const bool decided_on_work = judgement.rule == verdict::Rule::regressed || judgement.rule == verdict::Rule::improved;
  if (!decided_on_work || !work.candidate || work.candidate->count != 1 || !work.delta_ms || !work.band_ms ||
      !work.delta_percent || !work.baseline || work.baseline->median == 0.0)
    return false;
  return std::fabs(*work.delta_ms) < kConfirmWithinBands * *work.band_ms;
}

// The baseline budget: compare's judgement decides, or the sequential test ends the wait.
Assessment assess_baseline(const BudgetOutcome& outcome, const CommandEntry& entry, const Report& report,
                           const PriorNoises& prior_noises) {
  // No judgement: no baseline yet (under --update-baseline), so this run becomes it.
  if (!outcome.judgement) return {true, "has none yet (this run becomes it)"};
  const verdict::Judgement& judgement = *outcome.judgement;
  const auto& work = judgement.module_work;
  if (judgement.verdict == verdict::Verdict::unchanged) {
    return {true, "UNCHANGED, decided by identity: no clock needed"};
  }
  if (judgement.verdict == verdict::Verdict::not_judged && work.drift_floor) {
    return {true, fmt::format("NOT JUDGED: {}, the drift a stored baseline allows, which more runs cannot narrow",
                              verdict::detectable_text(work))};
  }
  if (judgement.verdict == verdict::Verdict::not_judged) {
    return {false, fmt::format("NOT JUDGED so far: {}; more runs narrow the band", verdict::detectable_text(work))};
  }
  if (prior_noises.paired_baseline && judgement.verdict != verdict::Verdict::unchanged) {
    const auto decision = verdict::decide_pairs(judgement, *prior_noises.paired_baseline, report);
    return {decision.decided, decision.how};
  }
  const std::optional<Noise>& prior = work.clock == verdict::Clock::module_cpu ? prior_noises.cpu : prior_noises.wall;
  // A verdict on one run that only just left the band (less than 1.28 bands away) is what a
  // single outlier of an unchanged program gives: one more run confirms or undoes it. (Under two
  // busy loops the CPU clock of an unchanged twin read 3.1 % low once in 20 checks, against a
  // band of 2.5 %; a change worth gating sits further out and still decides at once.)
  if (just_beyond_band_on_one_run(judgement)) {
    return {false, fmt::format("{} on one run, {:+.1f} % just beyond a band of {:.1f} %: one more run confirms it",
                               verdict::to_string(judgement.verdict), *work.delta_percent,
                               100.0 * *work.band_ms / std::fabs(work.baseline->median))};
  }
  if (judgement.verdict != verdict::Verdict::inconclusive) {
    if (work.delta_percent && work.band_ms && work.baseline && work.baseline->median != 0.0 &&
        (work.direction == verdict::Direction::improved || work.direction == verdict::Direction::regressed)) {
      return {true, fmt::format("{}: change {:+.1f} % against a band of {:.1f} % ({})",
                                verdict::to_string(judgement.verdict), *work.delta_percent,
                                100.0 * *work.band_ms / std::fabs(work.baseline->median), work.noise.summary())};
    }
    return {true, fmt::format("{} ({})", verdict::to_string(judgement.verdict), work.noise.summary())};
  }
  if (!work.noise.measured() || !work.candidate || !work.baseline || work.candidate->values.empty()) {
    return {false, fmt::format("within the {} with no noise measured", "gross-change bound")};
  }
  // The test weighs runs by the noise of one run. A history measured it over runs at other times
  // (usually more of them than the baseline's 3 back-to-back samples, whose MAD swings widely:
  // 1 % to 8 % in the gate-cost bench), so it is the better estimate whether wider or narrower;
  // the judge's band, the original probe's rule, is left as it is.
  const bool history = prior && prior->source == NoiseSource::history && prior->measured();
  const Noise& noise = history ? *prior : work.noise;
  const double tolerance = entry.budgets.baseline_tolerance_percent.value_or(0.0) / 100.0;
  const auto test = regression_test(work.candidate->values, *work.baseline, *noise.relative_mad, tolerance);
  const std::string rates = fmt::format("α {:.0f} %, β {:.0f} %", 100.0 * kSequentialAlpha, 100.0 * kSequentialBeta);
  if (test == SequentialOutcome::no_regression) {
    return {true, fmt::format("sequential test: a regression of {:.0f} % or more ruled out ({}; {})",
                              100.0 * kSmallestRegression, rates, noise.summary())};
  }
  return {false, fmt::format("within the band; the sequential test has not ruled out a {:.0f} % regression ({}; {})",
                             100.0 * kSmallestRegression, rates, noise.summary())};
}

Assessment assess(const BudgetOutcome& outcome, const CommandEntry& entry, const Report& report,
                  const PriorNoises& prior) {
  if (outcome.budget == key::baseline) return assess_baseline(outcome, entry, report, prior);
  // Counts, bytes and whether the warm run compiled are exact after one run.
  const bool timing = outcome.unit == Unit::seconds || outcome.unit == Unit::units;
  if (!timing || outcome.budget == key::warm_near_zero) return {true, "exact after one run"};
  // The report keeps the first run's CUDA build only: more runs would not move these.
  if (outcome.budget == key::max_module_cuda_compile_seconds || outcome.budget == key::max_kernel_cuda_compile_ms)
    return {true, "read from the first run's CUDA build, which more runs do not change"};
  return assess_ceiling(outcome, report, prior);
}

}  // namespace

bool assess_sampling(CommandResult& result, const CommandEntry& entry, const Report& report,
                     const std::optional<Noise>& prior_noise, const std::optional<Noise>& prior_cpu_noise,
                     const Report* paired_baseline) {
  const PriorNoises priors{prior_noise, prior_cpu_noise, paired_baseline};
  const bool paired = paired_baseline != nullptr;
  const int runs = report.samples;
  Sampling sampling;
  sampling.automatic = entry.auto_samples;
  sampling.runs = runs;
  sampling.max_runs = entry.samples;
  std::vector<std::string> timings;
  std::vector<std::string> open;
  for (auto& outcome : result.outcomes) {
    const Assessment assessment = assess(outcome, entry, report, priors);
    outcome.decided = assessment.decided;
    outcome.decided_by = assessment.how;
    if (assessment.how == "exact after one run") continue;
    (assessment.decided ? timings : open).push_back(fmt::format("{} {}", outcome.budget, assessment.how));
  }
  const bool settled = open.empty();  // a run that failed outright has no outcomes: nothing more to learn
  if (!entry.auto_samples) {
    sampling.summary = fmt::format("{} (fixed)", runs_text(runs, paired));
  } else if (result.run_failure) {
    sampling.summary = fmt::format("stopped after {}: {}", runs_text(runs, paired), *result.run_failure);
  } else if (settled) {
    sampling.summary = fmt::format("decided after {}: {}", runs_text(runs, paired),
                                   timings.empty() ? std::string("every budget is structural, exact after one run")
                                                   : fmt::format("{}", fmt::join(timings, "; ")));
  } else {
    sampling.summary = fmt::format("{} after {}: {}", runs >= entry.samples ? "not decided" : "undecided",
                                   runs_text(runs, paired), fmt::join(open, "; "));
  }
  result.sampling = std::move(sampling);
  return settled;
}

}  // namespace wcp::budget
