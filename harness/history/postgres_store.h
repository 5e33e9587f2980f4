#pragma once
// The history in a PostgreSQL database that a team's runners share (history/history_store.h).
// Built when libpqxx was found (WCP_WITH_POSTGRESQL); otherwise opening one is a usage error
// that says so. The database holds the same `results` table as an SQLite history, and a
// one-row `wcp_history` table that marks it as a warp-compile-probe history and names its
// layout. Creation and migration hold a transaction-scoped advisory lock, so concurrent first
// writers agree; each append is one transaction. Credentials stay in the URL given to libpq.
#include <memory>

#include "history/history_store.h"

namespace wcp::history {

// Whether this build can open a PostgreSQL history.
bool postgresql_available();

std::unique_ptr<HistoryStore> open_postgres_store(const HistoryLocation& location, HistoryStore::Mode mode);

}  // namespace wcp::history
