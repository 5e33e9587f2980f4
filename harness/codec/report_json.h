#pragma once
// The report's JSON form (docs/report-schema.md). Reading accepts this tool's reports of
// schema 1 and 2 and those of the original Python probe, which share the contract field names
// but lack our additions (and mark missing values as null, or 0.0 where noted). What only old
// writers wrote is read by codec/report_json_legacy.h.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "model/report.h"

namespace wcp {

void to_json(nlohmann::json& out, const SourceLocation& location);
// A kernel of a load record, as the instrumentation and reports both write it.
KernelInfo kernel_from_json(const nlohmann::json& kernel);
// A load's `functions` (schema 10), from the instrumentation's record or a report; nullopt when
// absent or not an array. A malformed entry is left out.
std::optional<std::vector<FunctionInfo>> functions_from_json(const nlohmann::json& load);
// Schema 11: a load's test context, as reports and the instrumentation's records write it.
nlohmann::json test_context_to_json(const TestContext& test);
std::optional<TestContext> test_context_from_json(const nlohmann::json& load);
void from_json(const nlohmann::json& in, SourceLocation& location);
void to_json(nlohmann::json& out, const ModuleEvent& event);
void from_json(const nlohmann::json& in, ModuleEvent& event);
void to_json(nlohmann::json& out, const SampleResult& sample);
void to_json(nlohmann::json& out, const OptionWrite& write);
void from_json(const nlohmann::json& in, SampleResult& sample);

nlohmann::json report_to_json(const Report& report);
std::string report_to_json_text(const Report& report);

// Throws UsageError naming `source` (and the field) on malformed JSON, a wrong type, or an
// unsupported schema version.
Report report_from_json(const nlohmann::json& document, std::string_view source);
Report report_from_json_text(std::string_view text, std::string_view source);
Report load_report(const std::string& path);

}  // namespace wcp
