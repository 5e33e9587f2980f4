// Steps in a history: a changed structure of what Warp compiled, or a level the next two commits
// hold beyond the band; never new hashes alone (a note), never a single slow run, never a failed
// commit.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "history/trend.h"

namespace wcp::history {
namespace {

Result at_commit(int commit, std::vector<double> cold_ms, std::vector<std::string> identities = {"__main__ 1111111"}) {
  Result result;
  result.name = "app";
  result.machine = {"ci-7", "cpu", "", "", "1.19.0", "", ""};
  result.commit = Commit{std::string(40, static_cast<char>('0' + commit)), false};
  result.samples = static_cast<int>(cold_ms.size());
  result.cold_module_ms = summarize(cold_ms);
  result.identities = identities.size();
  result.identity_set = identities;
  result.rebuilt_modules = std::vector<ModuleBuilds>{};
  result.warm_compiles = 0;
  result.lto_artifacts = 0;
  return result;
}

Result failed_at(int commit) {
  Result result = at_commit(commit, {});
  result.samples = 2;
  result.failed_samples = 2;
  result.cold_module_ms.reset();
  result.identities.reset();
  result.identity_set.reset();
  result.rebuilt_modules.reset();
  result.warm_compiles.reset();
  result.lto_artifacts.reset();
  result.machine.warp_version.clear();  // it never imported Warp
  return result;
}

const std::vector<std::string> kTwoIdentities{"__main__ 1111111", "__main__ 2222222"};

std::vector<int> step_commits(const Series& series) {
  std::vector<int> commits;
  for (std::size_t index = 0; index < series.points.size(); ++index) {
    if (series.points[index].step) commits.push_back(static_cast<int>(index) + 1);
  }
  return commits;
}

std::vector<int> note_commits(const Series& series) {
  std::vector<int> commits;
  for (std::size_t index = 0; index < series.points.size(); ++index) {
    if (series.points[index].note) commits.push_back(static_cast<int>(index) + 1);
  }
  return commits;
}

TEST(HistoryTrend, AChangedIdentitySetIsAStepAtThatCommitOnly) {
  std::vector<Result> results;
  for (int commit = 1; commit <= 8; ++commit) {
    if (commit == 3) {
      results.push_back(failed_at(3));
      continue;
    }
    Result result = commit >= 5 ? at_commit(commit, {2000, 2010, 1990}, {"__main__ 1111111", "__main__ 2222222"})
                                : at_commit(commit, {1000, 1010, 990});
    if (commit >= 5) result.rebuilt_modules = std::vector<ModuleBuilds>{{"__main__", 2}};
    results.push_back(result);
  }
  const auto series = build_series(results);
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(step_commits(series[0]), std::vector<int>{5});
  const Step& step = *series[0].points[4].step;
  EXPECT_TRUE(step.structure_changed);
  EXPECT_TRUE(step.structure.identities_differ);
  EXPECT_TRUE(step.clock_left_band);
  EXPECT_EQ(step.structure.identities_added, std::vector<std::string>{"__main__ 2222222"});
  EXPECT_FALSE(series[0].points[4].note.has_value());  // the step says what changed
  EXPECT_NE(step.summary.find("cold module work +1.0 s at 5555555"), std::string::npos) << step.summary;
  EXPECT_NE(step.summary.find("identities 1 → 2"), std::string::npos) << step.summary;
  EXPECT_NE(step.summary.find("module __main__ built twice"), std::string::npos) << step.summary;
  // The failed commit is shown and never compared: commit 4 is compared with commit 2.
  EXPECT_FALSE(series[0].points[2].result.measured());
  EXPECT_FALSE(series[0].points[2].change_ms.has_value());
  EXPECT_DOUBLE_EQ(*series[0].points[3].change_ms, 0.0);
}

// "__main__ <hash of commit>": the module's hash after an edit of its kernel at that commit.
std::string main_at(int commit) {
  return "__main__ " + std::string(7, static_cast<char>('0' + commit));
}

TEST(HistoryTrend, ALevelHeldByTheNextTwoCommitsIsAStep) {
  // Commit 3 edits the kernel (a new hash, the same structure) and its cost holds.
  std::vector<Result> results{
      at_commit(1, {1000, 1020, 980}), at_commit(2, {1005, 995, 1010}), at_commit(3, {1300, 1310, 1290}, {main_at(3)}),
      at_commit(4, {1295, 1305, 1300}, {main_at(3)}), at_commit(5, {1310, 1290, 1300}, {main_at(3)})};
  const auto series = build_series(results);
  EXPECT_EQ(step_commits(series[0]), std::vector<int>{3});
  const Step& step = *series[0].points[2].step;
  EXPECT_FALSE(step.structure_changed);
  EXPECT_TRUE(step.structure.code_edited()) << "new hashes, the same structure";
  EXPECT_TRUE(step.clock_left_band);
  EXPECT_EQ(series[0].points[2].clock, ClockMove::above);
}

TEST(HistoryTrend, OneSlowCommitIsNotAStep) {
  std::vector<Result> results{at_commit(1, {1000, 1020, 980}), at_commit(2, {1005, 995, 1000}),
                              at_commit(3, {1400, 1390, 1410}), at_commit(4, {1005, 995, 1000}),
                              at_commit(5, {1000, 1010, 990})};
  const auto series = build_series(results);
  EXPECT_TRUE(step_commits(series[0]).empty());
  EXPECT_EQ(series[0].points[2].clock, ClockMove::returned);
}

// After a step the band starts again, and one commit's quiet samples are not yet a band: the
// commit after a step is not judged against them alone.
TEST(HistoryTrend, TheCommitAfterAStepIsNotJudgedAgainstItAlone) {
  std::vector<Result> results{at_commit(1, {1000, 1020, 980}),
                              at_commit(2, {1005, 995, 1000}),
                              at_commit(3, {2000, 2001, 1999}, kTwoIdentities),
                              at_commit(4, {2100, 2090, 2110}, kTwoIdentities),
                              at_commit(5, {2100, 2105, 2095}, kTwoIdentities),
                              at_commit(6, {2100, 2095, 2105}, kTwoIdentities)};
  const auto series = build_series(results);
  EXPECT_EQ(step_commits(series[0]), std::vector<int>{3});
  EXPECT_EQ(series[0].points[3].clock, ClockMove::none);
}

TEST(HistoryTrend, ALevelChangeAtTheLastCommitsWaitsForConfirmation) {
  std::vector<Result> results{at_commit(1, {1000, 1020, 980}), at_commit(2, {1000, 1010, 990}),
                              at_commit(3, {1500, 1490, 1510})};
  const auto series = build_series(results);
  EXPECT_TRUE(step_commits(series[0]).empty());
  EXPECT_EQ(series[0].points[2].clock, ClockMove::unconfirmed);
}

TEST(HistoryTrend, NoiseWithinTheBandIsNotAStep) {
  std::vector<Result> results;
  const std::vector<std::vector<double>> noisy{{1000, 1100, 900}, {1050, 950, 1000}, {1080, 960, 1020},
                                               {990, 1070, 930},  {1040, 980, 1010}, {960, 1060, 1000}};
  for (std::size_t index = 0; index < noisy.size(); ++index)
    results.push_back(at_commit(static_cast<int>(index) + 1, noisy[index]));
  EXPECT_TRUE(step_commits(build_series(results)[0]).empty());
}

TEST(HistoryTrend, TooFewSamplesForABandLeaveTheClockRuleWaiting) {
  // One sample per commit: the first commit alone cannot say what noise is.
  std::vector<Result> results{at_commit(1, {1000}), at_commit(2, {1200}), at_commit(3, {1210}), at_commit(4, {1190})};
  const auto series = build_series(results);
  EXPECT_EQ(series[0].points[1].clock, ClockMove::none);
  EXPECT_TRUE(step_commits(series[0]).empty());
}

// The machine got busier from commit 3 on: module work rose 30 %, and so did the reference
// build measured beside it. In ms that is a level; in cold units it is nothing.
TEST(HistoryTrend, ColdUnitsDivideOutABusierMachine) {
  std::vector<Result> results;
  for (int commit = 1; commit <= 6; ++commit) {
    const double load = commit >= 3 ? 1.3 : 1.0;
    Result result = at_commit(commit, {1000 * load, 1010 * load, 990 * load});
    result.cold_units = summarize({2.0, 2.02, 1.98});
    result.reference = "warp-cpu/pch/4x2-kernel-modules/v1";
    results.push_back(result);
  }
  const auto in_units = build_series(results);
  EXPECT_EQ(in_units[0].level_clock, LevelClock::cold_units);
  EXPECT_TRUE(step_commits(in_units[0]).empty());

  results[1].cold_units.reset();  // one commit without a reference: the series falls back to ms
  const auto in_ms = build_series(results);
  EXPECT_EQ(in_ms[0].level_clock, LevelClock::cold_module_ms);
  // In ms the level moved at 3, but commit 3 compiled exactly commit 2's identities: the runner.
  EXPECT_TRUE(step_commits(in_ms[0]).empty());
  ASSERT_TRUE(in_ms[0].points[2].note);
  EXPECT_EQ(in_ms[0].points[2].note->kind, NoteKind::runner_level_moved);
}

TEST(HistoryTrend, AStepInColdUnitsIsNamedInUnits) {
  std::vector<Result> results;
  for (int commit = 1; commit <= 5; ++commit) {
    Result result = at_commit(commit, {1000, 1000, 1000}, {main_at(commit >= 3 ? 3 : 1)});
    const double level = commit >= 3 ? 3.0 : 2.0;
    result.cold_units = summarize({level, level + 0.02, level - 0.02});
    result.reference = "warp-cpu/pch/4x2-kernel-modules/v1";
    results.push_back(result);
  }
  const auto series = build_series(results);
  ASSERT_EQ(step_commits(series[0]), std::vector<int>{3});
  EXPECT_NE(series[0].points[2].step->summary.find("cold units +1.00 at 3333333"), std::string::npos)
      << series[0].points[2].step->summary;
}

// Every commit edits a constant in the kernel: new hashes, one identity, one build each time.
// That is a note at each commit, never a step, in whichever clock and however many samples.
TEST(HistoryTrend, KernelEditsAreNotesNotSteps) {
  std::vector<Result> results;
  for (int commit = 1; commit <= 6; ++commit)
    results.push_back(at_commit(commit, {1000, 1010, 990}, {main_at(commit)}));
  results.push_back(at_commit(7, {1000, 1010, 990}, {main_at(6)}));  // a print outside the kernel: same hash
  const auto series = build_series(results);
  EXPECT_TRUE(step_commits(series[0]).empty());
  EXPECT_EQ(note_commits(series[0]), (std::vector<int>{2, 3, 4, 5, 6}));
  const Note& note = *series[0].points[1].note;
  EXPECT_EQ(note.kind, NoteKind::kernel_code_changed);
  EXPECT_EQ(note.summary, "kernel code changed in __main__");
  EXPECT_EQ(note.modules, std::vector<std::string>{"__main__"});
  EXPECT_EQ(note.identities_added, std::vector<std::string>{main_at(2)});
  EXPECT_EQ(note.identities_removed, std::vector<std::string>{main_at(1)});
  EXPECT_EQ(to_string(note.kind), "kernel_code_changed");
}

// What the reviewer saw: six commits each editing a constant, commit 4 also defining a second
// kernel after the first launch (identities 1 → 2, __main__ built twice, +200 ms). Only commit
// 4 is a step; the others are notes.
TEST(HistoryTrend, OnlyTheRebuildIsAStepAmongKernelEdits) {
  std::vector<Result> results;
  for (int commit = 1; commit <= 6; ++commit) {
    const bool rebuilt = commit >= 4;
    const double ms = rebuilt ? 1200 : 1000;
    Result result = rebuilt
                        ? at_commit(commit, {ms, ms + 10, ms - 10},
                                    {"__main__ " + std::string(7, static_cast<char>('a' + commit)), main_at(commit)})
                        : at_commit(commit, {ms, ms + 10, ms - 10}, {main_at(commit)});
    if (rebuilt) result.rebuilt_modules = std::vector<ModuleBuilds>{{"__main__", 2}};
    results.push_back(result);
  }
  const auto series = build_series(results);
  ASSERT_EQ(step_commits(series[0]), std::vector<int>{4});
  EXPECT_EQ(note_commits(series[0]), (std::vector<int>{2, 3, 5, 6}));
  const Step& step = *series[0].points[3].step;
  EXPECT_TRUE(step.structure_changed);
  EXPECT_EQ(step.summary, "cold module work +200 ms at 4444444; identities 1 → 2; module __main__ built twice");
}

// The structure rule needs no timing: with one sample per commit the level rule cannot judge
// yet, and the rebuild is still the step.
TEST(HistoryTrend, AStructureChangeIsAStepWithoutAnyTiming) {
  Result rebuilt = at_commit(3, {1200}, kTwoIdentities);
  rebuilt.rebuilt_modules = std::vector<ModuleBuilds>{{"__main__", 2}};
  const auto series = build_series({at_commit(1, {1000}), at_commit(2, {1000}, {main_at(2)}), rebuilt});
  ASSERT_EQ(step_commits(series[0]), std::vector<int>{3});
  const Step& step = *series[0].points[2].step;
  EXPECT_FALSE(step.delta.has_value());
  EXPECT_FALSE(step.clock_left_band);
  EXPECT_EQ(step.summary, "at 3333333; identities 1 → 2; module __main__ built twice");
  EXPECT_EQ(note_commits(series[0]), std::vector<int>{2});
}

// The same identity built twice (its cache bypassed) and back: the identity set never changes,
// the builds per module do, both ways.
TEST(HistoryTrend, ModuleBuildsAreStructure) {
  Result twice = at_commit(2, {1000});
  twice.rebuilt_modules = std::vector<ModuleBuilds>{{"__main__", 2}};
  const auto series = build_series({at_commit(1, {1000}), twice, at_commit(3, {1000})});
  ASSERT_EQ(step_commits(series[0]), (std::vector<int>{2, 3}));
  EXPECT_EQ(series[0].points[1].step->summary, "at 2222222; module __main__ built twice");
  EXPECT_EQ(series[0].points[2].step->summary, "at 3333333; module __main__ built once");
  EXPECT_EQ(series[0].points[2].step->structure.built_fewer, (std::vector<ModuleBuilds>{{"__main__", 1}}));
  EXPECT_TRUE(note_commits(series[0]).empty());
}

TEST(HistoryTrend, WarmCompilesAndLtoArtifactsAreStructure) {
  Result warm = at_commit(2, {1000}, {main_at(2)});
  warm.warm_compiles = 1;
  Result lto = at_commit(3, {1000}, {main_at(2)});
  lto.warm_compiles = 1;
  lto.lto_artifacts = 4;
  const auto series = build_series({at_commit(1, {1000}), warm, lto});
  ASSERT_EQ(step_commits(series[0]), (std::vector<int>{2, 3}));
  // A step that also edited kernel code names the edit.
  EXPECT_EQ(series[0].points[1].step->summary, "at 2222222; warm compiles 0 → 1; kernel code changed in __main__");
  EXPECT_EQ(series[0].points[2].step->summary, "at 3333333; LTO artifacts 0 → 4");
  EXPECT_EQ(series[0].points[1].step->structure.warm_compiles, (CountChange{0, 1}));
  EXPECT_EQ(note_commits(series[0]), std::vector<int>{2});
}

// Missing is not zero: a result that did not record a part (an older history layout, no warm
// run that said) is not compared on it.
TEST(HistoryTrend, AnUnrecordedPartIsNotCompared) {
  Result older = at_commit(1, {1000});
  older.warm_compiles.reset();
  older.lto_artifacts.reset();
  older.rebuilt_modules.reset();
  Result now = at_commit(2, {1000});
  now.warm_compiles = 2;
  now.lto_artifacts = 3;
  now.rebuilt_modules = std::vector<ModuleBuilds>{{"__main__", 2}};
  const auto series = build_series({older, now});
  EXPECT_TRUE(step_commits(series[0]).empty());
  EXPECT_TRUE(note_commits(series[0]).empty());
}

// A module="unique" kernel's module is named after its content hash: editing the kernel
// renames the module, and that is still only an edit.
TEST(HistoryTrend, AnEditedUniqueModuleKernelIsANote) {
  const auto series = build_series(
      {at_commit(1, {1000}, {"scale_1a2b3c4d 1a2b3c4"}), at_commit(2, {1000}, {"scale_5e6f7a8b 5e6f7a8"})});
  EXPECT_TRUE(step_commits(series[0]).empty());
  ASSERT_EQ(note_commits(series[0]), std::vector<int>{2});
  EXPECT_EQ(series[0].points[1].note->summary, "kernel code changed in scale");
}

TEST(HistoryTrend, AModuleReplacedByAnotherIsAStep) {
  const auto series = build_series({at_commit(1, {1000}, {"app 1111111", "physics 2222222"}),
                                    at_commit(2, {1000}, {"app 1111111", "render 3333333"})});
  ASSERT_EQ(step_commits(series[0]), std::vector<int>{2});
  EXPECT_EQ(series[0].points[1].step->summary, "at 2222222; module physics removed; module render added");
}

// A slow commit right before a rebuild: the rebuild's own rise must not confirm it as a level.
TEST(HistoryTrend, ARebuildDoesNotConfirmTheLevelOfTheCommitBeforeIt) {
  std::vector<Result> results{at_commit(1, {1000, 1010, 990}), at_commit(2, {1000, 1005, 995}),
                              at_commit(3, {1300, 1310, 1290})};
  for (int commit = 4; commit <= 5; ++commit) {
    Result rebuilt = at_commit(commit, {1600, 1610, 1590}, kTwoIdentities);
    rebuilt.rebuilt_modules = std::vector<ModuleBuilds>{{"__main__", 2}};
    results.push_back(rebuilt);
  }
  const auto series = build_series(results);
  EXPECT_EQ(step_commits(series[0]), std::vector<int>{4});
  EXPECT_EQ(series[0].points[2].clock, ClockMove::unconfirmed);
}

// A level the next commits hold at a kernel edit is a step, and names the edit as its likeliest
// cause; the note stays on the commit.
TEST(HistoryTrend, ALevelStepAtAKernelEditNamesTheEdit) {
  std::vector<Result> results{
      at_commit(1, {1000, 1010, 990}), at_commit(2, {1000, 1005, 995}), at_commit(3, {1300, 1310, 1290}, {main_at(3)}),
      at_commit(4, {1300, 1305, 1295}, {main_at(3)}), at_commit(5, {1300, 1295, 1305}, {main_at(3)})};
  const auto series = build_series(results);
  ASSERT_EQ(step_commits(series[0]), std::vector<int>{3});
  const Step& step = *series[0].points[2].step;
  EXPECT_FALSE(step.structure_changed);
  EXPECT_TRUE(step.clock_left_band);
  EXPECT_EQ(step.summary, "cold module work +300 ms at 3333333; kernel code changed in __main__");
  EXPECT_EQ(note_commits(series[0]), std::vector<int>{3});
}

TEST(HistoryTrend, MachinesAndCommandsAreSeparateSeries) {
  Result other_host = at_commit(1, {5000, 5000, 5000});
  other_host.machine.host = "laptop";
  Result other_command = at_commit(1, {10, 10, 10});
  other_command.name = "tests";
  const auto series = build_series({at_commit(1, {1000, 1000, 1000}), other_host, other_command});
  ASSERT_EQ(series.size(), 3u);
  EXPECT_EQ(build_series({at_commit(1, {1000}), other_host}, "", "laptop").size(), 1u);
  EXPECT_EQ(build_series({at_commit(1, {1000}), other_command}, "tests").size(), 1u);
}

TEST(HistoryTrend, TheLatestMeasuredResultSpeaksForItsCommit) {
  Result second = at_commit(1, {2000, 2000, 2000});
  const auto series = build_series({at_commit(1, {1000, 1000, 1000}), second, failed_at(1)});
  ASSERT_EQ(series[0].points.size(), 1u);
  EXPECT_EQ(series[0].points[0].results, 3);
  EXPECT_EQ(series[0].points[0].result.cold_module_ms->median, 2000.0);
}

TEST(HistoryTrend, ADirtyTreeIsItsOwnPoint) {
  Result dirty = at_commit(1, {1000, 1000, 1000});
  dirty.commit->dirty = true;
  const auto series = build_series({at_commit(1, {1000, 1000, 1000}), dirty});
  ASSERT_EQ(series[0].points.size(), 2u);
  EXPECT_EQ(short_sha(series[0].points[1].commit), "1111111-dirty");
}

}  // namespace
}  // namespace wcp::history

