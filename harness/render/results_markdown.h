#pragma once
// The results report as Markdown (also what `report` prints): for a pull request or a ticket.
#include <string>

#include "results/results_report.h"

namespace wcp::render {

std::string render_results_markdown(const results::ResultsReport& results);

}  // namespace wcp::render
