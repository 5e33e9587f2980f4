#pragma once
// One history result as the columns of the `results` table, for every backend (SQLite,
// PostgreSQL): which columns exist since which layout, and each column's value for a result.
// Both stores bind and read these cells; neither knows how a summary or an identity set is
// encoded (JSON text: they are read whole, never queried by part).
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "history/history_result.h"

namespace wcp::history {

// NULL, an integer, or text.
using Cell = std::variant<std::monostate, std::int64_t, std::string>;

struct ResultColumn {
  std::string_view name;
  int since_version;              // the history layout that added it
  std::string_view when_missing;  // what a file of an older layout reads instead (SQL)
};

// Every column but `id`, in the order cells_of() gives them.
const std::vector<ResultColumn>& result_columns();

// The column list for an INSERT of every column ("recorded_at, source, …").
std::string insert_column_list();
// The SELECT list that reads a layout-`version` table as the current one: a column that layout
// lacks reads as its when_missing (never migrates on read). `id` comes first.
std::string select_column_list(int version);

// The result's cells, in result_columns() order.
std::vector<Cell> cells_of(const Result& result);
// The result back from its id and cells (as select_column_list read them, without the id).
// Throws nlohmann::json::exception when a stored JSON text is not valid.
Result result_from_cells(std::int64_t id, const std::vector<Cell>& cells);

}  // namespace wcp::history
