#pragma once
// The results report as one markup document, the section sequence its Markdown and HTML share:
// commands, verdict, clocks, workload, what compiling still costs (with the cold-run
// timelines), the mechanisms, the declined options, the levers measured (`report --levers`),
// and the builds per identity.
#include "render/markup.h"
#include "results/results_report.h"

namespace wcp::render {

markup::Document results_document(const results::ResultsReport& results);

}  // namespace wcp::render
