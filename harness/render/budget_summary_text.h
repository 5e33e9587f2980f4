#pragma once
// `check`'s default text: per command its heading and one line per budget (every failing
// budget's line as the full text writes it, which CTest output shows), and under a failure the
// worst offender and what explains it; notes, references and the other offenders stay in the
// full text (`check --verbose`, render/budget_text.h).
#include <iosfwd>

#include "budget/budget_result.h"

namespace wcp::render {

void render_command_summary(const budget::CommandResult& result, std::ostream& out);
// The last line: where the rest is.
void render_budget_summary_pointer(std::ostream& out);

}  // namespace wcp::render
