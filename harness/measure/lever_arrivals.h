#pragma once
// What the probe said about the levers of a run (WCP_PROBE_LEVERS, docs/instrumentation.md,
// "Levers"), per lever over the processes of one pass: the Report's `lever_arrivals`.
#include <vector>

#include "measure/sample_runner.h"
#include "model/lever.h"

namespace wcp::measure {

// One LeverArrival per lever id, in the order the probe first wrote them (its set-up records
// follow the WCP_PROBE_LEVERS list). Status: the worst any process said (failed over
// not_applicable over applied); modules in the order first reached; calls summed over the
// processes, each process's tally where its bounded records stop short. Empty when no process
// wrote a lever record.
std::vector<LeverArrival> lever_arrivals_of(const PassRecord& pass);

}  // namespace wcp::measure
