#pragma once
// The layout of a history file, by version. A file says which layout it has in SQLite's
// user_version, and that it is a warp-compile-probe history in application_id. Each layout
// is kept here so a migration can be tested from a real file of the older layout.
//
// Version 1: one `results` table (machine, commit, command, clocks, identity set, verdict).
// Version 2: adds cold units and their reference's name, and the modules built more than once.
// Version 3: adds the warm runs' compiles and the cold run's LTO artifacts.
// Version 4: adds the tool version that recorded the result (noise is only pooled within one).
// Version 5: adds the cold module work's CPU clock (issue 49), whose noise is its own.
#include <string>
#include <vector>

namespace wcp::history {

inline constexpr int kHistorySchemaVersion = 5;
// "WCPH": set on every history file, so another program's SQLite file is never mistaken for one.
inline constexpr int kHistoryApplicationId = 0x57435048;

// The statements that create a fresh file of `version` (1 to kHistorySchemaVersion).
std::vector<std::string> create_statements(int version);
// The statements that turn a file of `from` into `from + 1`.
std::vector<std::string> migration_statements(int from);

}  // namespace wcp::history
