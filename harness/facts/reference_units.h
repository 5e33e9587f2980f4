#pragma once
// Cold units: a command's cold module work divided by the machine reference (model/reference.h).
// Paired sample by sample when the reference was measured in the same run; against one stored
// cost when it was not (the fallback, blind to the load the run saw).
#include <optional>
#include <vector>

#include "model/reference.h"
#include "model/report.h"

namespace wcp {

// One value per command sample that has both a cold module work and a reference partner
// (matched by sample index): cold_module_ms / partner cost. In command-sample order. A sample
// whose partner failed has no units (the others keep theirs); a successful sample without cold
// module work makes the whole figure unavailable, as it does for the report's own median.
std::optional<Summary> paired_cold_units(const std::vector<SampleResult>& samples,
                                         const std::vector<ReferenceSample>& references);

// The same, against one fixed reference cost (a stored calibration's): it cannot follow the
// load the run saw, so it is the fallback.
std::optional<Summary> cold_units_against(const std::vector<SampleResult>& samples, double reference_ms);

// Fills cost_ms and cold_units from the samples and the command's sample results.
void finish_reference(MachineReference& reference, const std::vector<SampleResult>& samples);

// Which reference a run is normalised by: NVRTC when any module loaded on a CUDA device (Warp
// compiles CUDA modules with NVRTC), else Warp's CPU backend. The same rule as backend_of().
ReferenceKind reference_kind_for(const Report& report);

// The noise band of a units summary, by the one rule every clock uses (stats/summary.h):
// max(1 % of the median, 2 × MAD).
double units_band(const Summary& units);

}  // namespace wcp
