#pragma once
// One clock of a comparison in two lines, for the one-screen texts of `compare` and `report`:
//   cold module work: 3632.7 ms ± 227.8 (n=2) → 1201.0 ms ± 10.1 (n=2)
//     -2431.7 ms (-66.9%), noise band ±455.7 ms: faster
// The figures are written as the full texts write them, so each can be found there.
#include <iosfwd>

#include "verdict/judge.h"

namespace wcp::render {

void render_clock_lines(const verdict::ClockComparison& clock, std::ostream& out);

}  // namespace wcp::render
