#include "results/lever_tally.h"

#include <algorithm>
#include <initializer_list>

namespace wcp::results {
namespace {

// The judge's verdict name, however the producer spelled it: a Verdict ("IMPROVED") or a
// Direction ("improved", "regressed", "within noise"), in any case.
bool lever_verdict_is(const std::string& verdict, std::initializer_list<std::string_view> names) {
  std::string lower;
  for (const char c : verdict) lower.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
  return std::find(names.begin(), names.end(), lower) != names.end();
}

LeverSaving lever_saving_of(const LeverOutcome& outcome) {
  const LeverClock& clock = judged_clock(outcome);
  return {outcome.lever.id, saving_ms(clock), clock.band_ms, judged_on_elapsed(outcome)};
}

}  // namespace

bool judged_on_elapsed(const LeverOutcome& outcome) {
  return outcome.judged_on == "compile elapsed";
}

const LeverClock& judged_clock(const LeverOutcome& outcome) {
  return judged_on_elapsed(outcome) ? outcome.compile_elapsed : outcome.cold_module;
}

std::optional<double> saving_ms(const LeverClock& clock) {
  if (clock.delta_ms) return -*clock.delta_ms;
  if (clock.before_ms && clock.after_ms) return *clock.before_ms - *clock.after_ms;
  return std::nullopt;
}

LeverEffect effect_of(const LeverOutcome& outcome) {
  if (outcome.status != LeverStatus::measured) return LeverEffect::not_judged;
  const LeverClock& clock = judged_clock(outcome);
  if (!saving_ms(clock)) return LeverEffect::not_judged;
  if (lever_verdict_is(clock.verdict, {"improved"})) return LeverEffect::saves;
  if (lever_verdict_is(clock.verdict, {"regression", "regressed"})) return LeverEffect::costs;
  if (lever_verdict_is(clock.verdict, {"inconclusive", "within noise", "within band", "within_band"})) {
    // The judge says INCONCLUSIVE both inside the band and when the sign test held it back.
    const double size = *saving_ms(clock) < 0.0 ? -*saving_ms(clock) : *saving_ms(clock);
    return clock.band_ms && size > *clock.band_ms ? LeverEffect::undecided : LeverEffect::inside_noise;
  }
  return LeverEffect::not_judged;  // "", UNVERIFIED, INVALID, unavailable
}

bool was_run(const LeverOutcome& outcome) {
  return outcome.status == LeverStatus::measured || outcome.status == LeverStatus::needed_by_program ||
         outcome.status == LeverStatus::did_not_arrive;
}

int LeverTally::run() const {
  return static_cast<int>(saves.size() + costs.size()) + inside_noise + undecided + not_judged + needed +
         did_not_arrive;
}

LeverTally tally(const LeverLedger& ledger) {
  LeverTally tally;
  for (const auto& outcome : ledger.outcomes) {
    switch (outcome.status) {
      case LeverStatus::measured:
        switch (effect_of(outcome)) {
          case LeverEffect::saves:
            tally.saves.push_back(lever_saving_of(outcome));
            break;
          case LeverEffect::costs:
            tally.costs.push_back(lever_saving_of(outcome));
            break;
          case LeverEffect::inside_noise:
            ++tally.inside_noise;
            break;
          case LeverEffect::undecided:
            ++tally.undecided;
            break;
          case LeverEffect::not_judged:
            ++tally.not_judged;
            break;
        }
        break;
      case LeverStatus::needed_by_program:
        ++tally.needed;
        break;
      case LeverStatus::did_not_arrive:
        ++tally.did_not_arrive;
        break;
      case LeverStatus::not_applicable:
        ++tally.not_applicable;
        break;
      case LeverStatus::skipped:
        ++tally.skipped;
        break;
    }
  }
  // saving_ms is set on both lists (effect_of requires it).
  std::stable_sort(tally.saves.begin(), tally.saves.end(),
                   [](const auto& a, const auto& b) { return a.saving_ms.value_or(0.0) > b.saving_ms.value_or(0.0); });
  std::stable_sort(tally.costs.begin(), tally.costs.end(),
                   [](const auto& a, const auto& b) { return a.saving_ms.value_or(0.0) < b.saving_ms.value_or(0.0); });
  return tally;
}

std::string_view status_words(LeverStatus status) {
  switch (status) {
    case LeverStatus::measured:
      return "measured";
    case LeverStatus::needed_by_program:
      return "needed by this program";
    case LeverStatus::did_not_arrive:
      return "did not arrive";
    case LeverStatus::not_applicable:
      return "not applicable";
    case LeverStatus::skipped:
      return "skipped";
  }
  return "";
}

std::string_view workload_words(LeverWorkload workload) {
  switch (workload) {
    case LeverWorkload::same:
      return "same";
    case LeverWorkload::changed:
      return "changed";
    case LeverWorkload::program_failed:
      return "program failed";
    case LeverWorkload::not_run:
      return "not run";
  }
  return "";
}

}  // namespace wcp::results
