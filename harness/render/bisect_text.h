#pragma once
// `bisect`'s answer as text: the first bad commit, why, its parent, the commits visited and
// Warp's structure between the two; or, when no commit could be named, why not.
#include <iosfwd>

#include "bisect/bisect_result.h"

namespace wcp::render {

// An aborted bisection writes nothing here: the CLI reports it as an error.
void render_bisect_text(const bisect::BisectResult& result, std::ostream& out);

}  // namespace wcp::render
