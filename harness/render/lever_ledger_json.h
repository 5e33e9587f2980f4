#pragma once
// `levers --json`: the measured ledger as its codec writes it (codec/lever_ledger_json.h,
// docs/levers-schema.md), so `report --levers` reads back exactly what was written.
#include <string>

#include "model/lever_outcome.h"

namespace wcp::render {

std::string render_lever_ledger_json(const LeverLedger& ledger);

}  // namespace wcp::render
