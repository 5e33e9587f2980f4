#include "render/lever_ledger_html.h"

#include "render/lever_ledger_document.h"
#include "render/markup_html.h"

namespace wcp::render {
namespace {

// The results report's look (render/results_html.cpp), with a table wide enough for ten columns.
constexpr const char* kLeverLedgerStyle = R"(
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #1d1d1f; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: .5em 0; } th, td { border: 1px solid #ccc; padding: .25em .5em; text-align: left; vertical-align: top; }
td.num { text-align: right; } code { font-size: .95em; }
.verdict { font-size: 1.15em; padding: .5em .8em; border-left: 5px solid #888; background: #f5f5f7; }
.note { color: #555; } .unavailable { color: #777; font-style: italic; }
)";

}  // namespace

std::string render_lever_ledger_html(const LeverLedger& ledger) {
  return markup::to_html(lever_ledger_document(ledger), kLeverLedgerStyle);
}

}  // namespace wcp::render
