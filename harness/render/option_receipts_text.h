#pragma once
// The option receipts as text, one line per write of the application's (what it reached, or
// why nothing), with Warp's own writes folded into one context line. Printed inside the
// diagnosis; quiet when the application set no option.
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "facts/option_receipts.h"

namespace wcp::render {

// Why a write missed one module, in one phrase (shared with compare's options section).
std::string miss_text(const OptionWrite& write, const MissedModule& miss);
// The receipt's outcome as a short label ("reached", "NEVER ARRIVED", ...).
std::string_view outcome_label(ReceiptOutcome outcome);

void render_option_receipts_text(const std::vector<OptionReceipt>& receipts, std::ostream& out);

}  // namespace wcp::render
