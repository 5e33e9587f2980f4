#include "results/ledger_writer.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "results/lever_option_text.h"
#include "results/lever_tally.h"

namespace wcp::results {
namespace {

std::string ledger_clock_name(const LeverOutcome& outcome) {
  return judged_on_elapsed(outcome) ? "compile elapsed" : "cold module work";
}

// "-120.0 ms cold module work ± 8.0": the change in the lever arm's time, signed as a delta is.
std::string ledger_change_text(const LeverOutcome& outcome) {
  const LeverClock& clock = judged_clock(outcome);
  const auto saving = saving_ms(clock);
  if (!saving) return fmt::format("{} unavailable", ledger_clock_name(outcome));
  return fmt::format("{:+.1f} ms {}{}", -*saving, ledger_clock_name(outcome),
                     clock.band_ms ? fmt::format(" ± {:.1f}", *clock.band_ms) : "");
}

std::string ledger_first_evidence(const LeverOutcome& outcome) {
  if (!outcome.reason.empty()) return outcome.reason;
  return outcome.behaviour_evidence.empty() ? std::string("no evidence recorded") : outcome.behaviour_evidence.front();
}

std::string ledger_measured(const LeverOutcome& outcome) {
  switch (outcome.status) {
    case LeverStatus::needed_by_program:
      return "needed by this program: " + ledger_first_evidence(outcome);
    case LeverStatus::did_not_arrive:
      return "not measured: it did not arrive" + (outcome.reason.empty() ? "" : " (" + outcome.reason + ")");
    case LeverStatus::not_applicable:
    case LeverStatus::skipped:
      return "not measured: " + std::string(status_words(outcome.status));
    case LeverStatus::measured:
      break;
  }
  const std::string verdict = judged_clock(outcome).verdict;
  const std::string change = ledger_change_text(outcome);
  switch (effect_of(outcome)) {
    case LeverEffect::saves:
    case LeverEffect::costs:
      return fmt::format("{} ({})", change, verdict);
    case LeverEffect::inside_noise:
      return fmt::format("inside noise: {} ({})", change, verdict);
    case LeverEffect::undecided:
      return fmt::format("undecided, too few pairs agree: {} ({})", change, verdict);
    case LeverEffect::not_judged:
      break;
  }
  return fmt::format("not judged: {}{}", change, verdict.empty() ? "" : " (" + verdict + ")");
}

// What went wrong with the lever, in the words of its workload check.
std::string ledger_breakage(LeverWorkload workload) {
  switch (workload) {
    case LeverWorkload::program_failed:
      return "the program failed";
    case LeverWorkload::changed:
      return "the program launched something else";
    case LeverWorkload::same:
    case LeverWorkload::not_run:
      break;
  }
  return "its output or --verify changed";
}

std::string ledger_why_not(const LeverOutcome& outcome) {
  switch (outcome.status) {
    case LeverStatus::needed_by_program:
      return "taking it breaks this program: " + ledger_breakage(outcome.workload) +
             (outcome.behaviour_evidence.empty() ? "" : "; " + outcome.behaviour_evidence.front());
    case LeverStatus::did_not_arrive:
      return "it could not be measured from outside the program";
    case LeverStatus::not_applicable:
    case LeverStatus::skipped:
      return outcome.reason.empty() ? std::string(status_words(outcome.status)) : outcome.reason;
    case LeverStatus::measured:
      break;
  }
  const std::string changes =
      outcome.behaviour.empty() || outcome.behaviour == "nothing" ? "" : "; taking it changes " + outcome.behaviour;
  switch (effect_of(outcome)) {
    case LeverEffect::saves:
      return "not taken yet: measured by `levers`" + changes;
    case LeverEffect::costs:
      return "it made compiling slower" + changes;
    case LeverEffect::inside_noise:
      return "no saving beyond the noise on this machine" + changes;
    case LeverEffect::undecided:
      return "not decided: the change left the band, but too few pairs agreed (measure with more --pairs)" + changes;
    case LeverEffect::not_judged:
      break;
  }
  return "its effect could not be judged" + changes;
}

std::string ledger_option(const LeverOutcome& outcome) {
  const std::string option = lever_option_text(outcome.lever);
  return outcome.scope.empty() ? option : fmt::format("{} ({})", option, outcome.scope);
}

}  // namespace

Ledger ledger_from_levers(const LeverLedger& levers) {
  Ledger ledger;
  for (const auto& outcome : levers.outcomes) {
    if (outcome.status == LeverStatus::not_applicable || outcome.status == LeverStatus::skipped) continue;
    ledger.declined.push_back(
        {ledger_option(outcome), ledger_measured(outcome), ledger_why_not(outcome), outcome.take_it});
  }
  return ledger;
}

std::string ledger_to_yaml(const Ledger& ledger) {
  YAML::Emitter out;
  out << YAML::BeginMap << YAML::Key << "declined" << YAML::Value;
  if (ledger.declined.empty()) out << YAML::Flow;
  out << YAML::BeginSeq;
  for (const auto& entry : ledger.declined) {
    out << YAML::BeginMap;
    out << YAML::Key << "option" << YAML::Value << YAML::DoubleQuoted << entry.option;
    out << YAML::Key << "measured" << YAML::Value << YAML::DoubleQuoted << entry.measured;
    out << YAML::Key << "why_not" << YAML::Value << YAML::DoubleQuoted << entry.why_not;
    if (!entry.to_take_it.empty()) {
      out << YAML::Key << "to_take_it" << YAML::Value << YAML::DoubleQuoted << entry.to_take_it;
    }
    out << YAML::EndMap;
  }
  out << YAML::EndSeq << YAML::EndMap;
  // Said once at the top: the file is the tool's, the decisions in it the user's.
  return "# Written by `warp-compile-probe levers` from its measurements (docs/levers-schema.md).\n" +
         std::string(out.c_str()) + "\n";
}

std::string lever_ledger_yaml(const LeverLedger& levers) {
  return ledger_to_yaml(ledger_from_levers(levers));
}

}  // namespace wcp::results
