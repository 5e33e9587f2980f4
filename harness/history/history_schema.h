#pragma once
// The layout of a history, by version, for each backend. A store says which layout it has and
// that it is a warp-compile-probe history: SQLite in user_version and application_id,
// PostgreSQL in a one-row `wcp_history` table. Each layout is kept here so a migration can be
// tested from a real store of the older layout, and both backends take the same migrations.
//
// Version 1: one `results` table (machine, commit, command, clocks, identity set, verdict).
// Version 2: adds cold units and their reference's name, and the modules built more than once.
// Version 3: adds the warm runs' compiles and the cold run's LTO artifacts.
// Version 4: adds the tool version that recorded the result (noise is only pooled within one).
// Version 5: adds the cold module work's CPU clock (issue 49), whose noise is its own.
// Version 6: adds the machine class, the branch and the whole report (issue 51: a team's
//            history, and checks judged against a branch's recent runs).
#include <string>
#include <vector>

namespace wcp::history {

inline constexpr int kHistorySchemaVersion = 7;
// "WCPH": set on every history file, so another program's SQLite file is never mistaken for one.
inline constexpr int kHistoryApplicationId = 0x57435048;

enum class Dialect { sqlite, postgresql };

// The statements that create the tables of a fresh store of `version` (1 to
// kHistorySchemaVersion), without the version marker (the store writes that).
std::vector<std::string> create_statements(int version, Dialect dialect);
// The statements that turn the tables of `from` into `from + 1`, without the version marker.
std::vector<std::string> migration_statements(int from);

// SQLite's version marker statements for `version`.
std::vector<std::string> sqlite_version_statements(int version);
// A fresh SQLite file of `version`: its tables and its marker.
std::vector<std::string> sqlite_create_statements(int version);

}  // namespace wcp::history
