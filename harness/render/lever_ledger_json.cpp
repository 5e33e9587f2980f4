#include "render/lever_ledger_json.h"

#include "codec/lever_ledger_json.h"

namespace wcp::render {

std::string render_lever_ledger_json(const LeverLedger& ledger) {
  return lever_ledger_to_json_text(ledger);
}

}  // namespace wcp::render
