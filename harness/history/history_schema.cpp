#include "history/history_schema.h"

#include <stdexcept>

namespace wcp::history {
namespace {

// Summaries (median, MAD, n, values), argv, identity sets and rebuilt modules are JSON text:
// they are read whole, never queried by part.
constexpr const char* kResultsVersion1 = R"sql(
CREATE TABLE results(
  id INTEGER PRIMARY KEY,
  recorded_at TEXT NOT NULL,
  source TEXT NOT NULL,
  host TEXT NOT NULL,
  cpu_model TEXT NOT NULL,
  gpu TEXT NOT NULL,
  driver TEXT NOT NULL,
  warp_version TEXT NOT NULL,
  cuda_toolkit TEXT NOT NULL,
  commit_sha TEXT,
  commit_dirty INTEGER,
  name TEXT NOT NULL,
  argv TEXT NOT NULL,
  cwd TEXT NOT NULL,
  samples INTEGER NOT NULL,
  failed_samples INTEGER NOT NULL,
  cold_module_ms TEXT,
  cold_wall_ms TEXT,
  warm_wall_ms TEXT,
  compile_elapsed_ms TEXT,
  identities INTEGER,
  modules INTEGER,
  compiled_events INTEGER,
  identity_set TEXT,
  verdict TEXT NOT NULL
))sql";

constexpr const char* kSeriesIndex = "CREATE INDEX results_by_series ON results(name, host)";

}  // namespace

std::vector<std::string> create_statements(int version) {
  std::vector<std::string> statements{kResultsVersion1, kSeriesIndex};
  for (int from = 1; from < version; ++from) {
    for (auto& statement : migration_statements(from)) statements.push_back(std::move(statement));
  }
  statements.push_back("PRAGMA application_id = " + std::to_string(kHistoryApplicationId));
  statements.push_back("PRAGMA user_version = " + std::to_string(version));
  return statements;
}

std::vector<std::string> migration_statements(int from) {
  switch (from) {
    case 1:
      // Results of version 1 read these as not recorded (NULL), never as zero.
      return {"ALTER TABLE results ADD COLUMN cold_units TEXT",
              "ALTER TABLE results ADD COLUMN reference TEXT NOT NULL DEFAULT ''",
              "ALTER TABLE results ADD COLUMN rebuilt_modules TEXT", "PRAGMA user_version = 2"};
    case 2:
      // Results of versions 1 and 2 read these as not recorded.
      return {"ALTER TABLE results ADD COLUMN warm_compiles INTEGER",
              "ALTER TABLE results ADD COLUMN lto_artifacts INTEGER", "PRAGMA user_version = 3"};
    case 3:
      // Results of versions 1 to 3 read "" (unknown): no tool version is guessed for them.
      return {"ALTER TABLE results ADD COLUMN tool_version TEXT NOT NULL DEFAULT ''", "PRAGMA user_version = 4"};
    case 4:
      // The CPU clock of module work (issue 49); results of versions 1 to 4 read it as not
      // recorded, so their noise and trend stay on the wall.
      return {"ALTER TABLE results ADD COLUMN cold_module_cpu_ms TEXT", "PRAGMA user_version = 5"};
    default:
      throw std::logic_error("no history migration from version " + std::to_string(from));
  }
}

}  // namespace wcp::history