namespace wcp::history {
namespace {

// Commits 4 to 8 ran on a busy runner: the wall doubled, the CPU clock held. Judged on the CPU
// clock (every result has it), the series has no step; a level the CPU clock left is one.
TEST(HistoryTrendCpu, ARunnerThatGotBusyIsNoStepOnTheCpuClock) {
  std::vector<Result> results;
  for (int commit = 1; commit <= 8; ++commit) {
    Result result = commit >= 4 ? at_commit(commit, {2000, 2020, 1980}) : at_commit(commit, {1000, 1010, 990});
    result.cold_module_cpu_ms = summarize({990, 1000, 985});
    results.push_back(result);
  }
  auto series = build_series(results);
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0].level_clock, LevelClock::cold_module_cpu_ms);
  EXPECT_TRUE(step_commits(series[0]).empty());
  for (int commit = 6; commit <= 8; ++commit) {
    results[commit - 1].cold_module_cpu_ms = summarize({1200, 1210, 1190});
    results[commit - 1].identity_set = std::vector<std::string>{main_at(6)};  // an edit that costs more
  }
  series = build_series(results);
  EXPECT_EQ(step_commits(series[0]), std::vector<int>{6});
  EXPECT_NE(series[0].points[5].step->summary.find("cold module CPU +"), std::string::npos)
      << series[0].points[5].step->summary;
}

