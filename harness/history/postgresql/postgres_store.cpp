#include "history/postgres_store.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "errors.h"
#include "history/history_schema.h"
#include "history/result_columns.h"

namespace wcp::history {
namespace {

constexpr std::string_view kApplication = "warp-compile-probe";
// How long a connection attempt may take before the run is told, rather than waiting on an
// unreachable server for libpq's default of forever. A URL that sets its own keeps it.
constexpr int kConnectTimeoutSeconds = 10;

std::string with_connect_timeout(const std::string& url) {
  if (url.find("connect_timeout=") != std::string::npos) return url;
  return url + (url.find('?') == std::string::npos ? "?" : "&") +
         fmt::format("connect_timeout={}", kConnectTimeoutSeconds);
}

std::string scrubbed(std::string message, const std::string& password) {
  if (password.size() >= 1) {
    for (auto at = message.find(password); at != std::string::npos; at = message.find(password, at)) {
      message.replace(at, password.size(), "***");
    }
  }
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  for (auto& letter : message) {
    if (letter == '\n') letter = ' ';
  }
  return message;
}

std::string literal(pqxx::transaction_base& transaction, const Cell& cell) {
  if (const auto* number = std::get_if<std::int64_t>(&cell)) return std::to_string(*number);
  if (const auto* text = std::get_if<std::string>(&cell)) return transaction.quote(*text);
  return "NULL";
}

class PostgresHistoryStore final : public HistoryStore {
 public:
  PostgresHistoryStore(const HistoryLocation& location, Mode mode)
      : url_(with_connect_timeout(location.url)), shown_(location.shown()), password_(password_in(location.url)) {
    guarded("cannot be opened", [&] {
      connect();
      pqxx::work transaction(*connection_);
      if (mode == Mode::append) {
        // Concurrent first writers: one creates or migrates, the others then see its layout.
        transaction.exec(fmt::format("SELECT pg_advisory_xact_lock({})", kHistoryApplicationId));
      }
      version_ = stored_version(transaction);
      if (mode == Mode::append && version_ < kHistorySchemaVersion) {
        upgrade(transaction);
        version_ = kHistorySchemaVersion;
      }
      transaction.commit();
    });
  }

  std::int64_t append(const Result& result) override { return append_all({result}).front(); }

  std::vector<std::int64_t> append_all(const std::vector<Result>& results) override {
    std::vector<std::int64_t> ids;
    guarded("the result could not be stored", [&] {
      try {
        ids = insert_all(results);
      } catch (const pqxx::broken_connection&) {
        // The server closed the connection since the store was opened (a restart, a failover):
        // connect once more and try again. The transaction never committed, so nothing is
        // stored twice; a server that is still down fails the new connection, with its reason.
        connect();
        ids = insert_all(results);
      }
    });
    return ids;
  }

  std::vector<Result> results() const override {
    std::vector<Result> results;
    if (version_ == 0) return results;
    guarded("cannot be read", [&] {
      pqxx::read_transaction transaction(*connection_);
      const auto rows =
          transaction.exec(fmt::format("SELECT {} FROM results ORDER BY id", select_column_list(version_)));
      for (const auto& row : rows) {
        std::vector<Cell> cells;
        for (pqxx::row::size_type column = 1; column < row.size(); ++column) {
          if (row[column].is_null()) {
            cells.emplace_back(std::monostate{});
          } else {
            cells.emplace_back(std::string(row[column].c_str()));
          }
        }
        results.push_back(result_from_cells(row[0].as<std::int64_t>(), cells));
      }
    });
    return results;
  }

  int schema_version() const override { return version_; }
  std::string shown() const override { return shown_; }

 private:
  void connect() const { connection_ = std::make_unique<pqxx::connection>(url_); }

