// The history file: what is stored reads back the same (missing stays missing), an older
// layout is migrated, and a file that is not a readable history is refused and left byte for
// byte as it was.
#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "errors.h"
#include "history/history_schema.h"
#include "history/sqlite_store.h"
#include "run/scratch_dir.h"

namespace wcp::history {
namespace {

namespace fs = std::filesystem;

Result full_result() {
  Result result;
  result.recorded_at = "2026-12-01T09:00:00Z";
  result.source = Source::check;
  result.machine = {"ci-7", "AMD EPYC 9654", "NVIDIA H200", "570.86.15", "1.19.0", "12.8", ""};
  result.commit = Commit{std::string(40, 'a'), true};
  result.name = "app";
  result.argv = {"python", "app.py", "--size", "8"};
  result.cwd = "/repo";
  result.samples = 3;
  result.failed_samples = 1;
  result.cold_module_ms = Summary{1200.0, 15.0, {1185.0, 1200.0}, 2};
  result.cold_wall_ms = Summary{4000.0, 30.0, {3970.0, 4000.0}, 2};
  result.compile_elapsed_ms = Summary{2500.0, std::nullopt, {}, 2};
  result.cold_units = Summary{3.5, 0.1, {3.4, 3.6}, 2};
  result.reference = "warp-cpu/pch/4x2-kernel-modules/v1";
  result.identities = 2;
  result.modules = 1;
  result.compiled_events = 2;
  result.identity_set = std::vector<std::string>{"__main__ 1111111", "__main__ 2222222"};
  result.rebuilt_modules = std::vector<ModuleBuilds>{{"__main__", 2}};
  result.warm_compiles = 1;
  result.lto_artifacts = 4;
  result.verdict = "fail";
  result.machine.machine_class = "gh-ubuntu-4core";
  result.branch = "main";
  result.cuda_compile_cpu_ms[86] = Summary{6374.2, 66.4, {6307.8, 6440.6}, 2};  // schema 7
  return result;
}

std::string bytes_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

TEST(HistoryStore, ReadsBackWhatItStored) {
  const ScratchDir dir;
  const auto path = dir.path() / "history.sqlite";
  Result stored = full_result();
  {
    SqliteHistoryStore store(path, HistoryStore::Mode::append);
    stored.id = store.append(stored);
  }
  const SqliteHistoryStore store(path, HistoryStore::Mode::read);
  const auto results = store.results();
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0], stored);
  EXPECT_EQ(store.schema_version(), kHistorySchemaVersion);
}

TEST(HistoryStore, MissingStaysMissing) {
  const ScratchDir dir;
  const auto path = dir.path() / "history.sqlite";
  Result failed;
  failed.recorded_at = "2026-12-01T09:00:00Z";
  failed.name = "app";
  failed.argv = {"python", "app.py"};
  failed.samples = 2;
  failed.failed_samples = 2;  // every sample failed: nothing was measured
  {
    SqliteHistoryStore store(path, HistoryStore::Mode::append);
    failed.id = store.append(failed);
  }
  const auto results = SqliteHistoryStore(path, HistoryStore::Mode::read).results();
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0], failed);
  EXPECT_FALSE(results[0].cold_module_ms.has_value());
  EXPECT_FALSE(results[0].identities.has_value());
  EXPECT_FALSE(results[0].identity_set.has_value());
  EXPECT_FALSE(results[0].commit.has_value());
}

