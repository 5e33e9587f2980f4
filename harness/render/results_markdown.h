#pragma once
// The results report as Markdown (also what `report` prints): for a pull request or a ticket.
// Its sections are render/results_document.h's; the charts stand as their tables.
#include <string>

#include "results/results_report.h"

namespace wcp::render {

std::string render_results_markdown(const results::ResultsReport& results);

}  // namespace wcp::render
