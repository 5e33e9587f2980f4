#pragma once
// A history: where `measure`, `check` and `ab` append results (--history LOCATION or
// WCP_HISTORY) and `history show` reads them. Two backends keep the same layout
// (history/history_schema.h) and the same rows (history/result_columns.h):
// - an SQLite file (history/sqlite_store.h), one machine's;
// - a PostgreSQL database (history/postgres_store.h), shared by a team's runners.
//
// Both are safe under concurrent writers: each append is one transaction, creation and
// migration run under a lock, and nothing is half-written. A store that is damaged, another
// program's, or of a newer layout is refused with HistoryError (exit 4) before anything is
// written to it. An older layout is migrated in one transaction when it is opened for appending.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "history/history_location.h"
#include "history/history_result.h"

namespace wcp::history {

class HistoryStore {
 public:
  enum class Mode { read, append };

  virtual ~HistoryStore() = default;

  // Stores one result in one transaction; returns its id.
  virtual std::int64_t append(const Result& result) = 0;
  // Stores results in one transaction (all or none); returns their ids, in order.
  virtual std::vector<std::int64_t> append_all(const std::vector<Result>& results) = 0;
  // Every result, oldest first (by id: the order they were recorded in).
  virtual std::vector<Result> results() const = 0;
  // The layout read; 0 for a store nobody has written to yet (it has no results).
  virtual int schema_version() const = 0;
  // Where it is, for messages: never a password.
  virtual std::string shown() const = 0;
};

// Opens the history at `location`. Throws UsageError when an SQLite file cannot be created (no
// such folder) or, to read, does not exist, or when this build has no PostgreSQL support;
// HistoryError when the store is refused or cannot be reached.
std::unique_ptr<HistoryStore> open_history(const HistoryLocation& location, HistoryStore::Mode mode);

}  // namespace wcp::history
