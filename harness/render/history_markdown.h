#pragma once
// `history show --markdown`: a table per series, for a GitHub step summary.
// Everything shown was computed by history/trend.h; this only lays it out.
#include <iosfwd>
#include <vector>

#include "history/trend.h"

namespace wcp::render {

void render_history_markdown(const std::vector<history::Series>& series, std::ostream& out);

}  // namespace wcp::render
