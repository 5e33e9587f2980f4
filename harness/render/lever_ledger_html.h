#pragma once
// The measured ledger as one self-contained HTML page (`levers --html`): the same sections as
// its Markdown (render/lever_ledger_document.h), nothing fetched at view time.
#include <string>

#include "model/lever_outcome.h"

namespace wcp::render {

std::string render_lever_ledger_html(const LeverLedger& ledger);

}  // namespace wcp::render
