#include "history/sqlite_store.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "errors.h"
#include "history/history_schema.h"
#include "history/result_columns.h"

namespace wcp::history {
namespace {

// Long enough for another writer's append (milliseconds) and for a reader to finish; a file
// held locked beyond this is reported, not waited on forever.
constexpr int kBusyTimeoutMs = 30'000;

[[noreturn]] void refuse(const std::filesystem::path& path, const std::string& why) {
  throw HistoryError(fmt::format("history {}: {}; it was left as it was", path.string(), why));
}

int single_int(SQLite::Database& database, const char* query) {
  SQLite::Statement statement(database, query);
  return statement.executeStep() ? statement.getColumn(0).getInt() : 0;
}

// Everything that decides whether a file may be used, through a read-only connection so that a
// refused file is never touched (not even a journal mode written into its header).
void check_existing_file(const std::filesystem::path& path) {
  try {
    SQLite::Database database(path.string(), SQLite::OPEN_READONLY);
    database.setBusyTimeout(kBusyTimeoutMs);
    // One read transaction, so the three answers come from one snapshot: read one by one, a
    // first writer creating the history between them made an empty file look like someone
    // else's database (its tables there, its application id not yet).
    database.exec("BEGIN");
    const int application_id = single_int(database, "PRAGMA application_id");
    const int version = single_int(database, "PRAGMA user_version");
    const int tables = single_int(database, "SELECT count(*) FROM sqlite_master");
    if (application_id != kHistoryApplicationId) {
      if (tables > 0 || application_id != 0 || version != 0) {
        refuse(path, "this is an SQLite database but not a warp-compile-probe history");
      }
      return;  // an empty database: becomes a history
    }
    if (version > kHistorySchemaVersion) {
      refuse(path, fmt::format("written by a newer warp-compile-probe (history schema {}; this one reads up to {})",
                               version, kHistorySchemaVersion));
    }
    if (version < 1) refuse(path, "the history schema version is missing");
    SQLite::Statement check(database, "PRAGMA quick_check");
    if (!check.executeStep() || check.getColumn(0).getString() != "ok") {
      refuse(path, "the database is damaged (" + check.getColumn(0).getString() + ")");
    }
  } catch (const SQLite::Exception& error) {
    refuse(path, std::string("not a readable history (") + error.what() + ")");
  }
}

void bind_cell(SQLite::Statement& statement, int index, const Cell& cell) {
  if (const auto* number = std::get_if<std::int64_t>(&cell)) {
    statement.bind(index, *number);
  } else if (const auto* text = std::get_if<std::string>(&cell)) {
    statement.bind(index, *text);
  } else {
    statement.bind(index);
  }
}

Cell cell_from(const SQLite::Column& column) {
  if (column.isNull()) return std::monostate{};
  if (column.isInteger()) return column.getInt64();
  return column.getString();
}

}  // namespace

SqliteHistoryStore::SqliteHistoryStore(const std::filesystem::path& path, Mode mode) : path_(path) {
  std::error_code error;
  const bool exists = std::filesystem::exists(path, error);
  if (exists && !std::filesystem::is_regular_file(path, error)) refuse(path, "this is not a regular file");
  if (!exists && mode == Mode::read) throw UsageError("history " + path.string() + " does not exist");
  if (!exists && !std::filesystem::is_directory(path.parent_path().empty() ? "." : path.parent_path(), error)) {
    throw UsageError("history " + path.string() + ": its folder does not exist");
  }
  if (exists && std::filesystem::file_size(path, error) > 0) check_existing_file(path);

  try {
    if (mode == Mode::read) {
      database_ = std::make_unique<SQLite::Database>(path.string(), SQLite::OPEN_READONLY);
      database_->setBusyTimeout(kBusyTimeoutMs);
      version_ = single_int(*database_, "PRAGMA user_version");
      return;
    }
    database_ = std::make_unique<SQLite::Database>(path.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    database_->setBusyTimeout(kBusyTimeoutMs);
    database_->exec("PRAGMA journal_mode = WAL");
    // Creation and migration happen under the write lock, so concurrent first writers agree.
    SQLite::Transaction transaction(*database_, SQLite::TransactionBehavior::IMMEDIATE);
    version_ = single_int(*database_, "PRAGMA user_version");
    if (version_ == 0) {
      for (const auto& statement : sqlite_create_statements(kHistorySchemaVersion)) database_->exec(statement);
    } else {
      for (int from = version_; from < kHistorySchemaVersion; ++from) {
        for (const auto& statement : migration_statements(from)) database_->exec(statement);
      }
      for (const auto& statement : sqlite_version_statements(kHistorySchemaVersion)) database_->exec(statement);
    }
    transaction.commit();
    version_ = kHistorySchemaVersion;
  } catch (const SQLite::Exception& failure) {
    refuse(path, std::string("cannot be opened (") + failure.what() + ")");
  }
}

SqliteHistoryStore::~SqliteHistoryStore() = default;

std::int64_t SqliteHistoryStore::insert(const Result& result) {
  const auto columns = result_columns();
  std::string placeholders;
  for (std::size_t index = 0; index < columns.size(); ++index) placeholders += index == 0 ? "?" : ", ?";
  SQLite::Statement statement(*database_,
                              fmt::format("INSERT INTO results({}) VALUES ({})", insert_column_list(), placeholders));
  const auto cells = cells_of(result);
  for (std::size_t index = 0; index < cells.size(); ++index) {
    bind_cell(statement, static_cast<int>(index) + 1, cells[index]);
  }
  statement.exec();
  return database_->getLastInsertRowid();
}

std::int64_t SqliteHistoryStore::append(const Result& result) {
  return append_all({result}).front();
}

std::vector<std::int64_t> SqliteHistoryStore::append_all(const std::vector<Result>& results) {
  try {
    SQLite::Transaction transaction(*database_, SQLite::TransactionBehavior::IMMEDIATE);
    std::vector<std::int64_t> ids;
    for (const auto& result : results) ids.push_back(insert(result));
    transaction.commit();
    return ids;
  } catch (const SQLite::Exception& failure) {
    throw HistoryError(fmt::format("history {}: the result could not be stored ({})", path_.string(), failure.what()));
  }
}

std::vector<Result> SqliteHistoryStore::results() const {
  // A file of an older version is read as it is (reading never migrates): its missing columns
  // read as not recorded.
  const std::string query = fmt::format("SELECT {} FROM results ORDER BY id", select_column_list(version_));
  std::vector<Result> results;
  try {
    SQLite::Statement select(*database_, query);
    const int count = select.getColumnCount();
    while (select.executeStep()) {
      std::vector<Cell> cells;
      for (int column = 1; column < count; ++column) cells.push_back(cell_from(select.getColumn(column)));
      results.push_back(result_from_cells(select.getColumn(0).getInt64(), cells));
    }
  } catch (const SQLite::Exception& failure) {
    throw HistoryError(fmt::format("history {}: cannot be read ({})", path_.string(), failure.what()));
  } catch (const nlohmann::json::exception& failure) {
    throw HistoryError(fmt::format("history {}: a stored result is not valid ({})", path_.string(), failure.what()));
  }
  return results;
}

}  // namespace wcp::history
