#pragma once
// What a measured ledger (model/lever_outcome.h) comes to, computed once for every writer: each
// lever's saving on the clock it is judged on, and the tally its answer line states ("5 levers
// measured: 1 saves 120 ms ± 8 cold (backward-off), 1 needed by this program, ..."). The text,
// Markdown, HTML and YAML writers only lay these out.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/lever_outcome.h"

namespace wcp::results {

// The clock whose verdict counts for this lever: compile elapsed when it says so (scheduling
// levers), cold module work otherwise.
const LeverClock& judged_clock(const LeverOutcome& outcome);
bool judged_on_elapsed(const LeverOutcome& outcome);

// How much faster the lever arm was on this clock: -delta_ms (the judge's median paired delta),
// or before - after when the judge kept no delta; absent when either side was not measured.
// Negative when the lever made it slower.
std::optional<double> saving_ms(const LeverClock& clock);

// What a lever's judged clock says. Only a measured lever has one; any other is not_judged.
enum class LeverEffect {
  saves,         // the judge said IMPROVED
  costs,         // the judge said REGRESSION
  inside_noise,  // judged, and neither (INCONCLUSIVE, within the band)
  undecided,     // INCONCLUSIVE beyond the band: too few pairs agreed for the sign test
  not_judged,    // no verdict: a clock unavailable, UNVERIFIED, or the lever not measured
};
LeverEffect effect_of(const LeverOutcome& outcome);

// One lever's effect as the answer line states it.
struct LeverSaving {
  std::string id;
  std::optional<double> saving_ms;  // on the judged clock; positive when faster
  std::optional<double> band_ms;
  bool on_elapsed = false;  // judged on compile elapsed, else cold module work
};

struct LeverTally {
  std::vector<LeverSaving> saves;  // largest saving first
  std::vector<LeverSaving> costs;  // largest cost first
  int inside_noise = 0;
  int undecided = 0;   // beyond the band, but too few pairs agreed (more --pairs may decide)
  int not_judged = 0;  // measured, but no verdict on the clock it is judged on
  int needed = 0;
  int did_not_arrive = 0;
  int not_applicable = 0;
  int skipped = 0;
  // Levers that were run: measured, needed by the program, or that did not arrive.
  int run() const;
};

LeverTally tally(const LeverLedger& ledger);

// Whether its runs were taken: measured, needed by the program, or did not arrive (its clocks
// then hold what was measured; a lever not applicable or skipped has none).
bool was_run(const LeverOutcome& outcome);

// Plain words for the text, Markdown, HTML and YAML ledgers.
std::string_view status_words(LeverStatus status);        // "measured", "needed by this program", ...
std::string_view workload_words(LeverWorkload workload);  // "same", "changed", "program failed", "not run"

}  // namespace wcp::results