  // In one transaction: all stored, or none (a failure before the commit rolls it back).
  std::vector<std::int64_t> insert_all(const std::vector<Result>& results) {
    std::vector<std::int64_t> ids;
    pqxx::work transaction(*connection_);
    for (const auto& result : results) {
      std::string values;
      for (const auto& cell : cells_of(result)) values += (values.empty() ? "" : ", ") + literal(transaction, cell);
      const auto row = transaction.exec1(
          fmt::format("INSERT INTO results({}) VALUES ({}) RETURNING id", insert_column_list(), values));
      ids.push_back(row[0].as<std::int64_t>());
    }
    transaction.commit();
    return ids;
  }

  // What the database holds: 0 when it has no history yet. Refuses another program's `results`
  // table and a newer layout.
  int stored_version(pqxx::transaction_base& transaction) const {
    const bool marked = !transaction.exec1("SELECT to_regclass('wcp_history')")[0].is_null();
    if (!marked) {
      if (!transaction.exec1("SELECT to_regclass('results')")[0].is_null()) {
        refuse("this database has a `results` table but is not a warp-compile-probe history");
      }
      return 0;
    }
    const auto rows = transaction.exec("SELECT application, version FROM wcp_history");
    if (rows.size() != 1 || rows[0][0].as<std::string>() != kApplication) {
      refuse("its wcp_history table is not a warp-compile-probe history's");
    }
    const int version = rows[0][1].as<int>();
    if (version > kHistorySchemaVersion) {
      refuse(fmt::format("written by a newer warp-compile-probe (history schema {}; this one reads up to {})", version,
                         kHistorySchemaVersion));
    }
    if (version < 1) refuse("the history schema version is missing");
    return version;
  }

  void upgrade(pqxx::transaction_base& transaction) const {
    if (version_ == 0) {
      for (const auto& statement : create_statements(kHistorySchemaVersion, Dialect::postgresql)) {
        transaction.exec(statement);
      }
      transaction.exec("CREATE TABLE wcp_history(application TEXT NOT NULL, version INTEGER NOT NULL)");
      transaction.exec(fmt::format("INSERT INTO wcp_history VALUES ({}, {})",
                                   transaction.quote(std::string(kApplication)), kHistorySchemaVersion));
      return;
    }
    for (int from = version_; from < kHistorySchemaVersion; ++from) {
      for (const auto& statement : migration_statements(from)) transaction.exec(statement);
    }
    transaction.exec(fmt::format("UPDATE wcp_history SET version = {}", kHistorySchemaVersion));
  }

  [[noreturn]] void refuse(const std::string& why) const {
    throw HistoryError(fmt::format("history {}: {}; it was left as it was", shown_, why));
  }

  // Runs `work`, turning the database's failures into one HistoryError line without credentials.
  template <typename Work>
  void guarded(std::string_view what, Work&& work) const {
    try {
      work();
    } catch (const HistoryError&) {
      throw;
    } catch (const pqxx::broken_connection& failure) {
      throw HistoryError(fmt::format("history {}: {}: the server could not be reached or closed the connection ({})",
                                     shown_, what, scrubbed(failure.what(), password_)));
    } catch (const pqxx::in_doubt_error& failure) {
      throw HistoryError(
          fmt::format("history {}: {}: the connection was lost while committing, so whether it was "
                      "stored is unknown ({})",
                      shown_, what, scrubbed(failure.what(), password_)));
    } catch (const nlohmann::json::exception& failure) {
      throw HistoryError(fmt::format("history {}: a stored result is not valid ({})", shown_, failure.what()));
    } catch (const std::exception& failure) {  // pqxx's failure, usage_error, conversion_error
      throw HistoryError(fmt::format("history {}: {} ({})", shown_, what, scrubbed(failure.what(), password_)));
    }
  }

  std::string url_;
  std::string shown_;
  std::string password_;
  mutable std::unique_ptr<pqxx::connection> connection_;
  int version_ = 0;
};

}  // namespace

bool postgresql_available() {
  return true;
}

std::unique_ptr<HistoryStore> open_postgres_store(const HistoryLocation& location, HistoryStore::Mode mode) {
  return std::make_unique<PostgresHistoryStore>(location, mode);
}

}  // namespace wcp::history
