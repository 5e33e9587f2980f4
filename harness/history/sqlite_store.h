#pragma once
// The history in one SQLite file (history/history_store.h): WAL journaling, a busy timeout, and
// each append in one IMMEDIATE transaction, so concurrent writers on one machine lose nothing.
// A refused file is checked through a read-only connection first and left byte for byte.
#include <filesystem>
#include <memory>

#include "history/history_store.h"

namespace SQLite {
class Database;
}

namespace wcp::history {

class SqliteHistoryStore final : public HistoryStore {
 public:
  SqliteHistoryStore(const std::filesystem::path& path, Mode mode);
  ~SqliteHistoryStore() override;

  std::int64_t append(const Result& result) override;
  std::vector<std::int64_t> append_all(const std::vector<Result>& results) override;
  std::vector<Result> results() const override;
  int schema_version() const override { return version_; }
  std::string shown() const override { return path_.string(); }

 private:
  std::int64_t insert(const Result& result);

  std::filesystem::path path_;
  std::unique_ptr<SQLite::Database> database_;
  int version_ = 0;
};

}  // namespace wcp::history
