#include "codec/lever_ledger_json.h"

#include <array>
#include <utility>

#include <fmt/format.h>

#include "codec/document_kind.h"
#include "codec/json_codec.h"
#include "errors.h"
#include "io/file_io.h"
#include "io/name_table.h"
#include "model/report.h"

namespace wcp {
namespace {

// The names the document uses for each enum, in one table each so writing and reading agree.
constexpr NameTable<LeverStatus, 5> kLedgerStatuses{{{LeverStatus::measured, "measured"},
                                                     {LeverStatus::needed_by_program, "needed_by_program"},
                                                     {LeverStatus::did_not_arrive, "did_not_arrive"},
                                                     {LeverStatus::not_applicable, "not_applicable"},
                                                     {LeverStatus::skipped, "skipped"}}};
constexpr NameTable<LeverWorkload, 4> kLedgerWorkloads{{{LeverWorkload::same, "same"},
                                                        {LeverWorkload::changed, "changed"},
                                                        {LeverWorkload::program_failed, "program_failed"},
                                                        {LeverWorkload::not_run, "not_run"}}};

template <typename Enum, std::size_t N>
std::string ledger_name_of(const NameTable<Enum, N>& table, Enum value) {
  return std::string(name_of(table, value));
}

template <typename Enum, std::size_t N>
Enum ledger_read_name(const NameTable<Enum, N>& table, const json& in, std::string_view key, Enum fallback) {
  const auto text = get_optional<std::string>(in, key);
  if (!text) return fallback;
  if (const auto value = value_named(table, *text)) return *value;
  throw FieldError("field '" + std::string(key) + "' is '" + *text + "' (known: " + known_names(table) + ")");
}

// A string that only says "none" when empty is written as null, so a reader never mistakes it for a value.
json ledger_text_or_null(const std::string& text) {
  return text.empty() ? json(nullptr) : json(text);
}

json ledger_clock_to_json(const LeverClock& clock) {
  return {{"before_ms", or_null(clock.before_ms)},         {"after_ms", or_null(clock.after_ms)},
          {"delta_ms", or_null(clock.delta_ms)},           {"band_ms", or_null(clock.band_ms)},
          {"verdict", ledger_text_or_null(clock.verdict)}, {"detail", ledger_text_or_null(clock.detail)}};
}

LeverClock ledger_clock_from_json(const json& in, std::string_view key) {
  LeverClock clock;
  const auto found = in.find(key);
  if (found == in.end() || found->is_null()) return clock;
  if (!found->is_object()) throw FieldError("field '" + std::string(key) + "' must be an object");
  try {
    clock.before_ms = get_optional<double>(*found, "before_ms");
    clock.after_ms = get_optional<double>(*found, "after_ms");
    clock.delta_ms = get_optional<double>(*found, "delta_ms");
    clock.band_ms = get_optional<double>(*found, "band_ms");
    clock.verdict = get<std::string>(*found, "verdict", "");
    clock.detail = get<std::string>(*found, "detail", "");
  } catch (const FieldError& error) {
    throw FieldError(std::string(key) + ": " + error.what());
  }
  return clock;
}

json ledger_lever_to_json(const Lever& lever) {
  json kernels = json::array();
  for (const auto& kernel : lever.kernels) kernels.push_back({{"qualname", kernel.qualname}, {"file", kernel.file}});
  // The value as JSON itself, so a reader need not parse a string; the text is kept beside it.
  json value = nullptr;
  if (!lever.value_json.empty()) {
    value = json::parse(lever.value_json, nullptr, /*allow_exceptions=*/false);
    if (value.is_discarded()) value = nullptr;
  }
  return {{"id", lever.id},
          {"kind", ledger_name_of(kLeverKindNames, lever.kind)},
          {"name", lever.name},
          {"value", value},
          {"value_json", ledger_text_or_null(lever.value_json)},
          {"modules", lever.modules},
          {"kernels", kernels},
          {"mechanism", lever.mechanism ? json(std::string(code(*lever.mechanism))) : json(nullptr)},
          {"changes_numerics", lever.changes_numerics},
          {"cuda_only", lever.cuda_only}};
}

Lever ledger_lever_from_json(const json& in) {
  if (!in.is_object()) throw FieldError("field 'lever' must be an object");
  Lever lever;
  lever.id = get<std::string>(in, "id", "");
  if (lever.id.empty()) throw FieldError("lever: field 'id' is missing");
  lever.kind = ledger_read_name(kLeverKindNames, in, "kind", LeverKind::config);
  lever.name = get<std::string>(in, "name", "");
  lever.value_json = get<std::string>(in, "value_json", "");
  lever.modules = get<std::vector<std::string>>(in, "modules", {});
  json_fields::each(in, "kernels", [&](const json& item, std::size_t) {
    lever.kernels.push_back({get<std::string>(item, "qualname", ""), get<std::string>(item, "file", "")});
  });
  if (const auto mechanism = get_optional<std::string>(in, "mechanism")) {
    lever.mechanism = mechanism_from_code(*mechanism);
    if (!lever.mechanism) throw FieldError("lever: unknown mechanism '" + *mechanism + "'");
  }
  lever.changes_numerics = get<bool>(in, "changes_numerics", false);
  lever.cuda_only = get<bool>(in, "cuda_only", false);
  return lever;
}

json ledger_outcome_to_json(const LeverOutcome& outcome) {
  return {{"lever", ledger_lever_to_json(outcome.lever)},
          {"status", ledger_name_of(kLedgerStatuses, outcome.status)},
          {"reason", ledger_text_or_null(outcome.reason)},
          {"scope", ledger_text_or_null(outcome.scope)},
          {"owner", ledger_text_or_null(outcome.owner)},
          {"arrival", ledger_text_or_null(outcome.arrival)},
          {"cold_module", ledger_clock_to_json(outcome.cold_module)},
          {"compile_elapsed", ledger_clock_to_json(outcome.compile_elapsed)},
          {"judged_on", ledger_text_or_null(outcome.judged_on)},
          {"behaviour", ledger_text_or_null(outcome.behaviour)},
          {"workload", ledger_name_of(kLedgerWorkloads, outcome.workload)},
          {"behaviour_evidence", outcome.behaviour_evidence},
          {"predicted_saving_ms", or_null(outcome.predicted_saving_ms)},
          {"prediction_estimated", outcome.prediction_estimated},
          {"take_it", ledger_text_or_null(outcome.take_it)},
          {"decided_by", ledger_text_or_null(outcome.decided_by)}};
}

LeverOutcome ledger_outcome_from_json(const json& in) {
  if (!in.is_object()) throw FieldError("expected an object");
  LeverOutcome outcome;
  const auto lever = in.find("lever");
  if (lever == in.end()) throw FieldError("field 'lever' is missing");
  outcome.lever = ledger_lever_from_json(*lever);
  outcome.status = ledger_read_name(kLedgerStatuses, in, "status", LeverStatus::not_applicable);
  if (!json_fields::has(in, "status")) throw FieldError("field 'status' is missing");
  outcome.reason = get<std::string>(in, "reason", "");
  outcome.scope = get<std::string>(in, "scope", "");
  outcome.owner = get<std::string>(in, "owner", "");
  outcome.arrival = get<std::string>(in, "arrival", "");
  outcome.cold_module = ledger_clock_from_json(in, "cold_module");
  outcome.compile_elapsed = ledger_clock_from_json(in, "compile_elapsed");
  outcome.judged_on = get<std::string>(in, "judged_on", "");
  outcome.behaviour = get<std::string>(in, "behaviour", "");
  outcome.workload = ledger_read_name(kLedgerWorkloads, in, "workload", LeverWorkload::not_run);
  outcome.behaviour_evidence = get<std::vector<std::string>>(in, "behaviour_evidence", {});
  outcome.predicted_saving_ms = get_optional<double>(in, "predicted_saving_ms");
  outcome.prediction_estimated = get<bool>(in, "prediction_estimated", false);
  outcome.take_it = get<std::string>(in, "take_it", "");
  outcome.decided_by = get<std::string>(in, "decided_by", "");
  return outcome;
}

void read_ledger_document(const json& document, LeverLedger& ledger) {
  if (const DocumentKind kind = identify_document(document); kind != DocumentKind::levers) {
    throw FieldError(fmt::format("{}, not a `levers --json` document", describe(kind)));
  }
  // A ledger names its own version since the report's schema 14; before, it carried only the
  // report schema it was written with (7 to 13), and a later one may mean changed fields.
  if (const auto version = get_optional<int>(document, "version")) {
    if (*version < 1 || *version > document_version(DocumentKind::levers)) {
      throw FieldError(fmt::format("unsupported levers version {} (this tool reads up to {})", *version,
                                   document_version(DocumentKind::levers)));
    }
  } else {
    const auto schema = get_optional<int>(document, "schema_version");
    if (!schema || *schema < 1 || *schema > kReportSchemaVersion) {
      throw FieldError("unsupported schema_version " + (schema ? std::to_string(*schema) : std::string("(none)")) +
                       " (this tool reads up to " + std::to_string(kReportSchemaVersion) + ")");
    }
  }
  ledger.command = get<std::vector<std::string>>(document, "command", {});
  ledger.cwd = get<std::string>(document, "cwd", "");
  ledger.warp_version = get<std::string>(document, "warp_version", "");
  ledger.device = get<std::string>(document, "device", "");
  ledger.pairs = get<int>(document, "pairs", 0);
  ledger.pairs_automatic = get<std::string>(document, "pairs_mode", "fixed") == "auto";
  ledger.baseline_source = get<std::string>(document, "baseline_source", "");
  ledger.runs_planned = get<int>(document, "runs_planned", 0);
  ledger.wall_s = get<double>(document, "wall_s", 0.0);
  json_fields::each(document, "outcomes",
                    [&](const json& item, std::size_t) { ledger.outcomes.push_back(ledger_outcome_from_json(item)); });
}

}  // namespace

json lever_ledger_to_json(const LeverLedger& ledger) {
  json outcomes = json::array();
  for (const auto& outcome : ledger.outcomes) outcomes.push_back(ledger_outcome_to_json(outcome));
  // `schema_version` is the report schema of this tool that wrote it (a reader of schema 13 and
  // earlier checked it); the ledger's own version is `version`.
  return as_document(DocumentKind::levers, {{"schema_version", kReportSchemaVersion},
                                            {"kind", "levers"},
                                            {"command", ledger.command},
                                            {"cwd", ledger.cwd},
                                            {"warp_version", ledger_text_or_null(ledger.warp_version)},
                                            {"device", ledger_text_or_null(ledger.device)},
                                            {"pairs", ledger.pairs},
                                            {"pairs_mode", ledger.pairs_automatic ? "auto" : "fixed"},
                                            {"baseline_source", ledger_text_or_null(ledger.baseline_source)},
                                            {"runs_planned", ledger.runs_planned},
                                            {"wall_s", ledger.wall_s},
                                            {"outcomes", outcomes}});
}

std::string lever_ledger_to_json_text(const LeverLedger& ledger) {
  return lever_ledger_to_json(ledger).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

LeverLedger lever_ledger_from_json(const json& document, std::string_view source) {
  if (!document.is_object()) throw UsageError(std::string(source) + ": a levers document must be a JSON object");
  LeverLedger ledger;
  try {
    read_ledger_document(document, ledger);
  } catch (const FieldError& error) {
    throw UsageError(std::string(source) + ": " + error.what());
  } catch (const json::exception& error) {
    throw UsageError(std::string(source) + ": " + error.what());
  }
  return ledger;
}

LeverLedger load_lever_ledger(const std::string& path) {
  const json document = json::parse(read_text_file(path, "levers document"), nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) throw UsageError(path + ": not valid JSON");
  return lever_ledger_from_json(document, path);
}

}  // namespace wcp
