#pragma once
// Runs the calibration: every fixture compiled once to warm up (discarded), then `samples`
// rounds over all fixtures. Rounds interleave the fixtures rather than finishing one before
// the next, so a slow patch on a shared machine spreads over every fixture instead of
// skewing one point of the fit.
#include <filesystem>
#include <functional>
#include <string>

#include "calibrate/calibration.h"
#include "calibrate/calibration_fixtures.h"
#include "calibrate/gpu_target.h"
#include "calibrate/nvrtc_library.h"

namespace wcp {
class InterruptWatch;
}

namespace wcp::calibrate {

struct CalibrationInputs {
  GpuTarget target;
  std::filesystem::path warp_native_dir;
  FixtureTexts fixtures;
  int samples = 5;
};

using ProgressSink = std::function<void(const std::string& line)>;

// Throws RunError when a fixture fails to compile (with NVRTC's log) or the target is
// unusable; Interrupted when `interrupts` (may be null) reports a signal between compiles.
// The result's machine, tool_version, created_at and wall_ms are filled in too.
Calibration run_calibration(const NvrtcLibrary& nvrtc, const CalibrationInputs& inputs, const ProgressSink& progress,
                            InterruptWatch* interrupts);

}  // namespace wcp::calibrate
