#include "codec/ab_json.h"

#include <fmt/format.h>

#include "codec/document_kind.h"
#include "codec/report_json.h"
#include "errors.h"

namespace wcp {

nlohmann::json ab_to_json(const Report& baseline, const Report& candidate, const std::vector<std::string>& order,
                          nlohmann::json comparison) {
  // `schema_version` is the report schema of the two arms (readers of schema 13 and earlier
  // checked it); the document's own is `version`.
  return as_document(DocumentKind::ab, {{"schema_version", kReportSchemaVersion},
                                        {"kind", "ab"},
                                        {"order", order},
                                        {"baseline", report_to_json(baseline)},
                                        {"candidate", report_to_json(candidate)},
                                        {"comparison", std::move(comparison)}});
}

AbArms ab_arms_from_json(const nlohmann::json& document, std::string_view source) {
  if (const DocumentKind kind = identify_document(document); kind != DocumentKind::ab) {
    throw UsageError(
        fmt::format("{}: {}, not an `ab --json` document: give BASELINE.json CANDIDATE.json", source, describe(kind)));
  }
  require_document(document, DocumentKind::ab, source);
  const auto arm = [&](const char* key) {
    const auto found = document.find(key);
    if (found == document.end()) throw UsageError(fmt::format("{}: the `ab` document has no `{}` report", source, key));
    return report_from_json(*found, fmt::format("{} ({})", source, key));
  };
  return {arm("baseline"), arm("candidate")};
}

}  // namespace wcp
