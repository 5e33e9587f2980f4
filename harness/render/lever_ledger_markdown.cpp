#include "render/lever_ledger_markdown.h"

#include "render/lever_ledger_document.h"
#include "render/markup_markdown.h"

namespace wcp::render {

std::string render_lever_ledger_markdown(const LeverLedger& ledger) {
  return markup::to_markdown(lever_ledger_document(ledger));
}

}  // namespace wcp::render
