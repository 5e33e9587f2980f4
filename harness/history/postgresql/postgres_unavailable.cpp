// The PostgreSQL history of a build without libpqxx (WCP_WITH_POSTGRESQL off, as in the wheel).
#include "errors.h"
#include "history/postgres_store.h"

namespace wcp::history {

bool postgresql_available() {
  return false;
}

std::unique_ptr<HistoryStore> open_postgres_store(const HistoryLocation& location, HistoryStore::Mode) {
  throw UsageError("history " + location.shown() +
                   ": this warp-compile-probe was built without PostgreSQL support (libpqxx); build it with "
                   "-DWCP_WITH_POSTGRESQL=ON, or use an SQLite file");
}

}  // namespace wcp::history
