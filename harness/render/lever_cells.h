#pragma once
// The values of a measured ledger as its text, Markdown and HTML writers all print them. Every
// number is the ledger's own or results/lever_tally.h's; these only choose the words.
#include <string>

#include "model/lever_outcome.h"
#include "results/lever_tally.h"

namespace wcp::render {

// The answer first: "5 levers measured: 1 saves 120 ms ± 8 cold (backward-off), 1 inside noise,
// 1 needed by this program, 1 did not arrive; 2 not applicable, 1 skipped".
std::string lever_headline(const results::LeverTally& tally);

// How the run was made: "Warp 1.19.0 on cpu, 3 pairs against a measured baseline, 25 runs, 82.4 s".
std::string lever_run_line(const LeverLedger& ledger);

// "1234.5 → 1114.5 ms"; a side not measured is "unavailable" ("1234.5 ms → unavailable").
std::string lever_before_after(const LeverClock& clock);
// "1234.5 → 1114.5 ms (-120.0 ms ± 8.0)", or "unavailable" when neither side was measured.
std::string lever_clock_cell(const LeverClock& clock);
// The judged clock's verdict for a measured lever ("IMPROVED", "not judged"), else its status.
std::string lever_verdict_cell(const LeverOutcome& outcome);
// "~100 ms (estimate) → measured: saves 120.0 ms", "none → measured: inside noise (-3.1 ms ± 9.0)",
// "~100 ms → not measured": a saving only where the judge found one.
std::string lever_prediction_cell(const LeverOutcome& outcome);
// "cold module work" or "compile elapsed".
std::string lever_judged_clock_name(const LeverOutcome& outcome);

}  // namespace wcp::render
