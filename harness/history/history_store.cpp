#include "history/history_store.h"

#include "history/postgres_store.h"
#include "history/sqlite_store.h"

namespace wcp::history {

std::unique_ptr<HistoryStore> open_history(const HistoryLocation& location, HistoryStore::Mode mode) {
  if (location.backend == HistoryLocation::Backend::postgresql) return open_postgres_store(location, mode);
  return std::make_unique<SqliteHistoryStore>(location.file, mode);
}

}  // namespace wcp::history