// A file of layout 1, written the way version 1 wrote it.
void write_version1_file(const fs::path& path) {
  SQLite::Database database(path.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
  for (const auto& statement : sqlite_create_statements(1)) database.exec(statement);
  database.exec(
      "INSERT INTO results(recorded_at, source, host, cpu_model, gpu, driver, warp_version, cuda_toolkit, commit_sha, "
      "commit_dirty, name, argv, cwd, samples, failed_samples, cold_module_ms, identities, modules, compiled_events, "
      "identity_set, verdict) VALUES ('2026-11-01T10:00:00Z', 'measure', 'ci-7', 'cpu', '', '', '1.19.0', '', "
      "'0123456789012345678901234567890123456789', 0, 'app', '[\"python\",\"app.py\"]', '/repo', 1, 0, "
      "'{\"median\":900.0,\"mad\":0.0,\"n\":1,\"values\":[900.0]}', 1, 1, 1, '[\"__main__ 1111111\"]', '')");
}

TEST(HistoryStore, MigratesVersion1WhenAppending) {
  const ScratchDir dir;
  const auto path = dir.path() / "history.sqlite";
  write_version1_file(path);
  {
    SqliteHistoryStore store(path, HistoryStore::Mode::append);
    EXPECT_EQ(store.schema_version(), kHistorySchemaVersion);
    store.append(full_result());
  }
  {
    SQLite::Database database(path.string());
    EXPECT_EQ(database.execAndGet("PRAGMA user_version").getInt(), kHistorySchemaVersion);
  }
  const auto results = SqliteHistoryStore(path, HistoryStore::Mode::read).results();
  ASSERT_EQ(results.size(), 2u);
  // The migrated result keeps everything it had; what version 1 never recorded reads as absent.
  EXPECT_EQ(results[0].cold_module_ms->median, 900.0);
  EXPECT_EQ(results[0].identity_set, std::vector<std::string>{"__main__ 1111111"});
  EXPECT_FALSE(results[0].rebuilt_modules.has_value());
  EXPECT_FALSE(results[0].cold_units.has_value());
  EXPECT_FALSE(results[0].warm_compiles.has_value());
  EXPECT_EQ(results[1].rebuilt_modules, full_result().rebuilt_modules);
  EXPECT_EQ(results[1].lto_artifacts, 4u);
}

// A file of layout 2, written the way version 2 wrote it: one result with rebuilt modules.
void write_version2_file(const fs::path& path) {
  write_version1_file(path);
  SQLite::Database database(path.string(), SQLite::OPEN_READWRITE);
  for (const auto& statement : migration_statements(1)) database.exec(statement);
  database.exec("PRAGMA user_version = 2");
  database.exec("UPDATE results SET rebuilt_modules = '[{\"module\":\"__main__\",\"builds\":2}]'");
}

TEST(HistoryStore, MigratesVersion2WhenAppendingAndReadsItAsItIs) {
  const ScratchDir dir;
  const auto path = dir.path() / "history.sqlite";
  write_version2_file(path);
  {
    const auto before = bytes_of(path);
    const SqliteHistoryStore store(path, HistoryStore::Mode::read);
    EXPECT_EQ(store.schema_version(), 2);
    const auto results = store.results();
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].rebuilt_modules, (std::vector<ModuleBuilds>{{"__main__", 2}}));
    EXPECT_FALSE(results[0].warm_compiles.has_value());  // not recorded, not 0
    EXPECT_FALSE(results[0].lto_artifacts.has_value());
    EXPECT_EQ(bytes_of(path), before);
  }
  {
    SqliteHistoryStore store(path, HistoryStore::Mode::append);
    EXPECT_EQ(store.schema_version(), kHistorySchemaVersion);
    store.append(full_result());
  }
  const auto results = SqliteHistoryStore(path, HistoryStore::Mode::read).results();
  ASSERT_EQ(results.size(), 2u);
  EXPECT_FALSE(results[0].warm_compiles.has_value());
  EXPECT_EQ(results[0].rebuilt_modules, (std::vector<ModuleBuilds>{{"__main__", 2}}));
  EXPECT_EQ(results[1].warm_compiles, 1u);
  EXPECT_EQ(results[1].lto_artifacts, 4u);
}

TEST(HistoryStore, ReadingAVersion1FileDoesNotMigrateIt) {
  const ScratchDir dir;
  const auto path = dir.path() / "history.sqlite";
  write_version1_file(path);
  const auto before = bytes_of(path);
  const SqliteHistoryStore store(path, HistoryStore::Mode::read);
  EXPECT_EQ(store.schema_version(), 1);
  const auto results = store.results();
  ASSERT_EQ(results.size(), 1u);
  EXPECT_FALSE(results[0].rebuilt_modules.has_value());
  EXPECT_EQ(bytes_of(path), before);
}

