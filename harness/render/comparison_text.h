#pragma once
// The compare result as text, and as JSON for `compare --json`.
#include <iosfwd>

#include <nlohmann/json.hpp>

#include "analysis/compare.h"

namespace wcp::render {

void render_comparison_text(const analysis::Comparison& comparison, std::ostream& out);
nlohmann::json comparison_to_json(const analysis::Comparison& comparison);

}  // namespace wcp::render
