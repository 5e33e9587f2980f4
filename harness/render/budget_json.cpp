#include "render/budget_json.h"

#include "io/json_fields.h"
#include "io/name_table.h"
#include "render/budget_text.h"
#include "render/judgement_json.h"

namespace wcp::render {
namespace {

constexpr NameTable<budget::Verdict, 5> kVerdictWords{{
    {budget::Verdict::pass, "pass"},
    {budget::Verdict::fail, "fail"},
    {budget::Verdict::improved, "improved"},
    {budget::Verdict::accepted, "accepted"},
    {budget::Verdict::not_judged, "not judged"},
}};

constexpr NameTable<budget::Unit, 4> kUnitWords{{
    {budget::Unit::count, "count"},
    {budget::Unit::seconds, "seconds"},
    {budget::Unit::bytes, "bytes"},
    {budget::Unit::units, "reference-units"},
}};

std::string verdict_word(budget::Verdict verdict) {
  return std::string(name_of(kVerdictWords, verdict));
}

std::string unit_word(budget::Unit unit) {
  return std::string(name_of(kUnitWords, unit));
}

nlohmann::json outcome_json(const budget::BudgetOutcome& outcome) {
  using json_fields::or_null;
  nlohmann::json offenders = nlohmann::json::array();
  for (const auto& offender : outcome.offenders) {
    offenders.push_back({{"module", offender.module},
                         {"test", offender.test},
                         {"detail", offender.detail},
                         {"finding", offender_explanation(offender)},
                         {"mechanism", offender.mechanism ? nlohmann::json(std::string(code(*offender.mechanism)))
                                                          : nlohmann::json(nullptr)},
                         {"explanation", offender.explanation},
                         {"fix", offender.fix}});
  }
  nlohmann::json out{{"budget", outcome.budget},
                     {"verdict", verdict_word(outcome.verdict)},
                     {"measured", or_null(outcome.measured)},
                     {"limit", or_null(outcome.limit)},
                     {"unit", unit_word(outcome.unit)},
                     {"note", outcome.note},
                     {"offenders", offenders},
                     {"decided", outcome.decided},
                     {"decided_by", outcome.decided_by}};
  if (outcome.judgement) out["judgement"] = judgement_to_json(*outcome.judgement);
  if (const auto& use = outcome.reference) {
    out["reference"] = {{"kind", std::string(to_string(use->kind))},
                        {"name", use->name},
                        {"description", use->description},
                        {"same_run", use->same_run},
                        {"source", use->source},
                        {"median_ms", use->cost_ms.median},
                        {"mad_ms", or_null(use->cost_ms.mad)},
                        {"samples", use->cost_ms.count},
                        {"units_median", use->units.median},
                        {"units_mad", or_null(use->units.mad)},
                        {"units_values", use->units.values},
                        {"units_band", use->band_units},
                        {"stored_median_ms", or_null(use->stored_ms)},
                        {"drift", or_null(use->drift)}};
  }
  return out;
}

nlohmann::json command_json(const budget::CommandResult& command) {
  nlohmann::json outcomes = nlohmann::json::array();
  for (const auto& outcome : command.outcomes) outcomes.push_back(outcome_json(outcome));
  const char* status = command.not_run ? "not_run" : command.failed() ? "fail" : "pass";
  nlohmann::json json{{"name", command.name}, {"line", command.line},   {"device", to_string(command.device)},
                      {"status", status},     {"notes", command.notes}, {"outcomes", outcomes}};
  if (const auto& sampling = command.sampling) {
    json["sampling"] = {{"mode", sampling->automatic ? "auto" : "fixed"},
                        {"runs", sampling->runs},
                        {"max_runs", sampling->max_runs},
                        {"summary", sampling->summary}};
  }
  if (command.not_run) json["not_run"] = *command.not_run;
  if (command.run_failure) json["run_failure"] = *command.run_failure;
  if (command.since_baseline) json["since_baseline"] = identity_changes_to_json(*command.since_baseline);
  if (command.baseline_written) json["baseline_written"] = command.baseline_written->string();
  if (command.baseline_not_written) json["baseline_not_written"] = *command.baseline_not_written;
  return json;
}

}  // namespace

nlohmann::json budget_result_to_json(const budget::CheckResult& result) {
  nlohmann::json commands = nlohmann::json::array();
  for (const auto& command : result.commands) commands.push_back(command_json(command));
  return {{"file", result.file.string()}, {"passed", !result.failed()}, {"commands", commands}};
}

}  // namespace wcp::render