// Each way a file can fail to be a history: it is refused, and its bytes are unchanged (no
// journal mode written, no migration, no -wal file left beside it).
void expect_refused(const fs::path& path, const std::string& expected_words) {
  const auto before = bytes_of(path);
  for (const auto mode : {HistoryStore::Mode::append, HistoryStore::Mode::read}) {
    try {
      SqliteHistoryStore store(path, mode);
      ADD_FAILURE() << "opened " << path;
    } catch (const HistoryError& error) {
      EXPECT_NE(std::string(error.what()).find(expected_words), std::string::npos) << error.what();
      EXPECT_NE(std::string(error.what()).find("left as it was"), std::string::npos) << error.what();
    }
    EXPECT_EQ(bytes_of(path), before);
    EXPECT_FALSE(fs::exists(path.string() + "-wal"));
  }
}

TEST(HistoryStore, RefusesAFileThatIsNotADatabase) {
  const ScratchDir dir;
  const auto path = dir.path() / "history.sqlite";
  std::string text = "results,app,1200\n";
  while (text.size() < 8192) text += text;
  write_bytes(path, text);
  expect_refused(path, "not a readable history");
}

TEST(HistoryStore, RefusesADamagedHistory) {
  const ScratchDir dir;
  const auto path = dir.path() / "history.sqlite";
  {
    SqliteHistoryStore store(path, HistoryStore::Mode::append);
    for (int index = 0; index < 200; ++index) store.append(full_result());
  }
  {
    // Fold the WAL into the file, so the damage below is in the database itself.
    SQLite::Database database(path.string(), SQLite::OPEN_READWRITE);
    database.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    database.exec("PRAGMA journal_mode = DELETE");
  }
  auto bytes = bytes_of(path);
  ASSERT_GT(bytes.size(), 3u * 4096u);
  // Scribble over the second page (the table's first b-tree page): the header stays valid.
  for (std::size_t offset = 4096; offset < 2 * 4096; ++offset) bytes[offset] = static_cast<char>(0xA5);
  write_bytes(path, bytes);
  expect_refused(path, "history");
}

TEST(HistoryStore, RefusesAnotherProgramsDatabase) {
  const ScratchDir dir;
  const auto path = dir.path() / "other.sqlite";
  {
    SQLite::Database database(path.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    database.exec("CREATE TABLE invoices(id INTEGER PRIMARY KEY, total REAL)");
  }
  expect_refused(path, "not a warp-compile-probe history");
}

TEST(HistoryStore, RefusesANewerLayout) {
  const ScratchDir dir;
  const auto path = dir.path() / "history.sqlite";
  { SqliteHistoryStore store(path, HistoryStore::Mode::append); }
  {
    SQLite::Database database(path.string(), SQLite::OPEN_READWRITE);
    database.exec("PRAGMA journal_mode = DELETE");
    database.exec("PRAGMA user_version = 99");
  }
  expect_refused(path, "newer warp-compile-probe");
}

TEST(HistoryStore, AnEmptyFileBecomesAHistory) {
  const ScratchDir dir;
  const auto path = dir.path() / "history.sqlite";
  write_bytes(path, "");
  SqliteHistoryStore store(path, HistoryStore::Mode::append);
  store.append(full_result());
  EXPECT_EQ(store.results().size(), 1u);
}

TEST(HistoryStore, ReadingAMissingFileIsAUsageError) {
  const ScratchDir dir;
  EXPECT_THROW(SqliteHistoryStore(dir.path() / "none.sqlite", HistoryStore::Mode::read), UsageError);
  EXPECT_THROW(SqliteHistoryStore(dir.path() / "no-such-folder" / "h.sqlite", HistoryStore::Mode::append), UsageError);
  EXPECT_FALSE(fs::exists(dir.path() / "none.sqlite"));
}

}  // namespace
}  // namespace wcp::history
