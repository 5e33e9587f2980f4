// The CPU clock of module work (measure/module_cpu.h) and how the judge uses it
// (verdict/judge.h): threads summed, a process's children counted once however many of its
// loads overlap, missing never 0, and a verdict on the CPU clock only when both sides have it.
#include <gtest/gtest.h>

#include "codec/report_json.h"
#include "measure/module_cpu.h"
#include "report_fixtures.h"
#include "verdict/judge.h"

namespace wcp {
namespace {

ModuleEvent built(const std::string& name, std::optional<double> cpu_ms, int pid = 10,
                  std::optional<std::pair<double, double>> children = std::pair{0.0, 0.0},
                  LoadStatus status = LoadStatus::compiled) {
  ModuleEvent event = testing::compiled(name, "aaaaaaa", 1000.0);
  event.status = status;
  LoadDetail detail;
  detail.pid = pid;
  detail.cpu_ms = cpu_ms;
  detail.children_cpu_s = children;
  event.detail = detail;
  return event;
}

TEST(ModuleCpu, ThreadsAreSummedSoParallelBuildsAddUpToTheirWork) {
  // A parallel preload: three builds on three threads at once, each its own thread's CPU.
  const auto cpu = measure::module_cpu({built("a", 900.0), built("b", 1100.0), built("c", 1000.0)}, true);
  ASSERT_TRUE(cpu.ms);
  EXPECT_DOUBLE_EQ(*cpu.ms, 3000.0);
}

TEST(ModuleCpu, AChildsCpuIsCountedOnceWhenOverlappingLoadsOfOneProcessSawIt) {
  // Two loads of one process waited over the same child (its counter went 1.0 -> 1.5 s while
  // both were open); a third load of another process has its own counter.
  const auto cpu =
      measure::module_cpu({built("a", 100.0, 10, std::pair{1.0, 1.5}), built("b", 100.0, 10, std::pair{1.2, 1.5}),
                           built("c", 100.0, 11, std::pair{1.2, 1.5})},
                          true);
  ASSERT_TRUE(cpu.ms);
  EXPECT_DOUBLE_EQ(*cpu.ms, 300.0 + 500.0 + 300.0);
}

TEST(ModuleCpu, UnionLengthMergesOverlapsAndSkipsEmptyIntervals) {
  EXPECT_DOUBLE_EQ(measure::union_length({{0.0, 1.0}, {0.5, 2.0}, {3.0, 4.0}, {5.0, 5.0}, {7.0, 6.0}}), 3.0);
  EXPECT_DOUBLE_EQ(measure::union_length({}), 0.0);
}

TEST(ModuleCpu, OnlyCompiledLoadsCountForTheColdFigure) {
  const auto cpu = measure::module_cpu(
      {built("a", 700.0), built("cached", std::nullopt, 10, std::nullopt, LoadStatus::cached)}, true);
  ASSERT_TRUE(cpu.ms);
  EXPECT_DOUBLE_EQ(*cpu.ms, 700.0);
  // Every load counts for the warm figure, so the one without a clock makes it unavailable.
  EXPECT_FALSE(measure::module_cpu(
                   {built("a", 700.0), built("cached", std::nullopt, 10, std::nullopt, LoadStatus::cached)}, false)
                   .ms);
}

TEST(ModuleCpu, ALoadWithoutAClockMakesTheFigureUnavailableNeverZero) {
  const auto cpu = measure::module_cpu({built("a", 700.0), built("old_warp", std::nullopt)}, true);
  EXPECT_FALSE(cpu.ms);
  EXPECT_NE(cpu.unavailable.find("old_warp"), std::string::npos) << cpu.unavailable;
  ModuleEvent log_only = testing::compiled("logged", "bbbbbbb", 500.0);
  const auto from_log = measure::module_cpu({log_only}, true);
  EXPECT_FALSE(from_log.ms);
  EXPECT_NE(from_log.unavailable.find("Warp's log"), std::string::npos) << from_log.unavailable;
}

// clean_report's runs with the CPU clock: sample k's cold module CPU is cpu_ms[k].
Report with_cpu(Report report, const std::vector<double>& cpu_ms) {
  for (std::size_t i = 0; i < cpu_ms.size() && i < report.sample_results.size(); ++i)
    report.sample_results[i].cold_module_cpu_ms = cpu_ms[i];
  report.cold_module_cpu_ms = summarize(cpu_ms);
  return report;
}

// The same program with more kernel code: another module hash and more generated source, so the
// judge cannot read a rise as contention over the same work.
Report more_code(Report report) {
  report.module_events.front().hash = "bbbbbbb";
  report.cache.generated_source_bytes = 22'000;
  return report;
}

TEST(JudgeClock, BothSidesWithTheCpuClockAreJudgedOnItNotOnTheLoadedWall) {
  // The candidate ran on a busy runner: its wall doubled, its CPU moved 1 %.
  const Report baseline = with_cpu(testing::report_of_runs({1900, 1880, 1920}), {1850, 1860, 1840});
  const Report candidate = with_cpu(testing::report_of_runs({3900, 4000, 3800}), {1870, 1880, 1860});
  const auto judgement = verdict::judge(baseline, candidate);
  EXPECT_EQ(judgement.module_work.clock, verdict::Clock::module_cpu);
  EXPECT_NE(judgement.verdict, verdict::Verdict::regression) << judgement.reason;
  EXPECT_NE(judgement.reason.find("cold module CPU"), std::string::npos) << judgement.reason;
  EXPECT_NE(judgement.reason.find("1.85 s → 1.87 s"), std::string::npos) << judgement.reason;
  ASSERT_TRUE(judgement.module_wall);  // the wall is still reported beside it
  EXPECT_EQ(judgement.module_wall->direction, verdict::Direction::regressed);
}

TEST(JudgeClock, MoreCompileWorkShowsOnTheCpuClock) {
  const Report baseline = with_cpu(testing::report_of_runs({1900, 1880, 1920}), {1850, 1860, 1840});
  const Report candidate = more_code(with_cpu(testing::report_of_runs({4200, 4300, 4100}), {2120, 2140, 2100}));
  const auto judgement = verdict::judge(baseline, candidate);
  EXPECT_EQ(judgement.verdict, verdict::Verdict::regression) << judgement.reason;
  EXPECT_NE(judgement.reason.find("cold module CPU rose by 270.0 ms"), std::string::npos) << judgement.reason;
}

TEST(JudgeClock, AReportWithoutTheCpuClockIsJudgedOnTheWallAndSaysSo) {
  Report baseline = testing::report_of_runs({1900, 1880, 1920});
  baseline.module_cpu_unavailable = "the report predates the CPU clock (schema 12)";
  const Report candidate = more_code(with_cpu(testing::report_of_runs({2300, 2320, 2280}), {2200, 2210, 2190}));
  const auto judgement = verdict::judge(baseline, candidate);
  EXPECT_EQ(judgement.module_work.clock, verdict::Clock::module_work);
  EXPECT_FALSE(judgement.module_wall);
  EXPECT_EQ(judgement.verdict, verdict::Verdict::regression);
  ASSERT_FALSE(judgement.notes.empty());
  EXPECT_NE(judgement.notes.front().find("judged on the wall clock"), std::string::npos) << judgement.notes.front();
  EXPECT_NE(judgement.notes.front().find("schema 12"), std::string::npos) << judgement.notes.front();
}

TEST(JudgeClock, TheCpuClockTakesItsOwnPriorNoiseNeverTheWalls) {
  // One sample a side: no noise of their own. The wall's prior (load-inflated, 20 %) would hide a
  // 10 % rise; the CPU's own (1 %) shows it.
  const Report baseline = with_cpu(testing::report_of_runs({1900}), {1850});
  const Report candidate = more_code(with_cpu(testing::report_of_runs({2100}), {2035}));
  verdict::JudgeOptions options;
  options.prior_noise = Noise{NoiseSource::history, 0.20, 10, "wall history"};
  options.prior_cpu_noise = Noise{NoiseSource::history, 0.01, 10, "cpu history"};
  const auto judgement = verdict::judge(baseline, candidate, options);
  EXPECT_EQ(judgement.module_work.noise.detail, "cpu history");
  EXPECT_EQ(judgement.verdict, verdict::Verdict::regression) << judgement.reason;
  options.prior_cpu_noise.reset();  // no CPU history: the gross-change bound, not the wall's noise
  const auto without = verdict::judge(baseline, candidate, options);
  EXPECT_FALSE(without.module_work.noise.measured());
}

TEST(JudgeClock, WallClockOptionJudgesTheWallAndSaysItWasAsked) {
  const Report baseline = with_cpu(testing::report_of_runs({1900, 1880, 1920}), {1850, 1860, 1840});
  const Report candidate = with_cpu(testing::report_of_runs({3900, 4000, 3800}), {1870, 1880, 1860});
  verdict::JudgeOptions options;
  options.wall_clock = true;
  const auto judgement = verdict::judge(baseline, candidate, options);
  EXPECT_EQ(judgement.module_work.clock, verdict::Clock::module_work);
  EXPECT_NE(judgement.notes.front().find("--clock wall"), std::string::npos);
}

TEST(JudgeClock, PairedArmsArePairedOnTheCpuClock) {
  const Report baseline = with_cpu(testing::report_of_runs({1900, 3800, 1880}), {1850, 1860, 1840});
  const Report candidate = with_cpu(testing::report_of_runs({3900, 1900, 3800}), {2050, 2060, 2040});
  verdict::JudgeOptions options;
  options.paired = true;
  const auto judgement = verdict::judge(baseline, candidate, options);
  ASSERT_TRUE(judgement.module_work.paired);
  EXPECT_EQ(judgement.module_work.clock, verdict::Clock::module_cpu);
  EXPECT_DOUBLE_EQ(judgement.module_work.paired->median_delta, 200.0);
}

TEST(ReportJson, TheCpuClockRoundTripsAndAnOlderReportSaysItHasNone) {
  Report report = with_cpu(testing::report_of_runs({1900, 1880, 1920}), {1850, 1860, 1840});
  report.module_events.front().detail = LoadDetail{};
  report.module_events.front().detail->cpu_ms = 1850.0;
  report.module_events.front().detail->children_cpu_s = std::pair{0.25, 0.5};
  const Report back = report_from_json_text(report_to_json_text(report), "r.json");
  EXPECT_EQ(back.cold_module_cpu_ms, report.cold_module_cpu_ms);
  EXPECT_EQ(back.sample_results[1].cold_module_cpu_ms, 1860.0);
  EXPECT_EQ(back.module_events.front().detail->children_cpu_s, (std::pair{0.25, 0.5}));
  auto older = nlohmann::json::parse(report_to_json_text(testing::report_of_runs({1900})));
  older["schema_version"] = 12;
  older.erase("module_cpu_unavailable");
  const Report read = report_from_json_text(older.dump(), "old.json");
  EXPECT_FALSE(read.cold_module_cpu_ms);
  EXPECT_EQ(read.module_cpu_unavailable, "the report predates the CPU clock (schema 12)");
}

}  // namespace
}  // namespace wcp
