#include "render/lever_cells.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "io/units.h"

namespace wcp::render {
namespace {

// A band on the scale of the saving it qualifies: whole ms when the saving is (milliseconds_text
// drops the tenths from 10 ms), tenths below.
std::string lever_band_number(double band_ms, double saving_ms) {
  return saving_ms >= 10.0 ? fmt::format("{:.0f}", band_ms) : fmt::format("{:.1f}", band_ms);
}

// "120 ms ± 8 cold (backward-off)"
std::string lever_saving_phrase(const results::LeverSaving& saving) {
  const double ms = saving.saving_ms.value_or(0.0);  // set for every saving the tally lists
  const double size = ms < 0.0 ? -ms : ms;
  return fmt::format("{}{} {} ({})", milliseconds_text(size),
                     saving.band_ms ? " ± " + lever_band_number(*saving.band_ms, size) : "",
                     saving.on_elapsed ? "elapsed" : "cold", saving.id);
}

std::string lever_savings_phrase(const std::vector<results::LeverSaving>& savings, const char* one, const char* many,
                                 const char* after) {
  constexpr std::size_t kNamed = 3;
  std::vector<std::string> phrases;
  for (std::size_t i = 0; i < savings.size() && i < kNamed; ++i) phrases.push_back(lever_saving_phrase(savings[i]));
  std::string text =
      fmt::format("{} {} {}{}", savings.size(), savings.size() == 1 ? one : many, fmt::join(phrases, ", "), after);
  if (savings.size() > kNamed) text += fmt::format(" and {} more", savings.size() - kNamed);
  return text;
}

std::string lever_ms_number(const std::optional<double>& ms) {
  return ms ? fmt::format("{:.1f}", *ms) : "unavailable";
}

}  // namespace

std::string lever_headline(const results::LeverTally& tally) {
  std::vector<std::string> run;
  if (!tally.saves.empty()) run.push_back(lever_savings_phrase(tally.saves, "saves", "save:", ""));
  if (!tally.costs.empty()) run.push_back(lever_savings_phrase(tally.costs, "costs", "cost:", " more"));
  const auto count = [&run](int n, const char* words) {
    if (n > 0) run.push_back(fmt::format("{} {}", n, words));
  };
  count(tally.inside_noise, "inside noise");
  count(tally.undecided, "undecided (beyond the band, too few pairs agree: more --pairs)");
  count(tally.not_judged, "not judged (a clock unavailable)");
  count(tally.needed, "needed by this program");
  count(tally.did_not_arrive, "did not arrive");
  std::vector<std::string> not_run;
  if (tally.not_applicable > 0) not_run.push_back(fmt::format("{} not applicable", tally.not_applicable));
  if (tally.skipped > 0) not_run.push_back(fmt::format("{} skipped", tally.skipped));

  const int measured = tally.run();
  std::string text =
      measured == 0 ? std::string("No lever was measured")
                    : fmt::format("{} lever{} measured: {}", measured, measured == 1 ? "" : "s", fmt::join(run, ", "));
  if (!not_run.empty()) text += fmt::format("{}{}", measured == 0 ? ": " : "; ", fmt::join(not_run, ", "));
  return text;
}

std::string lever_run_line(const LeverLedger& ledger) {
  std::vector<std::string> parts;
  parts.push_back(fmt::format("Warp {} on {}", ledger.warp_version.empty() ? "(version unknown)" : ledger.warp_version,
                              ledger.device.empty() ? "an unknown device" : ledger.device));
  const std::string baseline = ledger.baseline_source.empty() || ledger.baseline_source == "measured"
                                   ? std::string("a measured baseline")
                                   : "the baseline " + ledger.baseline_source;
  parts.push_back(fmt::format("{} pair{}{} against {}", ledger.pairs, ledger.pairs == 1 ? "" : "s",
                              ledger.pairs_automatic ? " (--pairs auto: each lever until decided)" : "", baseline));
  parts.push_back(fmt::format("{} run{}", ledger.runs_planned, ledger.runs_planned == 1 ? "" : "s"));
  if (ledger.wall_s > 0.0) parts.push_back(fmt::format("{:.1f} s", ledger.wall_s));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string lever_before_after(const LeverClock& clock) {
  if (!clock.before_ms && !clock.after_ms) return "unavailable";
  if (!clock.after_ms) return fmt::format("{:.1f} ms → unavailable", *clock.before_ms);
  return fmt::format("{} → {:.1f} ms", lever_ms_number(clock.before_ms), *clock.after_ms);
}

std::string lever_clock_cell(const LeverClock& clock) {
  std::string text = lever_before_after(clock);
  if (clock.delta_ms) {
    text +=
        fmt::format(" ({:+.1f} ms{})", *clock.delta_ms, clock.band_ms ? fmt::format(" ± {:.1f}", *clock.band_ms) : "");
  }
  return text;
}

std::string lever_verdict_cell(const LeverOutcome& outcome) {
  if (outcome.status != LeverStatus::measured) return std::string(results::status_words(outcome.status));
  const std::string& verdict = results::judged_clock(outcome).verdict;
  return verdict.empty() ? std::string("not judged") : verdict;
}

std::string lever_prediction_cell(const LeverOutcome& outcome) {
  const std::string predicted = outcome.predicted_saving_ms
                                    ? fmt::format("{}{}", outcome.prediction_estimated ? "~" : "",
                                                  whole_milliseconds_text(*outcome.predicted_saving_ms)) +
                                          (outcome.prediction_estimated ? " (estimate)" : "")
                                    : std::string("none");
  const LeverClock& clock = results::judged_clock(outcome);
  const auto saving = results::saving_ms(clock);
  const double size = saving ? (*saving < 0.0 ? -*saving : *saving) : 0.0;  // read only when saving is set
  std::string measured = "not measured";
  switch (results::effect_of(outcome)) {
    case results::LeverEffect::saves:
      measured = fmt::format("measured: saves {:.1f} ms", size);
      break;
    case results::LeverEffect::costs:
      measured = fmt::format("measured: costs {:.1f} ms", size);
      break;
    case results::LeverEffect::inside_noise:
      measured = fmt::format("measured: inside noise ({:+.1f} ms{})", -*saving,
                             clock.band_ms ? fmt::format(" ± {:.1f}", *clock.band_ms) : "");
      break;
    case results::LeverEffect::undecided:
      measured = fmt::format("measured: undecided ({:+.1f} ms{}, too few pairs agree)", -*saving,
                             clock.band_ms ? fmt::format(", band ± {:.1f}", *clock.band_ms) : "");
      break;
    case results::LeverEffect::not_judged:
      if (outcome.status == LeverStatus::measured) measured = "measured, not judged";
      break;
  }
  return predicted + " → " + measured;
}

std::string lever_judged_clock_name(const LeverOutcome& outcome) {
  return results::judged_on_elapsed(outcome) ? "compile elapsed" : "cold module work";
}

}  // namespace wcp::render
