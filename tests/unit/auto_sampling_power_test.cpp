// What `samples: auto` can promise, apart from any machine: a simulated CI gate (issue 42's A/A
// and B/A series) driven through the real evaluate() and assess_sampling(), with runs drawn from
// a log-normal noise of a known size. A baseline of 3 runs (what --update-baseline takes), a
// history that measured the noise, then candidate runs one at a time until every budget is
// decided, at most kMaxAutoSamples.
//
// The bench (tests/bench/gate_cost.py) measures the same on real programs; there the machine's
// noise decides how many runs a verdict needs. This shows the engine: with the noise of a quiet
// runner (2 % relative MAD) it decides an unchanged program in one run and catches a 12 %
// regression; with noise as large as the change itself it gives no false verdict and says it
// did not decide.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <vector>

#include "budget/auto_sampling.h"
#include "budget/evaluate.h"
#include "report_fixtures.h"
#include "stats/noise.h"

namespace wcp {
namespace {

// A small deterministic generator (the same draws with every standard library, unlike
// std::normal_distribution): splitmix64, then Box-Muller.
class Draws {
 public:
  explicit Draws(std::uint64_t seed) : state_(seed) {}
  double normal() {
    const double u1 = (static_cast<double>(next() >> 11) + 0.5) / 9007199254740992.0;
    const double u2 = (static_cast<double>(next() >> 11) + 0.5) / 9007199254740992.0;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  }

 private:
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t state_;
};

struct Gate {
  int false_verdicts = 0;  // A/A: FAIL or IMPROVED
  int caught = 0;          // B/A: FAIL
  int runs = 0;            // candidate runs, all checks
  int undecided = 0;       // checks that reached the most runs still open
};

// `checks` checks of a candidate whose cold module work is `effect` × the baseline's, at a
// relative MAD of `relative_mad` per run.
Gate simulate(double relative_mad, double effect, int checks, std::uint64_t seed) {
  constexpr double kLevel = 2000.0;
  const double sigma = kMadToSigma * relative_mad;
  Draws draws(seed);
  const auto run = [&](double factor) { return kLevel * factor * std::exp(sigma * draws.normal()); };
  budget::CommandEntry entry;
  entry.name = "app";
  entry.baseline_report = "/baseline.json";
  entry.budgets.baseline = "/baseline.json";
  entry.budgets.max_identities = 1;
  budget::EvaluateOptions options;
  // A history of this command that measured the noise (its own runs were drawn the same way).
  options.prior_noise = Noise{NoiseSource::history, relative_mad, 10, "10 earlier runs of this command"};
  Gate gate;
  for (int check = 0; check < checks; ++check) {
    const Report baseline = testing::report_of_runs({run(1.0), run(1.0), run(1.0)});
    std::vector<double> runs;
    budget::CommandResult result;
    bool decided = false;
    while (!decided && static_cast<int>(runs.size()) < budget::kMaxAutoSamples) {
      runs.push_back(run(effect));
      Report candidate = testing::report_of_runs(runs);
      if (effect != 1.0) {
        // The B twin compiles more into the same module: another hash, more generated source
        // (new work; the same structure with slower builds would be contention, not a regression).
        candidate.module_events.front().hash = "bbbbbbb";
        candidate.cache.generated_source_bytes = 23'000;
        candidate.cache.modules = {{"wp___main___bbbbbbb", 23'000, 1, 1, {}, 0}};
      }
      result = budget::evaluate(entry, candidate, baseline, options);
      decided = budget::assess_sampling(result, entry, candidate, options.prior_noise);
    }
    gate.runs += static_cast<int>(runs.size());
    gate.undecided += decided ? 0 : 1;
    for (const auto& outcome : result.outcomes) {
      if (outcome.budget != "baseline") continue;
      const bool failed = outcome.verdict == budget::Verdict::fail;
      const bool improved = outcome.judgement && outcome.judgement->verdict == verdict::Verdict::improved;
      gate.caught += failed ? 1 : 0;
      gate.false_verdicts += (effect == 1.0 && (failed || improved)) ? 1 : 0;
      if (std::getenv("WCP_POWER_TRACE"))
        std::printf("  %zu runs: %s | %s | %s\n", runs.size(), outcome.decided_by.c_str(), outcome.note.c_str(),
                    outcome.judgement ? outcome.judgement->reason.c_str() : "");
    }
  }
  std::printf("relative MAD %.0f %%, effect %+.0f %%: %d checks, %d runs, %d caught, %d false, %d undecided\n",
              100.0 * relative_mad, 100.0 * (effect - 1.0), checks, gate.runs, gate.caught, gate.false_verdicts,
              gate.undecided);
  return gate;
}

// Measured with these seeds: 65 runs for 40 A/A checks (1.6 each: a run whose ratio to the
// baseline sits above about +2.6 % needs more before a 10 % regression is ruled out at α 1 %),
// 0 false and 3 left open after 5 runs (a baseline drawn 5 % low); 54 runs for 40 B/A checks, all
// caught. A false IMPROVED from compile elapsed weighed by 3 baseline samples that happened to
// agree (12 of 40 before the judge gave it the history's noise) fails the first test.
TEST(AutoSamplingPower, AQuietRunnerDecidesAnUnchangedProgramInAboutOneRun) {
  const Gate gate = simulate(0.02, 1.0, 40, 1);
  EXPECT_LE(gate.false_verdicts, 2) << "false FAIL or IMPROVED of 40 checks";
  EXPECT_LE(gate.runs, 40 * 2) << "runs for 40 checks: at most 2 each";
  EXPECT_LE(gate.undecided, 3);
}

TEST(AutoSamplingPower, AQuietRunnerCatchesATwelvePercentRegression) {
  const Gate gate = simulate(0.02, 1.12, 40, 2);
  EXPECT_GE(gate.caught, 36) << "caught of 40 checks (goal: 90 %)";
  EXPECT_LE(gate.runs, 40 * 3 / 2) << "runs for 40 checks: at most 1.5 each";
}

// Measured: 0 false of 40 A/A checks, 39 left open; 8 of 40 B/A caught, 32 left open.
TEST(AutoSamplingPower, NoiseAsLargeAsTheChangeGivesNoFalseVerdictAndSaysItDidNotDecide) {
  // 10 % relative MAD, as this project's shared 2-core machine shows between runs: a 12 %
  // regression is mostly not told from noise in 5 runs, and the gate says so rather than guess.
  const Gate unchanged = simulate(0.10, 1.0, 40, 3);
  EXPECT_LE(unchanged.false_verdicts, 2);
  const Gate regressed = simulate(0.10, 1.12, 40, 4);
  EXPECT_EQ(regressed.false_verdicts, 0);
  EXPECT_GT(regressed.undecided, 0) << "a check this noise leaves open says so after the most runs";
}

}  // namespace
}  // namespace wcp
