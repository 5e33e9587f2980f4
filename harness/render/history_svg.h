#pragma once
// Inline SVG charts of one history series (history/trend.h): the cold module work by commit and
// the compiled identity count by commit. Each chart is a standalone SVG (xmlns, size, <title>,
// presentation attributes instead of a style sheet) that the history HTML page embeds.
//
// Missing is not zero: a commit whose every sample failed, or whose clock was not measured, is a
// marker on the axis (class "failed"), never a point at 0; a commit without an identity count is
// a gap in the identity chart. Elements carry classes (point, band, line, step, note, failed, gap) and a
// data-commit attribute with the short sha, so tests and readers can find them.
#include <string>

#include "history/trend.h"

namespace wcp::render {

// x: the series' commits in order (labels: history::short_sha); y: the cold module work median
// in seconds as a line with points, a shaded band of median ± MAD per point (class "band"),
// failed or unmeasured commits as a marker on the axis (class "failed"), each step as a
// vertical dashed line with a label (class "step", one per step), and each note (kernel code
// changed) as a grey label with its summary as the title (class "note").
std::string history_clock_svg(const history::Series& series);

// The identity count per commit as a step chart: one path (class "identities") of horizontal
// segments that steps vertically ("V") where the count changes between adjacent commits; a
// commit without a count breaks the path and is marked (class "gap").
std::string history_identities_svg(const history::Series& series);

}  // namespace wcp::render
