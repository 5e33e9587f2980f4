#pragma once
// `measure` with the machine reference interleaved: command sample 1, reference sample 1,
// command sample 2, reference sample 2, … so each pair runs back to back under the same load,
// and cold units are taken pair by pair (facts/reference_units.h). Which reference is decided
// by the first command sample that succeeded (NVRTC when it loaded modules on CUDA, else
// Warp's CPU backend), unless the caller fixes it.
#include <optional>
#include <string>

#include "measure/measure.h"
#include "measure/measure_options.h"
#include "measure/progress.h"
#include "model/report.h"
#include "reference/nvrtc_reference.h"

namespace wcp {
class InterruptWatch;
}

namespace wcp::reference {

struct ReferenceSetup {
  std::string python;  // runs the Warp CPU reference; tells NVRTC where Warp's headers are
  std::optional<ReferenceKind> kind;  // fixed by the caller; else from the first sample
};

// Throws UsageError, before anything runs, when the reference's interpreter cannot be found.
void validate(const ReferenceSetup& setup);

// As measure::measure_with_trace, plus report.reference. A reference that cannot be set up (no NVRTC, no
// Warp for the interpreter) does not stop the measurement: report.reference then says why in
// `unavailable`, and has no cost and no units.
// `stop` sees the samples so far with the reference taken beside them.
measure::Measurement measure_with_reference(const measure::MeasureOptions& options, const ReferenceSetup& setup,
                                            InterruptWatch& interrupts, measure::ProgressListener& progress,
                                            const measure::StopSampling& stop = {});

}  // namespace wcp::reference