// Issue 63: the same compiled identities under the series' one Warp and toolkit are the same
// work; a level that moved there, however long it holds, is the runner's.
TEST(HistoryTrend, ALevelThatMovedOverTheSameIdentitiesIsTheRunnersNotAStep) {
  std::vector<Result> results;
  for (int commit = 1; commit <= 7; ++commit) {
    const double level = commit >= 4 ? 1100.0 : 1000.0;
    results.push_back(at_commit(commit, {level, level + 10, level - 10}));
  }
  const auto series = build_series(results);
  EXPECT_TRUE(step_commits(series[0]).empty());
  EXPECT_EQ(note_commits(series[0]), std::vector<int>{4});
  const Note& note = *series[0].points[3].note;
  EXPECT_EQ(note.kind, NoteKind::runner_level_moved);
  EXPECT_NE(note.summary.find("the runner, not the code"), std::string::npos) << note.summary;
  EXPECT_EQ(to_string(NoteKind::runner_level_moved), "runner_level_moved");
}

TEST(HistoryTrendCpu, OneResultWithoutTheCpuClockKeepsTheSeriesOnTheWall) {
  std::vector<Result> results;
  for (int commit = 1; commit <= 6; ++commit) {
    Result result = at_commit(commit, {1000, 1010, 990});
    if (commit != 2) result.cold_module_cpu_ms = summarize({990, 1000, 985});
    results.push_back(result);
  }
  EXPECT_EQ(build_series(results)[0].level_clock, LevelClock::cold_module_ms);
}

}  // namespace
}  // namespace wcp::history

