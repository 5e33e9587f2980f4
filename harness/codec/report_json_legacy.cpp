#include "codec/report_json_legacy.h"

#include <regex>

#include "codec/launch_record_json.h"
#include "io/json_fields.h"

namespace wcp {

using json_fields::FieldError;
using json_fields::get;
using nlohmann::json;

// --- schema 1 --------------------------------------------------------------------------------

HashChange hash_change_from_schema_1(const std::string& text) {
  static const std::regex form(R"((.*) \((\S*) -> (\S*)\))");
  std::smatch match;
  if (std::regex_match(text, match, form)) return {match[1].str(), match[2].str(), match[3].str()};
  return {text, "", ""};
}

CacheClear cache_clear_from_schema_1(const std::string& text) {
  const auto at = text.find(" at ");
  CacheClear clear{text.substr(0, at), std::nullopt};
  if (at == std::string::npos) return clear;
  const std::string place = text.substr(at + 4);
  const auto colon = place.rfind(':');
  SourceLocation site{place.substr(0, colon), 0, ""};
  if (colon != std::string::npos) {
    try {
      site.line = std::stoi(place.substr(colon + 1));
    } catch (const std::exception&) {
      site.file = place;
    }
  }
  clear.site = site;
  return clear;
}

// Schema 1 wrote 0.0 for values it did not measure: an empty list of per-sample values is the
// only sure sign of "nothing measured", and an overlap factor of 0 meant "no elapsed time".
void apply_schema_1_conventions(Report& report) {
  for (auto* summary : {&report.cold_module_ms, &report.native_compile_ms, &report.warm_module_ms, &report.cold_wall_ms,
                        &report.warm_wall_ms, &report.compile_elapsed_ms}) {
    if (*summary && (*summary)->values.empty()) summary->reset();
  }
  if (report.overlap_factor && (*report.overlap_factor <= 0.0 || !report.compile_elapsed_ms)) {
    report.overlap_factor.reset();
  }
  // Schema 1 had one launch list: a record exists when launches were listed or the
  // instrumentation attached (and then recorded them at exit).
  if (!report.processes.empty()) {
    report.processes.front().launches_recorded =
        report.instrumentation.attached || !report.processes.front().launches.sequence.empty();
  }
}

// --- the original probe (and schema 1's launch list) -----------------------------------------

LaunchRecord record_from_flat_list(const json& list) {
  LaunchRecord record;
  if (!list.is_array()) throw FieldError("'launches' must be a list");
  std::size_t index = 0;
  for (const auto& item : list) {
    try {
      record.append(item.get<LaunchSignature>(), get<std::uint64_t>(item, "count", 1));
    } catch (const FieldError& error) {
      throw FieldError("launches[" + std::to_string(index) + "]: " + error.what());
    }
    ++index;
  }
  return record;
}

void name_from_original_label(const std::string& label, ModuleEvent& event) {
  const auto space = label.rfind(' ');
  event.name = space == std::string::npos ? label : label.substr(0, space);
  if (event.hash.empty() && space != std::string::npos) event.hash = label.substr(space + 1);
}

// The original probe: per-sample values only for cold module work and cold wall, warm and
// elapsed medians without values (null when no warm run succeeded), native compile 0.0 on
// CPU runs whose compiler timer it does not recognise, only cold-run events, and launches
// written one per launch with only the dtype-carrying arguments.
void apply_original_probe_conventions(Report& report) {
  report.origin = ReportOrigin::original_probe;
  if (report.native_compile_ms && report.native_compile_ms->median == 0.0 && report.compiled_events > 0) {
    report.native_compile_ms.reset();  // 0.0 there means "not recognised", not "no native compile"
  }
  const bool recorded = !report.processes.empty() && !report.processes.front().launches.sequence.empty();
  report.instrumentation.attached = recorded;
  if (!report.processes.empty()) report.processes.front().launches_recorded = recorded;
}

}  // namespace wcp
