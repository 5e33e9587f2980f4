// Issue 63: what identity can decide exactly (verdict/unchanged_compile.h), what a time verdict
// could see (detectable change, NOT JUDGED) and the runner's speed read off unchanged modules
// (verdict/runner_speed.h), through judge() and the baseline budget alike.
#include <gtest/gtest.h>

#include "budget/evaluate.h"
#include "io/file_digest.h"
#include "report_fixtures.h"
#include "verdict/judge.h"
#include "verdict/runner_speed.h"
#include "verdict/unchanged_compile.h"

namespace wcp::verdict {
namespace {

using testing::clean_report;
using testing::compiled;

BuildEnvironment this_machine() {
  return {"1.19.0", "warp-clang.so 69228288 bytes crc64 dfdfce35a0ce69e9", "13.4", "Intel(R) Xeon(R) Processor",
          "984cf03fa1245f5b"};
}

// A schema-15 report: clean_report's one module with its build environment and byte digests,
// cold module work `cold_ms` on both clocks.
Report recorded(double cold_ms = 1000.0) {
  Report report = clean_report(cold_ms);
  report.build_environment = this_machine();
  report.cold_module_cpu_ms = summarize({cold_ms});
  report.sample_results[0].cold_module_cpu_ms = cold_ms;
  report.module_events[0].detail = LoadDetail{};
  report.module_events[0].detail->cpu_ms = cold_ms;
  auto& module = report.cache.modules.at(0);
  module.source_digest = "ff1656b7a28248ad";
  module.output_bytes = 2728;
  module.output_digest = "282cfc84f75e2377";
  return report;
}

TEST(FileDigest, IsCrc64XzAndTheSameFedInPieces) {
  Crc64 whole;
  whole.feed("123456789");
  EXPECT_EQ(whole.hex(), "995dc9bbdf1939fa");  // CRC-64/XZ's published check value
  Crc64 pieces;
  pieces.feed("1234");
  pieces.feed("56789");
  EXPECT_EQ(pieces.hex(), whole.hex());
}

TEST(UnchangedCompile, TheSameIdentitiesToolchainAndBytesAreDecidedAfterOneRun) {
  // The candidate's clock read 9 % higher (a slower runner): identity decides, not the clock.
  const Judgement judgement = judge(recorded(1000.0), recorded(1090.0));
  EXPECT_EQ(judgement.verdict, Verdict::unchanged);
  EXPECT_EQ(judgement.rule, Rule::identities_unchanged);
  EXPECT_EQ(judgement.exit_code, 0);
  EXPECT_NE(judgement.reason.find("the same 1 identity"), std::string::npos) << judgement.reason;
  ASSERT_TRUE(judgement.module_work.delta_percent) << "time is still measured and reported";
  EXPECT_NEAR(*judgement.module_work.delta_percent, 9.0, 1e-9);
}

TEST(UnchangedCompile, ALevelBeyondTheNoiseOnUnchangedWorkIsANoteAboutTheRunner) {
  Report baseline = recorded(1000.0);
  baseline.samples = 3;
  baseline.cold_module_cpu_ms = summarize({990.0, 1000.0, 1010.0});
  const Judgement judgement = judge(baseline, recorded(1300.0));
  EXPECT_EQ(judgement.verdict, Verdict::unchanged);
  EXPECT_EQ(judgement.module_work.direction, Direction::regressed);
  bool runner_note = false;
  for (const auto& note : judgement.notes) runner_note = runner_note || note.starts_with("the runner, not the change");
  EXPECT_TRUE(runner_note);
}

TEST(UnchangedCompile, AnotherWarpVersionOrCpuIsJudgedOnTimeAndSaysWhy) {
  for (const auto& [field, value] :
       {std::pair{&BuildEnvironment::warp_version, std::string("1.9.1")},
        std::pair{&BuildEnvironment::cpu_features, std::string("0000000000000000")},
        std::pair{&BuildEnvironment::cpu_compiler, std::string("warp-clang.so 1 bytes")}}) {
    Report candidate = recorded(1000.0);
    (*candidate.build_environment).*field = value;
    const Judgement judgement = judge(recorded(1000.0), candidate);
    EXPECT_NE(judgement.verdict, Verdict::unchanged) << value;
    EXPECT_EQ(judgement.sameness.sameness, Sameness::environment_differs);
    ASSERT_FALSE(judgement.notes.empty());
    EXPECT_NE(judgement.notes.front().find("judged on time, not by identity"), std::string::npos)
        << judgement.notes.front();
  }
}

TEST(UnchangedCompile, PrecompiledHeadersSwitchedAreOtherWorkUnderTheSameHash) {
  Report candidate = recorded(1000.0);
  candidate.instrumentation.use_precompiled_headers = false;
  const Judgement judgement = judge(recorded(1000.0), candidate);
  EXPECT_EQ(judgement.sameness.sameness, Sameness::environment_differs);
  EXPECT_NE(judgement.sameness.detail.find("precompiled headers differ (unknown vs off)"), std::string::npos)
      << judgement.sameness.detail;
}

TEST(UnchangedCompile, ACompilerUnknownOnBothSidesIsNoProofOfTheSameCompiler) {
  Report baseline = recorded(1000.0), candidate = recorded(1000.0);
  baseline.build_environment->cpu_compiler.clear();  // Warp's folder was not found
  candidate.build_environment->cpu_compiler.clear();
  const Judgement judgement = judge(baseline, candidate);
  EXPECT_NE(judgement.verdict, Verdict::unchanged);
  EXPECT_NE(judgement.sameness.detail.find("Warp's CPU compiler is unknown on both sides"), std::string::npos)
      << judgement.sameness.detail;
}

TEST(UnchangedCompile, TheCudaToolkitMattersOnlyWhenACudaModuleWasBuilt) {
  Report candidate = recorded(1000.0);
  candidate.build_environment->cuda_toolkit = "12.8";
  EXPECT_EQ(judge(recorded(1000.0), candidate).verdict, Verdict::unchanged) << "a CPU-only run compiled no CUDA";
}

TEST(UnchangedCompile, EqualHashesOverOtherBytesAreADefectNeverAPass) {
  Report candidate = recorded(1000.0);
  candidate.cache.modules[0].output_digest = "0000000000000000";
  const Judgement judgement = judge(recorded(1000.0), candidate);
  EXPECT_NE(judgement.verdict, Verdict::unchanged);
  EXPECT_EQ(judgement.sameness.sameness, Sameness::bytes_differ);
  EXPECT_NE(judgement.sameness.detail.find("for Warp's maintainers, not a pass"), std::string::npos);
}

TEST(UnchangedCompile, ABuildRepeatedOrASampleThatBuiltOtherwiseIsNotTheSame) {
  Report twice = recorded(1000.0);
  twice.module_events.push_back(twice.module_events[0]);
  EXPECT_EQ(compare_compiled_code(recorded(), twice).sameness, Sameness::identities_differ);

  Report baseline = recorded(), candidate = recorded();
  baseline.sample_results[0].cold_identities = std::vector<std::string>{"__main__ aaaaaaa"};
  candidate.sample_results[0].cold_identities = std::vector<std::string>{"__main__ aaaaaaa"};
  SampleResult second = candidate.sample_results[0];
  second.index = 2;
  second.cold_identities = std::vector<std::string>{"__main__ bbbbbbb"};
  candidate.sample_results.push_back(second);
  EXPECT_EQ(compare_compiled_code(baseline, candidate).sameness, Sameness::identities_differ);
}

TEST(UnchangedCompile, AnOlderReportIsJudgedAsBeforeAndSaysSo) {
  Report older = recorded(1000.0);
  older.build_environment.reset();
  older.schema_version = 14;
  const Judgement judgement = judge(older, recorded(1000.0));
  EXPECT_EQ(judgement.verdict, Verdict::inconclusive);
  EXPECT_EQ(judgement.sameness.sameness, Sameness::not_recorded);
  bool said = false;
  for (const auto& note : judgement.notes)
    said = said || note.find("predates the build environment") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(DetectableChange, EveryTimeVerdictStatesWhatItCouldSee) {
  Report candidate = recorded(1100.0);
  candidate.module_events[0].hash = "bbbbbbb";  // changed work: judged on time
  const Judgement judgement = judge(recorded(1000.0), candidate);
  ASSERT_TRUE(judgement.module_work.detectable_percent);
  EXPECT_NEAR(*judgement.module_work.detectable_percent, 35.0, 1e-9) << "one run a side: the gross-change bound";
  EXPECT_NE(judgement.reason.find("could detect ≥ 35.0 % with 1 run a side"), std::string::npos) << judgement.reason;
  EXPECT_EQ(judgement.verdict, Verdict::inconclusive) << "compare has no threshold of its own";
}

TEST(DetectableChange, ABandWiderThanTheThresholdIsNotJudgedNeverASilentPass) {
  Report candidate = recorded(1100.0);
  candidate.module_events[0].hash = "bbbbbbb";
  JudgeOptions options;
  options.threshold_percent = 5.0;
  options.how_to_decide = "decide it with `check --against-rev <merge base>`";
  const Judgement judgement = judge(recorded(1000.0), candidate, options);
  EXPECT_EQ(judgement.verdict, Verdict::not_judged);
  EXPECT_EQ(judgement.rule, Rule::not_judged);
  EXPECT_NE(judgement.reason.find("could detect ≥ 35.0 %"), std::string::npos) << judgement.reason;
  EXPECT_NE(judgement.reason.find("--against-rev"), std::string::npos) << judgement.reason;

  budget::CommandEntry entry;
  entry.name = "twin";
  entry.baseline_report = "baseline.json";
  const auto result = budget::evaluate(entry, candidate, recorded(1000.0));
  const auto& outcome = result.outcomes.back();
  ASSERT_EQ(outcome.budget, "baseline");
  EXPECT_EQ(outcome.verdict, budget::Verdict::not_judged);
  EXPECT_NE(outcome.note.find("--against-rev"), std::string::npos) << outcome.note;
}

TEST(DetectableChange, ABandNarrowerThanTheThresholdStillGivesInconclusive) {
  Report baseline = recorded(1000.0), candidate = recorded(1010.0);
  candidate.module_events[0].hash = "bbbbbbb";
  baseline.samples = candidate.samples = 3;
  baseline.cold_module_cpu_ms = summarize({995.0, 1000.0, 1005.0});
  candidate.cold_module_cpu_ms = summarize({1005.0, 1010.0, 1015.0});
  JudgeOptions options;
  options.threshold_percent = 5.0;
  const Judgement judgement = judge(baseline, candidate, options);
  EXPECT_EQ(judgement.verdict, Verdict::inconclusive);
  EXPECT_LE(*judgement.module_work.detectable_percent, 5.0);
}

// A changed compile against a stored baseline with three tight samples: compare keeps the
// original probe's band (1 %); a budget allows for the runner's drift since the baseline.
TEST(StoredBaselineDrift, ABudgetCannotSeeBelowTheRunnersDriftAndSaysSo) {
  Report baseline = recorded(1000.0);
  baseline.samples = 3;
  baseline.cold_module_cpu_ms = summarize({999.0, 1000.0, 1001.0});
  const auto candidate_at = [](double ms) {
    Report candidate = recorded(ms);
    candidate.module_events[0].hash = "bbbbbbb";
    return candidate;
  };
  EXPECT_EQ(judge(baseline, candidate_at(1040.0)).verdict, Verdict::regression) << "compare: the original band";

  budget::CommandEntry entry;
  entry.name = "twin";
  entry.baseline_report = "baseline.json";
  const auto judged = [&](double ms) {
    return *budget::evaluate(entry, candidate_at(ms), baseline).outcomes.back().judgement;
  };
  const Judgement small = judged(1040.0);
  EXPECT_EQ(small.verdict, Verdict::not_judged);
  EXPECT_TRUE(small.module_work.drift_floor);
  EXPECT_NE(small.reason.find("could detect ≥ 10.0 %"), std::string::npos) << small.reason;
  EXPECT_EQ(judged(1150.0).verdict, Verdict::regression) << "beyond any drift";
}

TEST(DetectableChange, PairsTheSignTestHeldBackAreNotJudgedWhenABudgetNeedsAnAnswer) {
  // Four pairs of five slower by 12 %, one faster: the median left a 1 % band, but 4 of 5 is
  // what chance gives (p = 0.1875). compare says INCONCLUSIVE; a budget may not pass it silently.
  auto arm = [](const std::vector<double>& runs, const std::string& hash) {
    Report report = testing::report_of_runs(runs);
    report.build_environment = this_machine();
    report.module_events[0].hash = hash;
    report.cache.modules[0].source_digest = report.cache.modules[0].output_digest = hash;
    return report;
  };
  const Report baseline = arm({1000, 1000, 1000, 1000, 1000}, "aaaaaaa");
  const Report candidate = arm({1120, 1120, 1120, 1120, 900}, "bbbbbbb");
  JudgeOptions paired;
  paired.paired = true;
  const Judgement inconclusive = judge(baseline, candidate, paired);
  ASSERT_TRUE(inconclusive.module_work.paired);
  EXPECT_TRUE(inconclusive.module_work.paired->too_few_to_tell);
  EXPECT_EQ(inconclusive.verdict, Verdict::inconclusive);
  paired.threshold_percent = 5.0;
  const Judgement judgement = judge(baseline, candidate, paired);
  EXPECT_EQ(judgement.verdict, Verdict::not_judged);
  EXPECT_NE(judgement.reason.find("slower in only 4 of 5 pairs"), std::string::npos) << judgement.reason;
}

// Two modules: "stable" built identically on both sides (3000 ms of the baseline's 4000), and
// "changed" with a new identity in the candidate.
Report two_modules(double stable_ms, double changed_ms, const std::string& changed_hash) {
  Report report = recorded(stable_ms + changed_ms);
  report.module_events = {compiled("stable", "aaaaaaa", stable_ms), compiled("changed", changed_hash, changed_ms)};
  for (auto& event : report.module_events) {
    event.detail = LoadDetail{};
    event.detail->cpu_ms = event.ms;
  }
  report.identities = report.compiled_events = report.modules = 2;
  return report;
}

TEST(RunnerSpeed, TheUnchangedModulesTellTheRunnersSpeedAndOnlyTheChangedOnesAreJudged) {
  // The candidate's runner is 20 % slower; its changed module costs 10 % more at equal speed.
  const Report baseline = two_modules(3000.0, 1000.0, "1111111");
  const Report candidate = two_modules(3600.0, 1320.0, "2222222");
  const auto reading = runner_speed(baseline, candidate, true);
  ASSERT_TRUE(reading.speed) << reading.not_applied;
  EXPECT_NEAR(reading.speed->ratio, 1.2, 1e-12);
  const Judgement judgement = judge(baseline, candidate);
  ASSERT_TRUE(judgement.module_work.delta_ms);
  EXPECT_NEAR(*judgement.module_work.delta_ms, 100.0, 1e-9) << "(3600 + 1320) / 1.2 - 4000";
  JudgeOptions raw;
  raw.runner_speed_from_unchanged = false;
  EXPECT_NEAR(*judge(baseline, candidate, raw).module_work.delta_ms, 920.0, 1e-9);
}

TEST(RunnerSpeed, TheRatioIsCarriedFromTheFirstSamplesToTheMedians) {
  // The baseline's first run was slow (4400 ms against a median of 4000): its loads read 10 %
  // above its median. Read off those loads alone, the speed would credit the candidate 10 %.
  Report baseline = two_modules(3300.0, 1100.0, "1111111");
  baseline.cold_module_cpu_ms = summarize({4400.0, 4000.0, 3990.0});
  const Report candidate = two_modules(3000.0, 1000.0, "2222222");  // same speed, same cost
  const Judgement judgement = judge(baseline, candidate);
  ASSERT_TRUE(judgement.runner_speed);
  EXPECT_NEAR(judgement.runner_speed->ratio, 3000.0 / 3300.0, 1e-12);
  EXPECT_NEAR(judgement.module_work.candidate->median, 4000.0, 1e-9) << "the baseline's median, unchanged";
}

TEST(RunnerSpeed, AStoredBaselineWithUnchangedModulesNeedsNoDriftAllowance) {
  Report baseline = two_modules(3000.0, 1000.0, "1111111");
  baseline.samples = 3;
  baseline.cold_module_cpu_ms = summarize({3990.0, 4000.0, 4010.0});
  budget::CommandEntry entry;
  entry.name = "app";
  entry.baseline_report = "baseline.json";
  // A runner 20 % slower and a changed module 16 % dearer: +4 % at the baseline's speed.
  const auto judgement =
      *budget::evaluate(entry, two_modules(3600.0, 1392.0, "2222222"), baseline).outcomes.back().judgement;
  ASSERT_TRUE(judgement.runner_speed);
  EXPECT_FALSE(judgement.module_work.drift_floor);
  EXPECT_EQ(judgement.verdict, Verdict::regression) << judgement.reason;
}

TEST(RunnerSpeed, AModuleRewrittenUnderTheSameHashIsNotTheRunnersSpeed) {
  // Both sides built the same two identities; Warp wrote "changed"'s source otherwise in the
  // candidate (a process-dependent order): "stable" alone tells the speed.
  auto with_directories = [](Report report, const std::string& changed_digest) {
    report.cache.modules = {{"wp_stable_aaaaaaa", 1000, 1, 0, {}, 0}, {"wp_changed_1111111", 1000, 1, 0, {}, 0}};
    report.cache.modules[0].source_digest = report.cache.modules[0].output_digest = "s";
    report.cache.modules[1].source_digest = changed_digest;
    report.cache.modules[1].output_digest = "o";
    return report;
  };
  const Report baseline = with_directories(two_modules(3000.0, 1000.0, "1111111"), "x");
  const Report candidate = with_directories(two_modules(3300.0, 1100.0, "1111111"), "y");
  EXPECT_EQ(compare_compiled_code(baseline, candidate).sameness, Sameness::bytes_differ);
  const auto reading = runner_speed(baseline, candidate, true);
  ASSERT_TRUE(reading.speed) << reading.not_applied;
  EXPECT_EQ(reading.speed->unchanged_identities, 1u);
  EXPECT_NEAR(reading.speed->ratio, 1.1, 1e-12);
}

TEST(RunnerSpeed, TheBuildThatPaidForThePrecompiledHeaderTellsNoSpeed) {
  // The candidate's new module built first and paid for the header the baseline's first
  // module paid for: that module's time fell for a reason other than the runner.
  Report baseline = two_modules(3000.0, 1000.0, "1111111");
  Report candidate = two_modules(3000.0, 1000.0, "2222222");
  baseline.module_events.push_back(compiled("third", "3333333", 1500.0));
  baseline.module_events.back().built_pch = true;
  baseline.module_events.back().detail = LoadDetail{};
  baseline.module_events.back().detail->cpu_ms = 1500.0;
  candidate.module_events.push_back(compiled("third", "3333333", 500.0));
  candidate.module_events.back().detail = LoadDetail{};
  candidate.module_events.back().detail->cpu_ms = 500.0;
  const auto reading = runner_speed(baseline, candidate, true);
  ASSERT_TRUE(reading.speed) << reading.not_applied;
  EXPECT_EQ(reading.speed->unchanged_identities, 1u) << "only `stable`";
  EXPECT_DOUBLE_EQ(reading.speed->ratio, 1.0);
}

TEST(RunnerSpeed, TooLittleUnchangedWorkIsNotReadAsTheRunnersSpeed) {
  const Report baseline = two_modules(50.0, 4000.0, "1111111");
  const Report candidate = two_modules(60.0, 4400.0, "2222222");
  const auto reading = runner_speed(baseline, candidate, true);
  EXPECT_FALSE(reading.speed);
  EXPECT_NE(reading.not_applied.find("under the 100 ms"), std::string::npos) << reading.not_applied;
  EXPECT_FALSE(judge(baseline, candidate).runner_speed);
}

TEST(RunnerSpeed, PairedRunsNeedNoSpeedCorrection) {
  JudgeOptions paired;
  paired.paired = true;
  EXPECT_FALSE(
      judge(two_modules(3000.0, 1000.0, "1111111"), two_modules(3600.0, 1320.0, "2222222"), paired).runner_speed);
}

}  // namespace
}  // namespace wcp::verdict
