#pragma once
// `diagnose --json`: the diagnosis as JSON (docs/report-schema.md#diagnosis).
#include <nlohmann/json.hpp>

#include "analysis/finding.h"
#include "codec/document_kind.h"

namespace wcp::render {

// The diagnosis document's own version (its `schema_version`), apart from the measure report's:
// 1 is the first to carry it. Bumped when a field changes meaning; new fields do not bump it.
constexpr int kDiagnosisSchemaVersion = document_version(DocumentKind::diagnosis);

nlohmann::json diagnosis_to_json(const analysis::Diagnosis& diagnosis);

}  // namespace wcp::render
