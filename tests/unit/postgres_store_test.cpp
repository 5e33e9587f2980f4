// The PostgreSQL history against a real server (WCP_TEST_POSTGRES_URL, the throwaway cluster
// .ci/run starts with ci/postgres_cluster.sh); skipped, saying why, without one or in a build
// without libpqxx. Each test works in a schema of its own (search_path in the URL).
#include <gtest/gtest.h>

#include <cstdlib>
#include <pqxx/pqxx>
#include <random>

#include "errors.h"
#include "history/history_schema.h"
#include "history/history_store.h"
#include "history/postgres_store.h"

namespace wcp::history {
namespace {

class PostgresStore : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!postgresql_available()) GTEST_SKIP() << "this build has no PostgreSQL support";
    const char* url = std::getenv("WCP_TEST_POSTGRES_URL");
    if (url == nullptr || *url == '\0') GTEST_SKIP() << "WCP_TEST_POSTGRES_URL is unset (.ci/run starts a server)";
    server_ = url;
    schema_ = "wcp_unit_" + std::to_string(std::random_device{}());
    pqxx::connection connection(server_);
    pqxx::work work(connection);
    work.exec("CREATE SCHEMA " + schema_);
    work.commit();
    const std::string separator = server_.find('?') == std::string::npos ? "?" : "&";
    location_.backend = HistoryLocation::Backend::postgresql;
    location_.url = server_ + separator + "options=-csearch_path%3D" + schema_;
  }
  void TearDown() override {
    if (schema_.empty()) return;
    pqxx::connection connection(server_);
    pqxx::work work(connection);
    work.exec("DROP SCHEMA " + schema_ + " CASCADE");
    work.commit();
  }
  void exec(const std::string& statement) {
    pqxx::connection connection(location_.url);
    pqxx::work work(connection);
    work.exec(statement);
    work.commit();
  }

  std::string server_;
  std::string schema_;
  HistoryLocation location_;
};

Result a_result() {
  Result result;
  result.recorded_at = "2026-12-06T12:00:00Z";
  result.name = "app";
  result.argv = {"python", "app.py"};
  result.samples = 1;
  result.machine.machine_class = "gh-4core";
  result.branch = "main";
  result.cold_module_ms = Summary{100.0, 0.0, {100.0}, 1};
  return result;
}

TEST_F(PostgresStore, AFreshDatabaseBecomesAHistoryAndReadsBackWhatItStored) {
  const auto store = open_history(location_, HistoryStore::Mode::append);
  EXPECT_EQ(store->schema_version(), kHistorySchemaVersion);
  const auto id = store->append(a_result());
  auto stored = open_history(location_, HistoryStore::Mode::read)->results();
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0].id, id);
  stored[0].id = 0;
  EXPECT_EQ(stored[0], a_result());
}

TEST_F(PostgresStore, AnOlderLayoutIsMigratedWhenAppendingAndItsResultsKept) {
  // A database of layout 5, as a store of that version created it.
  for (const auto& statement : create_statements(5, Dialect::postgresql)) exec(statement);
  exec("CREATE TABLE wcp_history(application TEXT NOT NULL, version INTEGER NOT NULL)");
  exec("INSERT INTO wcp_history VALUES ('warp-compile-probe', 5)");
  exec(
      "INSERT INTO results(recorded_at, source, host, cpu_model, gpu, driver, warp_version, cuda_toolkit, name, "
      "argv, cwd, samples, failed_samples, verdict) VALUES ('2026-11-01T10:00:00Z', 'measure', 'ci-7', 'cpu', '', "
      "'', '1.19.0', '', 'old', '[\"python\",\"app.py\"]', '/repo', 1, 0, '')");
  EXPECT_EQ(open_history(location_, HistoryStore::Mode::read)->schema_version(), 5);  // reading never migrates
  const auto store = open_history(location_, HistoryStore::Mode::append);
  EXPECT_EQ(store->schema_version(), kHistorySchemaVersion);
  store->append(a_result());
  const auto results = open_history(location_, HistoryStore::Mode::read)->results();
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].name, "old");
  EXPECT_EQ(results[0].machine.machine_class, "");  // not recorded then: no class guessed
  EXPECT_FALSE(results[0].report_json.has_value());
  EXPECT_EQ(results[1].machine.machine_class, "gh-4core");
}

TEST_F(PostgresStore, ANewerLayoutIsRefusedAndLeftAsItWas) {
  for (const auto& statement : create_statements(kHistorySchemaVersion, Dialect::postgresql)) exec(statement);
  exec("CREATE TABLE wcp_history(application TEXT NOT NULL, version INTEGER NOT NULL)");
  exec("INSERT INTO wcp_history VALUES ('warp-compile-probe', " + std::to_string(kHistorySchemaVersion + 1) + ")");
  EXPECT_THROW(open_history(location_, HistoryStore::Mode::append), HistoryError);
  pqxx::connection connection(location_.url);
  pqxx::read_transaction read(connection);
  EXPECT_EQ(read.exec1("SELECT version FROM wcp_history")[0].as<int>(), kHistorySchemaVersion + 1);
}

}  // namespace
}  // namespace wcp::history
