#pragma once
// The results report on one screen (`report`'s default): the verdict and its reason, both
// clocks before → after, what compiling still costs, the mechanisms fixed and still present,
// the ledger's size; the full Markdown (`report --verbose`, or --markdown / --html files) has
// the tables, the details and the per-identity builds.
#include <iosfwd>

#include "results/results_report.h"

namespace wcp::render {

void render_results_summary_text(const results::ResultsReport& results, std::ostream& out);

}  // namespace wcp::render
