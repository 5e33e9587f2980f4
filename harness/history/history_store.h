#pragma once
// The history file: one SQLite database that `measure`, `check` and `ab` append results to
// (--history FILE or WCP_HISTORY) and `history show` reads.
//
// Safe under concurrent writers: WAL journaling, a busy timeout, and each append in one
// IMMEDIATE transaction. A file that is damaged, another program's database, or of a newer
// layout is refused with HistoryError (exit 4) before anything is written to it: it is
// checked through a read-only connection first, so a refused file is left byte for byte.
// An older layout is migrated in one transaction when it is opened for appending.
#include <filesystem>
#include <memory>
#include <vector>

#include "history/history_result.h"

namespace SQLite {
class Database;
}

namespace wcp::history {

class HistoryStore {
 public:
  enum class Mode { read, append };

  // Throws UsageError when the file cannot be created (no such folder) or, to read, does not
  // exist; HistoryError when it is refused.
  HistoryStore(const std::filesystem::path& path, Mode mode);
  ~HistoryStore();
  HistoryStore(const HistoryStore&) = delete;
  HistoryStore& operator=(const HistoryStore&) = delete;

  // Stores one result; returns its id.
  std::int64_t append(const Result& result);
  // Every result, oldest first (by id: the order they were recorded in).
  std::vector<Result> results() const;
  int schema_version() const { return version_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::unique_ptr<SQLite::Database> database_;
  int version_ = 0;
};

}  // namespace wcp::history
