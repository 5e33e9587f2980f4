#pragma once
// Where a command's noise comes from when its own samples are too few to measure it
// (stats/noise.h): a history of earlier runs of the same command on this machine (--history
// LOCATION, else WCP_HISTORY), else this machine's calibration, else none. compare, ab, check and
// levers all ask here, so they weigh a change against the same noise.
#include <filesystem>
#include <optional>
#include <string>

#include "calibrate/calibration.h"
#include "history/history_location.h"
#include "history/recorder.h"
#include "io/environment.h"
#include "model/report.h"
#include "stats/noise.h"

namespace wcp {
class InterruptWatch;
}

namespace wcp::history {

class PriorNoise {
 public:
  // `calibration`: an already loaded one (check's); without it the default file is read if it exists.
  PriorNoise(const HistoryChoice& history, const EnvironmentLookup& environment, InterruptWatch& interrupts,
             std::optional<calibrate::Calibration> calibration = std::nullopt,
             std::filesystem::path calibration_source = {});

  // The noise of the command `report` ran, asked once per command and remembered.
  std::optional<Noise> for_report(const Report& report);
  // The same on the CPU clock: from the history's CPU values only, never the calibration (timed
  // on the wall) nor the wall's spread.
  std::optional<Noise> cpu_for_report(const Report& report);

 private:
  std::optional<HistoryLocation> history_;
  std::string machine_class_;  // --machine-class; "" for the default
  InterruptWatch& interrupts_;
  std::optional<calibrate::Calibration> calibration_;
  std::filesystem::path calibration_source_;
  // One clock's answer for the command last asked about.
  struct Remembered {
    std::optional<std::string> command;
    std::optional<Noise> answer;
  };
  std::optional<Noise> noise_of(Remembered& remembered, const Report& report, bool cpu_clock);
  Remembered wall_;
  Remembered cpu_;
};

}  // namespace wcp::history
