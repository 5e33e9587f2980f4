#pragma once
// The report's `cache_audit` object (schema 7, docs/report-schema.md#cache_audit). Its `totals`
// are derived from the entries (model/cache_audit.h) and never read back; null when the audit
// is not a measurement.
#include <nlohmann/json.hpp>

#include "model/cache_audit.h"

namespace wcp {

nlohmann::json cache_audit_to_json(const CacheAudit& audit);
// Throws json_fields::FieldError naming the field on a wrong type.
CacheAudit cache_audit_from_json(const nlohmann::json& in);

}  // namespace wcp
