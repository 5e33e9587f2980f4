#pragma once
// The measured ledger's JSON form, `levers --json` (docs/levers-schema.md): written by `levers`,
// read back by `report --levers`. A value that was not measured is null, never 0.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "model/lever_outcome.h"

namespace wcp {

nlohmann::json lever_ledger_to_json(const LeverLedger& ledger);
std::string lever_ledger_to_json_text(const LeverLedger& ledger);

// Throws UsageError naming `source` (and the field) on malformed JSON, a document of another
// kind, a wrong type, an unknown name, or an unsupported schema version.
LeverLedger lever_ledger_from_json(const nlohmann::json& document, std::string_view source);
LeverLedger load_lever_ledger(const std::string& path);

}  // namespace wcp
