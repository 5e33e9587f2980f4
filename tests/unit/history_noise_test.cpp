// The noise a history knows: the spread of earlier runs of the same command on the same machine,
// Warp, toolkit and tool, each run measured against runs of the same compiled code; and the
// tool version it needs, added in history schema 4 without losing older results.
#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "history/history_noise.h"
#include "history/history_schema.h"
#include "history/result_from_report.h"
#include "history/sqlite_store.h"
#include "run/scratch_dir.h"

namespace wcp::history {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kIdentitiesBefore{"__main__ 1111111"};
const std::vector<std::string> kIdentitiesAfter{"__main__ 2222222"};

Machine noise_test_machine() {
  return {"ci-7", "AMD EPYC 9654", "NVIDIA H200", "570.86.15", "1.19.0", "12.8", ""};
}

NoiseQuery noise_test_query() {
  return {{"python", "app.py"}, "/repo", noise_test_machine(), "0.9.0"};
}

// One measured run of the queried command with one sample per value.
Result earlier_run(std::vector<double> values, const std::string& recorded_at = "2026-12-02T10:00:00Z",
                   const std::vector<std::string>& identities = kIdentitiesBefore) {
  Result result;
  result.recorded_at = recorded_at;
  result.machine = noise_test_machine();
  result.argv = {"python", "app.py"};
  result.cwd = "/repo";
  result.tool_version = "0.9.0";
  result.samples = static_cast<int>(values.size());
  result.cold_module_ms = summarize(std::move(values));
  result.identity_set = identities;
  return result;
}

// Five runs of one program whose ratios to their median (100) are 1.00, 1.02, 0.98, 1.04, 0.95:
// absolute deviations 0, .02, .02, .04, .05, so the relative MAD is 0.02.
std::vector<Result> five_runs_two_percent_apart() {
  return {earlier_run({100.0}, "2026-12-02T10:00:00Z"), earlier_run({102.0}, "2026-12-02T11:00:00Z"),
          earlier_run({98.0}, "2026-12-03T10:00:00Z"), earlier_run({104.0}, "2026-12-03T12:00:00Z"),
          earlier_run({95.0}, "2026-12-04T09:00:00Z")};
}

TEST(HistoryNoise, FiveRunsOfOneProgramGiveTheirRelativeMad) {
  const auto noise = noise_from_history(five_runs_two_percent_apart(), noise_test_query());
  ASSERT_TRUE(noise.has_value());
  EXPECT_EQ(noise->source, NoiseSource::history);
  ASSERT_TRUE(noise->relative_mad.has_value());
  EXPECT_NEAR(*noise->relative_mad, 0.02, 1e-12);
  EXPECT_EQ(noise->runs, 5u);
  EXPECT_EQ(noise->detail, "5 earlier runs of this command on this machine, 2026-12-02T10:00Z to 2026-12-04T09:00Z");
}

TEST(HistoryNoise, EachSampleOfARunCounts) {
  // Three runs of three samples: each sample is one cold run of the program.
  const std::vector<Result> results{earlier_run({100.0, 102.0, 98.0}), earlier_run({104.0, 95.0, 100.0}),
                                    earlier_run({100.0, 101.0, 99.0})};
  const auto noise = noise_from_history(results, noise_test_query());
  ASSERT_TRUE(noise.has_value());
  // Ratios to 100: deviations 0 ×3, .01 ×2, .02 ×2, .04, .05: the MAD is 0.01.
  EXPECT_NEAR(*noise->relative_mad, 0.01, 1e-12);
  EXPECT_EQ(noise->runs, 3u);
}

TEST(HistoryNoise, AMedianWithoutSamplesStandsForItsRun) {
  auto results = five_runs_two_percent_apart();
  results[1].cold_module_ms->values.clear();  // an imported report that kept only the median
  const auto noise = noise_from_history(results, noise_test_query());
  ASSERT_TRUE(noise.has_value());
  EXPECT_NEAR(*noise->relative_mad, 0.02, 1e-12);
  EXPECT_EQ(noise->runs, 5u);
}

TEST(HistoryNoise, RunsOfAnotherCommandMachineOrVersionAreLeftOut) {
  auto results = five_runs_two_percent_apart();
  // Each differs from the query in one thing, and is far off: pooled, it would double the MAD.
  const auto far_off = [] { return earlier_run({400.0}); };
  auto other_host = far_off();
  other_host.machine.host = "ci-8";
  auto other_gpu = far_off();
  other_gpu.machine.gpu = "NVIDIA A100";
  auto other_driver = far_off();
  other_driver.machine.driver = "550.54.14";
  auto other_warp = far_off();
  other_warp.machine.warp_version = "1.18.0";
  auto unknown_warp = far_off();
  unknown_warp.machine.warp_version = "";
  auto other_toolkit = far_off();
  other_toolkit.machine.cuda_toolkit = "12.4";
  auto other_tool = far_off();
  other_tool.tool_version = "0.8.0";
  auto unknown_tool = far_off();  // recorded before schema 4
  unknown_tool.tool_version = "";
  auto other_argv = far_off();
  other_argv.argv = {"python", "app.py", "--size", "8"};
  auto other_cwd = far_off();
  other_cwd.cwd = "/other-checkout";
  for (auto* result : {&other_host, &other_gpu, &other_driver, &other_warp, &unknown_warp, &other_toolkit, &other_tool,
                       &unknown_tool, &other_argv, &other_cwd}) {
    results.push_back(*result);
  }
  const auto noise = noise_from_history(results, noise_test_query());
  ASSERT_TRUE(noise.has_value());
  EXPECT_NEAR(*noise->relative_mad, 0.02, 1e-12);
  EXPECT_EQ(noise->runs, 5u);
}

TEST(HistoryNoise, AnUnknownVersionInTheQueryMatchesNothing) {
  auto unknown_warp = noise_test_query();
  unknown_warp.machine.warp_version = "";
  auto unknown_tool = noise_test_query();
  unknown_tool.tool_version = "";
  auto results = five_runs_two_percent_apart();
  for (auto& result : results) {
    result.machine.warp_version = "";
    result.tool_version = "";
  }
  EXPECT_FALSE(noise_from_history(results, unknown_warp).has_value());
  EXPECT_FALSE(noise_from_history(results, unknown_tool).has_value());
}

TEST(HistoryNoise, FewerThanThreeRunsMeasureNoNoise) {
  // Six samples, but from two runs: the spread between runs made at different times is unseen.
  const std::vector<Result> results{earlier_run({100.0, 102.0, 98.0}), earlier_run({104.0, 95.0, 100.0})};
  EXPECT_FALSE(noise_from_history(results, noise_test_query()).has_value());
  EXPECT_FALSE(noise_from_history({}, noise_test_query()).has_value());
}

TEST(HistoryNoise, ACodeChangeThatShiftedTheLevelIsNotNoise) {
  // Three runs before a change that made compiling 30 % slower, three after, each group with the
  // same 2 % spread. Pooled as one group their MAD would be about 15 %.
  const std::vector<Result> results{earlier_run({100.0}, "2026-12-02T10:00:00Z", kIdentitiesBefore),
                                    earlier_run({102.0}, "2026-12-02T11:00:00Z", kIdentitiesBefore),
                                    earlier_run({98.0}, "2026-12-02T12:00:00Z", kIdentitiesBefore),
                                    earlier_run({130.0}, "2026-12-03T10:00:00Z", kIdentitiesAfter),
                                    earlier_run({132.6}, "2026-12-03T11:00:00Z", kIdentitiesAfter),
                                    earlier_run({127.4}, "2026-12-03T12:00:00Z", kIdentitiesAfter)};
  const auto noise = noise_from_history(results, noise_test_query());
  ASSERT_TRUE(noise.has_value());
  EXPECT_NEAR(*noise->relative_mad, 0.02, 1e-9);
  EXPECT_EQ(noise->runs, 6u);
}

TEST(HistoryNoise, AGroupOfOneValueContributesNothing) {
  auto results = five_runs_two_percent_apart();
  results.push_back(earlier_run({400.0}, "2026-12-05T10:00:00Z", kIdentitiesAfter));  // alone with its code
  Result without_identities = earlier_run({500.0}, "2026-12-05T11:00:00Z");           // loads not observed
  without_identities.identity_set.reset();
  results.push_back(without_identities);
  const auto noise = noise_from_history(results, noise_test_query());
  ASSERT_TRUE(noise.has_value());
  EXPECT_NEAR(*noise->relative_mad, 0.02, 1e-12);
  EXPECT_EQ(noise->runs, 5u);
  EXPECT_NE(noise->detail.find("to 2026-12-04T09:00Z"), std::string::npos) << noise->detail;
}

TEST(HistoryNoise, FailedRunsAreSkipped) {
  Result failed = earlier_run({});
  failed.samples = 3;
  failed.failed_samples = 3;
  Result without_module_timers = earlier_run({});  // measured, but no module timer answered
  without_module_timers.samples = 1;
  ASSERT_FALSE(without_module_timers.cold_module_ms.has_value());

  auto results = five_runs_two_percent_apart();
  results.insert(results.begin() + 2, {failed, without_module_timers});
  const auto noise = noise_from_history(results, noise_test_query());
  ASSERT_TRUE(noise.has_value());
  EXPECT_NEAR(*noise->relative_mad, 0.02, 1e-12);
  EXPECT_EQ(noise->runs, 5u);

  const std::vector<Result> two_measured{earlier_run({100.0}), earlier_run({102.0}), failed, failed,
                                         without_module_timers};
  EXPECT_FALSE(noise_from_history(two_measured, noise_test_query()).has_value());
}

TEST(HistoryNoise, TheQueryTakesWhatTheReportKnows) {
  Report report;
  report.command = {"python", "app.py"};
  report.cwd = "/repo";
  report.warp_version = "1.19.0";
  report.instrumentation.cuda_toolkit_version = "12.8";
  report.tool_version = "0.9.0";
  auto machine = noise_test_machine();
  machine.warp_version = "";
  machine.cuda_toolkit = "";
  const auto filled = noise_query_for(report, machine);
  EXPECT_EQ(filled.argv, report.command);
  EXPECT_EQ(filled.cwd, "/repo");
  EXPECT_EQ(filled.machine, noise_test_machine());
  EXPECT_EQ(filled.tool_version, "0.9.0");

  // What the machine already knows is kept.
  machine.warp_version = "1.20.0";
  EXPECT_EQ(noise_query_for(report, machine).machine.warp_version, "1.20.0");
}

TEST(HistoryNoise, AStoredResultCarriesTheToolVersionOfItsReport) {
  Report report;
  report.tool_version = "0.9.0";
  EXPECT_EQ(result_from_report(report, {}).tool_version, "0.9.0");
}

TEST(HistoryNoise, FromAFile) {
  const ScratchDir dir;
  const auto path = dir.path() / "history.sqlite";
  EXPECT_FALSE(noise_from_history_at(HistoryLocation{HistoryLocation::Backend::sqlite, path, ""}, noise_test_query())
                   .has_value());  // not recorded yet
  EXPECT_FALSE(fs::exists(path));  // and asking did not create it
  {
    SqliteHistoryStore store(path, HistoryStore::Mode::append);
    for (const auto& result : five_runs_two_percent_apart()) store.append(result);
  }
  const auto noise =
      noise_from_history_at(HistoryLocation{HistoryLocation::Backend::sqlite, path, ""}, noise_test_query());
  ASSERT_TRUE(noise.has_value());
  EXPECT_NEAR(*noise->relative_mad, 0.02, 1e-12);
  EXPECT_EQ(noise->runs, 5u);
}

// A file of layout 3, written the way version 3 wrote it: one measured result.
void write_version3_file(const fs::path& path) {
  SQLite::Database database(path.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
  for (const auto& statement : sqlite_create_statements(3)) database.exec(statement);
  database.exec(
      "INSERT INTO results(recorded_at, source, host, cpu_model, gpu, driver, warp_version, cuda_toolkit, commit_sha, "
      "commit_dirty, name, argv, cwd, samples, failed_samples, cold_module_ms, identities, modules, compiled_events, "
      "identity_set, verdict, reference, warm_compiles, lto_artifacts) VALUES ('2026-11-01T10:00:00Z', 'measure', "
      "'ci-7', 'cpu', '', '', '1.19.0', '12.8', NULL, NULL, 'app', '[\"python\",\"app.py\"]', '/repo', 1, 0, "
      "'{\"median\":900.0,\"mad\":0.0,\"n\":1,\"values\":[900.0]}', 1, 1, 1, '[\"__main__ 1111111\"]', '', '', 0, "
      "0)");
}

TEST(HistorySchema, Version3IsReadAsItIsWithAnUnknownToolVersion) {
  const ScratchDir dir;
  const auto path = dir.path() / "history.sqlite";
  write_version3_file(path);
  const SqliteHistoryStore store(path, HistoryStore::Mode::read);
  EXPECT_EQ(store.schema_version(), 3);
  const auto results = store.results();
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].tool_version, "");
  EXPECT_EQ(results[0].cold_module_ms->median, 900.0);
}

