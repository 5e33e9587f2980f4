#include "history/history_store.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "errors.h"
#include "history/history_schema.h"

namespace wcp::history {
namespace {

using nlohmann::json;

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

json summary_json(const std::optional<Summary>& summary) {
  if (!summary) return nullptr;
  json out{{"median", summary->median}, {"n", summary->count}, {"values", summary->values}};
  out["mad"] = summary->mad ? json(*summary->mad) : json(nullptr);
  return out;
}

std::optional<Summary> summary_from(const SQLite::Column& column) {
  if (column.isNull()) return std::nullopt;
  const json in = json::parse(column.getString());
  Summary summary;
  summary.median = in.at("median").get<double>();
  if (!in.at("mad").is_null()) summary.mad = in.at("mad").get<double>();
  summary.values = in.at("values").get<std::vector<double>>();
  summary.count = in.at("n").get<std::size_t>();
  return summary;
}

template <typename Value>
void bind_optional(SQLite::Statement& statement, int index, const std::optional<Value>& value) {
  if (value) {
    statement.bind(index, static_cast<std::int64_t>(*value));
  } else {
    statement.bind(index);
  }
}

void bind_text_or_null(SQLite::Statement& statement, int index, const json& value) {
  if (value.is_null()) {
    statement.bind(index);
  } else {
    statement.bind(index, value.dump());
  }
}

std::optional<std::uint64_t> count_from(const SQLite::Column& column) {
  if (column.isNull()) return std::nullopt;
  return static_cast<std::uint64_t>(column.getInt64());
}

}  // namespace

HistoryStore::HistoryStore(const std::filesystem::path& path, Mode mode) : path_(path) {
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
      for (const auto& statement : create_statements(kHistorySchemaVersion)) database_->exec(statement);
    } else {
      for (int from = version_; from < kHistorySchemaVersion; ++from) {
        for (const auto& statement : migration_statements(from)) database_->exec(statement);
      }
    }
    transaction.commit();
    version_ = kHistorySchemaVersion;
  } catch (const SQLite::Exception& failure) {
    refuse(path, std::string("cannot be opened (") + failure.what() + ")");
  }
}

HistoryStore::~HistoryStore() = default;

std::int64_t HistoryStore::append(const Result& result) {
  try {
    SQLite::Transaction transaction(*database_, SQLite::TransactionBehavior::IMMEDIATE);
    SQLite::Statement insert(*database_, R"sql(
      INSERT INTO results(recorded_at, source, host, cpu_model, gpu, driver, warp_version, cuda_toolkit,
                          commit_sha, commit_dirty, name, argv, cwd, samples, failed_samples,
                          cold_module_ms, cold_wall_ms, warm_wall_ms, compile_elapsed_ms,
                          identities, modules, compiled_events, identity_set, verdict,
                          cold_units, reference, rebuilt_modules, warm_compiles, lto_artifacts, tool_version,
                          cold_module_cpu_ms)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?))sql");
    int index = 0;
    insert.bind(++index, result.recorded_at);
    insert.bind(++index, to_string(result.source));
    insert.bind(++index, result.machine.host);
    insert.bind(++index, result.machine.cpu_model);
    insert.bind(++index, result.machine.gpu);
    insert.bind(++index, result.machine.driver);
    insert.bind(++index, result.machine.warp_version);
    insert.bind(++index, result.machine.cuda_toolkit);
    if (result.commit) {
      insert.bind(++index, result.commit->sha);
      insert.bind(++index, result.commit->dirty ? 1 : 0);
    } else {
      insert.bind(++index);
      insert.bind(++index);
    }
    insert.bind(++index, result.name);
    insert.bind(++index, json(result.argv).dump());
    insert.bind(++index, result.cwd);
    insert.bind(++index, result.samples);
    insert.bind(++index, result.failed_samples);
    for (const auto* summary :
         {&result.cold_module_ms, &result.cold_wall_ms, &result.warm_wall_ms, &result.compile_elapsed_ms}) {
      bind_text_or_null(insert, ++index, summary_json(*summary));
    }
    bind_optional(insert, ++index, result.identities);
    bind_optional(insert, ++index, result.modules);
    bind_optional(insert, ++index, result.compiled_events);
    bind_text_or_null(insert, ++index, result.identity_set ? json(*result.identity_set) : json(nullptr));
    insert.bind(++index, result.verdict);
    bind_text_or_null(insert, ++index, summary_json(result.cold_units));
    insert.bind(++index, result.reference);
    json rebuilt = nullptr;
    if (result.rebuilt_modules) {
      rebuilt = json::array();
      for (const auto& module : *result.rebuilt_modules)
        rebuilt.push_back({{"module", module.name}, {"builds", module.builds}});
    }
    bind_text_or_null(insert, ++index, rebuilt);
    bind_optional(insert, ++index, result.warm_compiles);
    bind_optional(insert, ++index, result.lto_artifacts);
    insert.bind(++index, result.tool_version);
    bind_text_or_null(insert, ++index, summary_json(result.cold_module_cpu_ms));
    insert.exec();
    const std::int64_t id = database_->getLastInsertRowid();
    transaction.commit();
    return id;
  } catch (const SQLite::Exception& failure) {
    throw HistoryError(fmt::format("history {}: the result could not be stored ({})", path_.string(), failure.what()));
  }
}

