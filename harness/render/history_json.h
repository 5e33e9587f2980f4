#pragma once
// `history show --json`: every series and point with all it holds (docs/history.md).
#include <vector>

#include <nlohmann/json.hpp>

#include "history/trend.h"

namespace wcp::render {

nlohmann::json history_to_json(const std::vector<history::Series>& series);

}  // namespace wcp::render
