#pragma once
// `history show` as text: a table per series, its steps, and what a step is.
// Everything shown was computed by history/trend.h; this only lays it out.
#include <iosfwd>
#include <vector>

#include "history/trend.h"

namespace wcp::render {

void render_history_text(const std::vector<history::Series>& series, std::ostream& out);

}  // namespace wcp::render
