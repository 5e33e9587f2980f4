#pragma once
// The measured ledger as one markup document, the sections its Markdown and HTML share: how it
// was measured, the answer, one table row per lever, then each lever's details (scope, owner,
// proof of arrival, both clocks' judgements, behaviour evidence). The results report's levers
// section (`report --levers`) is the same answer and table.
#include <vector>

#include "model/lever_outcome.h"
#include "render/markup.h"

namespace wcp::render {

markup::Document lever_ledger_document(const LeverLedger& ledger);

// The run line, the answer and the table (the results report's section).
std::vector<markup::Block> lever_ledger_summary_blocks(const LeverLedger& ledger);

}  // namespace wcp::render
