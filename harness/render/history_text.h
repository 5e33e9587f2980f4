#pragma once
// `history show` as text (a table per series), Markdown (a GitHub step summary) and JSON.
// Everything shown was computed by history/trend.h; these only lay it out.
#include <iosfwd>
#include <vector>

#include <nlohmann/json.hpp>

#include "history/trend.h"

namespace wcp::render {

void render_history_text(const std::vector<history::Series>& series, std::ostream& out);
void render_history_markdown(const std::vector<history::Series>& series, std::ostream& out);
nlohmann::json history_to_json(const std::vector<history::Series>& series);

}  // namespace wcp::render
