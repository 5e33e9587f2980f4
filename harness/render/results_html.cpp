#include "render/results_html.h"

#include "render/markup_html.h"
#include "render/results_document.h"

namespace wcp::render {
namespace {

// Small and readable in print; every colour is also told by position or text.
constexpr const char* kResultsStyle = R"(
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 820px; color: #1d1d1f; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: .5em 0; } th, td { border: 1px solid #ccc; padding: .25em .5em; text-align: left; }
td.num { text-align: right; } code { font-size: .95em; }
.verdict { font-size: 1.15em; padding: .5em .8em; border-left: 5px solid #888; background: #f5f5f7; }
.verdict.IMPROVED { border-color: #2a7d2e; } .verdict.REGRESSION, .verdict.INVALID { border-color: #b3261e; }
.note { color: #555; } .unavailable { color: #777; font-style: italic; }
svg text { font: 11px system-ui, sans-serif; fill: #1d1d1f; }
svg .bar.before, svg .legend.before { fill: #9aa5b1; } svg .bar.after, svg .legend.after { fill: #2f6fdd; }
svg .build { fill: #2f6fdd; stroke: #fff; } svg .build.pch { fill: #e09f3e; }
svg .build-label { fill: #fff; } svg .axis { stroke: #999; }
)";

}  // namespace

std::string render_results_html(const results::ResultsReport& results) {
  return markup::to_html(results_document(results), kResultsStyle);
}

}  // namespace wcp::render
