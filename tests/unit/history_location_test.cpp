// Where a history lives (history/history_location.h), the runner class
// (history/machine_class.h), and the one column table both backends share
// (history/result_columns.h).
#include <gtest/gtest.h>

#include "errors.h"
#include "history/history_location.h"
#include "history/history_schema.h"
#include "history/machine_class.h"
#include "history/result_columns.h"

namespace wcp::history {
namespace {

EnvironmentLookup environment_of(std::map<std::string, std::string> variables) {
  return [variables](const std::string& name) -> std::optional<std::string> {
    const auto found = variables.find(name);
    if (found == variables.end()) return std::nullopt;
    return found->second;
  };
}

TEST(HistoryLocation, APathOrSqlitePathIsAFile) {
  EXPECT_EQ(parse_history_location("ci/history.sqlite").file, "ci/history.sqlite");
  EXPECT_EQ(parse_history_location("sqlite:/tmp/h.sqlite").file, "/tmp/h.sqlite");
  EXPECT_EQ(parse_history_location("sqlite:/tmp/h.sqlite").backend, HistoryLocation::Backend::sqlite);
}

TEST(HistoryLocation, APostgresqlUrlIsADatabase) {
  for (const auto* url : {"postgresql://ci@db.example:5432/wcp", "postgres:///wcp?host=/tmp/pg"}) {
    const auto location = parse_history_location(url);
    EXPECT_EQ(location.backend, HistoryLocation::Backend::postgresql) << url;
    EXPECT_EQ(location.url, url);
  }
}

TEST(HistoryLocation, RefusesOtherSchemesAndEmptyPaths) {
  EXPECT_THROW(parse_history_location("mysql://db/wcp"), UsageError);
  EXPECT_THROW(parse_history_location("sqlite:"), UsageError);
}

TEST(HistoryLocation, TheOptionWinsOverTheEnvironment) {
  const auto environment = environment_of({{"WCP_HISTORY", "postgresql://ci@db/wcp"}});
  EXPECT_EQ(history_location("local.sqlite", environment)->file, "local.sqlite");
  EXPECT_EQ(history_location("", environment)->backend, HistoryLocation::Backend::postgresql);
  EXPECT_FALSE(history_location("", environment_of({})).has_value());
}

TEST(HistoryLocation, ThePasswordIsNeverShown) {
  EXPECT_EQ(without_password("postgresql://ci:s3cret@db.example:5432/wcp"), "postgresql://ci@db.example:5432/wcp");
  EXPECT_EQ(without_password("postgresql://ci:p@ss@db/wcp?sslmode=require&password=other&application_name=x"),
            "postgresql://ci@db/wcp?sslmode=require&application_name=x");
  EXPECT_EQ(without_password("postgresql:///wcp?password=x"), "postgresql:///wcp");
  EXPECT_EQ(without_password("postgresql://db/wcp"), "postgresql://db/wcp");
  EXPECT_EQ(password_in("postgresql://ci:p@ss@db/wcp"), "p@ss");
  EXPECT_EQ(password_in("postgresql://ci@db/wcp"), "");
  const auto location = parse_history_location("postgresql://ci:s3cret@db/wcp");
  EXPECT_EQ(location.shown().find("s3cret"), std::string::npos);
}

TEST(MachineClass, FingerprintIsStableAcrossRunnersOfOneType) {
  const MachineTraits one{"Intel Xeon Gold 6338", 4, 16ull * 1024 * 1024 * 1024 - 180ull * 1024 * 1024, ""};
  const MachineTraits two{"Intel Xeon Gold 6338", 4, 16ull * 1024 * 1024 * 1024 - 40ull * 1024 * 1024, ""};
  EXPECT_EQ(fingerprint_class(one), fingerprint_class(two));
  EXPECT_EQ(fingerprint_class(one), "Intel Xeon Gold 6338 · 4 cores · 16 GiB · no GPU");
  MachineTraits more_cores = one;
  more_cores.cpu_cores = 8;
  EXPECT_NE(fingerprint_class(one), fingerprint_class(more_cores));
  MachineTraits with_gpu = one;
  with_gpu.gpu = "NVIDIA H100";
  EXPECT_NE(fingerprint_class(one), fingerprint_class(with_gpu));
}

TEST(MachineClass, ANamedClassWins) {
  const MachineTraits traits{"cpu", 2, std::nullopt, ""};
  EXPECT_EQ(choose_machine_class("big", environment_of({{"WCP_MACHINE_CLASS", "small"}}), traits), "big");
  EXPECT_EQ(choose_machine_class("", environment_of({{"WCP_MACHINE_CLASS", "small"}}), traits), "small");
  EXPECT_EQ(choose_machine_class("", environment_of({}), traits), "cpu · 2 cores · memory unknown · no GPU");
}

TEST(MachineClass, OneClassAcrossHostsElseTheHost) {
  Machine a{"runner-1", "cpu", "", "", "1.19.0", "", "gh-4core"};
  Machine b{"runner-2", "cpu", "", "", "1.19.0", "", "gh-4core"};
  EXPECT_TRUE(a.same_hardware(b));
  b.machine_class = "gh-8core";
  EXPECT_FALSE(a.same_hardware(b));
  // Results from before classes are matched by host, CPU and GPU.
  b.machine_class = "";
  EXPECT_FALSE(a.same_hardware(b));
  b.host = "runner-1";
  EXPECT_TRUE(a.same_hardware(b));
}

TEST(ResultColumns, EveryFieldSurvivesTheCells) {
  Result result;
  result.recorded_at = "2026-12-06T12:00:00Z";
  result.source = Source::ab_candidate;
  result.machine = {"h", "cpu", "gpu", "550", "1.19.0", "12.8", "class"};
  result.commit = Commit{"abc", true};
  result.name = "app";
  result.argv = {"python", "app.py"};
  result.cwd = "/repo";
  result.samples = 3;
  result.failed_samples = 1;
  result.cold_module_ms = Summary{10.0, 1.0, {9.0, 10.0, 11.0}, 3};
  result.cold_module_cpu_ms = Summary{9.0, std::nullopt, {}, 1};
  result.identities = 7;
  result.identity_set = std::vector<std::string>{"m 1"};
  result.rebuilt_modules = std::vector<ModuleBuilds>{{"m", 2}};
  result.lto_artifacts = 0;
  result.verdict = "pass";
  result.tool_version = "0.1.0";
  result.branch = "feature/x";
  result.id = 42;
  const auto cells = cells_of(result);
  ASSERT_EQ(cells.size(), result_columns().size());
  EXPECT_EQ(result_from_cells(42, cells), result);
  // Missing stays missing: a count never recorded is NULL, not 0.
  EXPECT_TRUE(std::holds_alternative<std::monostate>(cells[19 + 8]));  // warm_compiles
}

TEST(ResultColumns, AnOlderLayoutReadsTheNewColumnsAsNotRecorded) {
  const auto list = select_column_list(5);
  EXPECT_NE(list.find("cold_module_cpu_ms"), std::string::npos);
  EXPECT_EQ(list.find("machine_class"), std::string::npos);
  EXPECT_EQ(list.find("branch"), std::string::npos);
  EXPECT_NE(select_column_list(kHistorySchemaVersion).find("machine_class"), std::string::npos);
}

TEST(HistorySchema, PostgresqlTakesAnIdentityColumnAndTheSameMigrations) {
  const auto statements = create_statements(kHistorySchemaVersion, Dialect::postgresql);
  EXPECT_NE(statements.front().find("GENERATED BY DEFAULT AS IDENTITY"), std::string::npos);
  for (const auto& statement : statements) EXPECT_EQ(statement.find("PRAGMA"), std::string::npos) << statement;
}

}  // namespace
}  // namespace wcp::history
