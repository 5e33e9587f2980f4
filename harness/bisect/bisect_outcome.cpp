#include "bisect/bisect_outcome.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "io/name_table.h"

namespace wcp::bisect {
namespace {

constexpr int kCheckUsage = 2;
constexpr int kCheckInternal = 3;
constexpr int kCheckNotRun = 77;

StepDecision aborted(std::string reason, int exit_code) {
  return {StepOutcome::abort, std::move(reason),
          exit_code == kCheckUsage || exit_code == kCheckInternal || exit_code == kCheckNotRun ? exit_code
                                                                                               : kCheckInternal};
}

std::string number(const nlohmann::json& value) {
  if (!value.is_number()) return "?";
  const double x = value.get<double>();
  return x == static_cast<double>(static_cast<long long>(x)) ? fmt::format("{}", static_cast<long long>(x))
                                                             : fmt::format("{:.3g}", x);
}

std::string text(const nlohmann::json& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : std::string();
}

constexpr NameTable<StepOutcome, 4> kStepOutcomes{{
    {StepOutcome::good, "good"},
    {StepOutcome::bad, "bad"},
    {StepOutcome::skip, "skip"},
    {StepOutcome::abort, "abort"},
}};

}  // namespace

std::string_view to_string(StepOutcome outcome) {
  return name_of(kStepOutcomes, outcome);
}

std::optional<StepOutcome> step_outcome_from(std::string_view word) {
  return value_named(kStepOutcomes, word);
}

int git_exit_code(StepOutcome outcome) {
  switch (outcome) {
    case StepOutcome::good:
      return 0;
    case StepOutcome::bad:
      return 1;
    case StepOutcome::skip:
      return 125;
    case StepOutcome::abort:
      return 128;
  }
  return 128;
}

StepDecision decide_step(int check_exit_code, const std::optional<std::string>& check_json) {
  switch (check_exit_code) {
    case kCheckUsage:
      return aborted("check exited 2: usage or configuration error (the budget file or its setup)", 2);
    case kCheckInternal:
      return aborted("check exited 3: internal error in warp-compile-probe", 3);
    case kCheckNotRun:
      return aborted("check exited 77: nothing ran (every selected command needs a missing device)", 77);
    default:
      break;
  }
  if (check_exit_code != 0 && check_exit_code != 1) {
    return aborted(fmt::format("check exited {} (killed or interrupted)", check_exit_code), check_exit_code);
  }
  if (!check_json)
    return aborted(fmt::format("check exited {} and wrote no JSON result", check_exit_code), kCheckInternal);
  const auto json = nlohmann::json::parse(*check_json, nullptr, false);
  if (json.is_discarded() || !json.is_object() || !json.contains("commands") || !json["commands"].is_array()) {
    return aborted("check's JSON result is unreadable (no \"commands\" array)", kCheckInternal);
  }

  std::vector<std::string> failed;
  std::vector<std::string> unmeasured;
  int evaluated = 0;
  for (const auto& command : json["commands"]) {
    if (!command.is_object()) continue;
    const std::string name = text(command, "name");
    if (command.contains("not_run")) continue;
    ++evaluated;
    if (command.contains("run_failure"))
      unmeasured.push_back(fmt::format("{}: {}", name, text(command, "run_failure")));
    const auto outcomes = command.find("outcomes");
    if (outcomes == command.end() || !outcomes->is_array()) continue;
    for (const auto& outcome : *outcomes) {
      if (!outcome.is_object() || text(outcome, "verdict") != "fail") continue;
      const auto measured = outcome.find("measured");
      const auto limit = outcome.find("limit");
      failed.push_back(measured != outcome.end() && limit != outcome.end() && measured->is_number() &&
                               limit->is_number()
                           ? fmt::format("{} {} (measured {}, limit {})", name, text(outcome, "budget"),
                                         number(*measured), number(*limit))
                           : fmt::format("{} {}", name, text(outcome, "budget")));
    }
  }
  if (evaluated == 0) return aborted("check ran no command (every selected command was not run)", kCheckNotRun);
  if (!failed.empty()) return {StepOutcome::bad, fmt::format("budget failed: {}", fmt::join(failed, "; ")), 0};
  if (!unmeasured.empty()) return {StepOutcome::skip, fmt::format("{}", fmt::join(unmeasured, "; ")), 0};
  return {StepOutcome::good, "every budget passed", 0};
}

}  // namespace wcp::bisect