namespace wcp::history {
namespace {

// Issue 64: a command measured with --cuda-arch gets, beside its own series, one series per arch
// of its CUDA build's CPU time, with the same step rule (a level three commits hold).
TEST(HistoryTrend, EachCudaArchIsASeriesOfItsOwnWithItsLevels) {
  std::vector<Result> results;
  for (int commit = 1; commit <= 6; ++commit) {
    // Kernel code edited at commit 4 (a new hash, the same structure): its CUDA build grew, the
    // CPU build's time did not. The same identities at another level would be the runner's.
    Result result = at_commit(commit, {1000, 1010, 990}, {commit <= 3 ? "__main__ 1111111" : "__main__ 2222222"});
    const double cuda = commit <= 3 ? 6400.0 : 9400.0;
    result.cuda_compile_cpu_ms[86] = *summarize({cuda - 20, cuda, cuda + 20});
    results.push_back(std::move(result));
  }
  const auto series = build_series(results);
  ASSERT_EQ(series.size(), 2U);
  EXPECT_EQ(series[0].name, "app");
  EXPECT_EQ(series[0].cuda_arch, 0);
  EXPECT_TRUE(step_commits(series[0]).empty());
  EXPECT_EQ(series[1].name, "app · CUDA sm_86");
  EXPECT_EQ(series[1].cuda_arch, 86);
  EXPECT_EQ(series[1].level_clock, LevelClock::cuda_compile_cpu_ms);
  EXPECT_EQ(step_commits(series[1]), std::vector<int>{4});
  EXPECT_NE(series[1].points[3].step->summary.find("CUDA compile CPU +3.0 s"), std::string::npos)
      << series[1].points[3].step->summary;
  // Selecting the command by name keeps its CUDA series.
  EXPECT_EQ(build_series(results, "app").size(), 2U);
}

}  // namespace
}  // namespace wcp::history
