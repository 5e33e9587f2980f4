#pragma once
// The cells of `history show`'s text and Markdown tables: both print a point the same way.
#include <string>

#include "history/trend.h"

namespace wcp::render {

std::string point_clock_text(const history::Point& point);       // "3.63 s ± 0.23 s", "not measured", "failed (...)"
std::string point_units_cell(const history::Point& point);       // "1.23 ± 0.04" or "-"
std::string point_change_cell(const history::Point& point);      // "+1.20 s" or "-"
std::string point_identities_cell(const history::Point& point);  // "12" or "-"
std::string point_rebuilt_cell(const history::Point& point);     // "__main__×2", "none", "not recorded" or "-"
std::string point_clock_mark(const history::Point& point);       // "STEP", what the clock rule saw, or ""
std::string point_note_text(const history::Point& point);        // the note's summary or ""
std::string point_verdict_cell(const history::Point& point);     // the verdict or "-"
std::string series_title(const history::Series& series);         // "name — machine key"

}  // namespace wcp::render
