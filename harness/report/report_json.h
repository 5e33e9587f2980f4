#pragma once
// The report's JSON form (docs/report-schema.md). Reading accepts this tool's reports and
// those of the original Python probe, which share the field names but lack our additions.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "report/report.h"

namespace wcp {

nlohmann::json report_to_json(const Report& report);
std::string report_to_json_text(const Report& report);

// Throws UsageError naming `source` on malformed JSON, a wrong type, or another major
// schema version.
Report report_from_json(const nlohmann::json& document, std::string_view source);
Report report_from_json_text(std::string_view text, std::string_view source);
Report load_report(const std::string& path);

}  // namespace wcp
