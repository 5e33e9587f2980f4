#pragma once
// The measured ledger on a terminal (`levers`'s default): the answer first, then one line per
// lever (id, status, before → after on the clock it is judged on, verdict, what taking it
// changes), the line to take each lever that saved, and what to read next. --verbose adds each
// lever's scope, owner, proof of arrival, both clocks, behaviour evidence and the prediction
// beside the measurement. No line is wider than 100 columns.
#include <iosfwd>

#include "model/lever_outcome.h"

namespace wcp::render {

void render_lever_ledger_text(const LeverLedger& ledger, bool verbose, std::ostream& out);

}  // namespace wcp::render
