#pragma once
// The measured ledger as Markdown (`levers --markdown`): for a pull request or a ticket. Its
// sections are render/lever_ledger_document.h's.
#include <string>

#include "model/lever_outcome.h"

namespace wcp::render {

std::string render_lever_ledger_markdown(const LeverLedger& ledger);

}  // namespace wcp::render