TEST(HistorySchema, MigratingVersion3To4KeepsItsResultsWithAnUnknownToolVersion) {
  const ScratchDir dir;
  const auto path = dir.path() / "history.sqlite";
  write_version3_file(path);
  Result current = earlier_run({1000.0});
  {
    SqliteHistoryStore store(path, HistoryStore::Mode::append);
    EXPECT_EQ(store.schema_version(), kHistorySchemaVersion);
    store.append(current);
  }
  {
    SQLite::Database database(path.string());
    EXPECT_EQ(database.execAndGet("PRAGMA user_version").getInt(), kHistorySchemaVersion);
  }
  const SqliteHistoryStore store(path, HistoryStore::Mode::read);
  EXPECT_EQ(store.schema_version(), kHistorySchemaVersion);
  const auto results = store.results();
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].tool_version, "");  // unknown, never guessed
  EXPECT_EQ(results[0].argv, (std::vector<std::string>{"python", "app.py"}));
  EXPECT_EQ(results[0].cold_module_ms->median, 900.0);
  EXPECT_EQ(results[0].identity_set, kIdentitiesBefore);
  EXPECT_EQ(results[0].warm_compiles, 0u);
  EXPECT_FALSE(results[0].cold_module_cpu_ms);  // not recorded then: no CPU noise from it
  EXPECT_EQ(results[1].tool_version, "0.9.0");
  current.id = results[1].id;
  EXPECT_EQ(results[1], current);
}

TEST(HistorySchema, AFreshFileIsOfTheCurrentLayout) {
  const ScratchDir dir;
  const auto path = dir.path() / "history.sqlite";
  SQLite::Database database(path.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
  for (const auto& statement : sqlite_create_statements(kHistorySchemaVersion)) database.exec(statement);
  EXPECT_EQ(database.execAndGet("PRAGMA user_version").getInt(), 7);
  EXPECT_EQ(
      database.execAndGet("SELECT count(*) FROM pragma_table_info('results') WHERE name = 'tool_version'").getInt(), 1);
  EXPECT_EQ(database.execAndGet("SELECT count(*) FROM pragma_table_info('results') WHERE name = 'cold_module_cpu_ms'")
                .getInt(),
            1);
  for (const auto* column : {"machine_class", "branch"}) {
    EXPECT_EQ(
        database
            .execAndGet(std::string("SELECT count(*) FROM pragma_table_info('results') WHERE name = '") + column + "'")
            .getInt(),
        1)
        << column;
  }
}

}  // namespace
}  // namespace wcp::history
