#pragma once
// Reading reports written before the current schema (docs/report-schema.md): this tool's
// schema 1, and the original Python probe's reports (no schema_version). The current reader
// (codec/report_json.h) reads every field under its current name; the forms only old writers
// used come here, one function per form, and after reading, the document's conventions fix
// what its values meant. Every rule for an old report lives in this file.
#include <string>

#include <nlohmann/json.hpp>

#include "model/report.h"

namespace wcp {

// --- schema 1 --------------------------------------------------------------------------------

// A hash change written as text: "<module> (<old> -> <new>)".
HashChange hash_change_from_schema_1(const std::string& text);
// A cache clear written as text: "clear_kernel_cache at app.py:12".
CacheClear cache_clear_from_schema_1(const std::string& text);
// What schema 1's values meant: 0.0 for "not measured", one launch list for the main process.
void apply_schema_1_conventions(Report& report);

// --- the original probe (and schema 1's launch list) -----------------------------------------

// A flat launch list, one object per launch or per run (`count`, schema 1), as a record.
// Throws json_fields::FieldError naming the launch.
LaunchRecord record_from_flat_list(const nlohmann::json& list);
// A module event's `label` "<name> <hash>", for events without `name` (and `hash`).
void name_from_original_label(const std::string& label, ModuleEvent& event);
// What the original probe's values meant: 0.0 native compile for "not recognised", the
// instrumentation attached exactly when launches were listed.
void apply_original_probe_conventions(Report& report);

}  // namespace wcp
