#pragma once
// The machine's compile noise as its calibration measured it: the spread of the reference
// build (the same fixed compile, run several times). The second source of a noise model, after
// a history of the command itself (stats/noise.h).
#include <filesystem>
#include <optional>

#include "calibrate/calibration.h"
#include "model/reference.h"
#include "stats/noise.h"

namespace wcp::calibrate {

// nullopt when the calibration has no such reference or too few samples to measure a spread.
std::optional<Noise> calibration_noise(const Calibration& calibration, ReferenceKind kind,
                                       const std::filesystem::path& source);

}  // namespace wcp::calibrate
