#pragma once
// The human-readable calibration report. Every number it prints was computed by the
// calibration; this only lays them out.
#include <iosfwd>

#include "calibrate/calibration.h"

namespace wcp::render {

void render_calibration_text(const calibrate::Calibration& calibration, std::ostream& out);

}  // namespace wcp::render