std::vector<Result> HistoryStore::results() const {
  // A file of an older version is read as it is (reading never migrates): its missing columns
  // read as not recorded.
  const char* version2_columns = version_ >= 2 ? "cold_units, reference, rebuilt_modules" : "NULL, '', NULL";
  const char* version3_columns = version_ >= 3 ? "warm_compiles, lto_artifacts" : "NULL, NULL";
  const char* version4_columns = version_ >= 4 ? "tool_version" : "''";
  const char* version5_columns = version_ >= 5 ? "cold_module_cpu_ms" : "NULL";
  const std::string query = fmt::format(
      "SELECT id, recorded_at, source, host, cpu_model, gpu, driver, warp_version, cuda_toolkit, commit_sha, "
      "commit_dirty, name, argv, cwd, samples, failed_samples, cold_module_ms, cold_wall_ms, warm_wall_ms, "
      "compile_elapsed_ms, identities, modules, compiled_events, identity_set, verdict, {}, {}, {}, {} FROM results "
      "ORDER BY id",
      version2_columns, version3_columns, version4_columns, version5_columns);
  std::vector<Result> results;
  try {
    SQLite::Statement select(*database_, query);
    while (select.executeStep()) {
      Result result;
      int column = 0;
      result.id = select.getColumn(column++).getInt64();
      result.recorded_at = select.getColumn(column++).getString();
      result.source = source_from_string(select.getColumn(column++).getString()).value_or(Source::import);
      result.machine.host = select.getColumn(column++).getString();
      result.machine.cpu_model = select.getColumn(column++).getString();
      result.machine.gpu = select.getColumn(column++).getString();
      result.machine.driver = select.getColumn(column++).getString();
      result.machine.warp_version = select.getColumn(column++).getString();
      result.machine.cuda_toolkit = select.getColumn(column++).getString();
      const auto sha = select.getColumn(column++);
      const auto dirty = select.getColumn(column++);
      if (!sha.isNull()) result.commit = Commit{sha.getString(), dirty.getInt() != 0};
      result.name = select.getColumn(column++).getString();
      result.argv = json::parse(select.getColumn(column++).getString()).get<std::vector<std::string>>();
      result.cwd = select.getColumn(column++).getString();
      result.samples = select.getColumn(column++).getInt();
      result.failed_samples = select.getColumn(column++).getInt();
      result.cold_module_ms = summary_from(select.getColumn(column++));
      result.cold_wall_ms = summary_from(select.getColumn(column++));
      result.warm_wall_ms = summary_from(select.getColumn(column++));
      result.compile_elapsed_ms = summary_from(select.getColumn(column++));
      result.identities = count_from(select.getColumn(column++));
      result.modules = count_from(select.getColumn(column++));
      result.compiled_events = count_from(select.getColumn(column++));
      const auto identity_set = select.getColumn(column++);
      if (!identity_set.isNull())
        result.identity_set = json::parse(identity_set.getString()).get<std::vector<std::string>>();
      result.verdict = select.getColumn(column++).getString();
      result.cold_units = summary_from(select.getColumn(column++));
      result.reference = select.getColumn(column++).getString();
      const auto rebuilt = select.getColumn(column++);
      if (!rebuilt.isNull()) {
        std::vector<ModuleBuilds> modules;
        for (const auto& module : json::parse(rebuilt.getString())) {
          modules.push_back({module.at("module").get<std::string>(), module.at("builds").get<int>()});
        }
        result.rebuilt_modules = std::move(modules);
      }
      result.warm_compiles = count_from(select.getColumn(column++));
      result.lto_artifacts = count_from(select.getColumn(column++));
      result.tool_version = select.getColumn(column++).getString();
      result.cold_module_cpu_ms = summary_from(select.getColumn(column++));
      results.push_back(std::move(result));
    }
  } catch (const SQLite::Exception& failure) {
    throw HistoryError(fmt::format("history {}: cannot be read ({})", path_.string(), failure.what()));
  } catch (const json::exception& failure) {
    throw HistoryError(fmt::format("history {}: a stored result is not valid ({})", path_.string(), failure.what()));
  }
  return results;
}

}  // namespace wcp::history
