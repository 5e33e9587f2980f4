#pragma once
// The results report as one self-contained HTML page: the Markdown's document
// (render/results_document.h) with its charts drawn as inline SVG (build time per identity before
// vs after, and the cold-run timelines). No scripts, fonts or anything else fetched at view time.
#include <string>

#include "results/results_report.h"

namespace wcp::render {

std::string render_results_html(const results::ResultsReport& results);

}  // namespace wcp::render
