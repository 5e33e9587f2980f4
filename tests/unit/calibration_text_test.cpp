// The calibration's text (render/calibration_text.h): a stored reference's spread is shown only
// where it was measured; a MAD that was not kept is "unavailable", never 0 %.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "calibrate/calibration.h"
#include "render/calibration_text.h"

namespace wcp::render {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string text_with_reference(const Summary& cost) {
  calibrate::Calibration calibration;
  calibration.warp_cpu.emplace();
  calibration.warp_cpu->reference = calibrate::StoredReference{"warp-cpu", "a small Warp CPU module", cost};
  std::ostringstream out;
  render_calibration_text(calibration, out);
  return out.str();
}

TEST(CalibrationText, AReferenceWithAMeasuredSpreadShowsIt) {
  const std::string text = text_with_reference(*summarize({100.0, 110.0, 90.0, 105.0, 95.0}));
  EXPECT_THAT(text, HasSubstr("Reference for cold_units: a small Warp CPU module — 100.0 ms, MAD 5.0 (5.0%) over 5 "
                              "sample(s)"));
}

TEST(CalibrationText, AReferenceWithoutAMadSaysSoInsteadOfZero) {
  Summary median_only;
  median_only.median = 100.0;
  median_only.count = 5;
  const std::string text = text_with_reference(median_only);
  EXPECT_THAT(text, HasSubstr("100.0 ms, MAD unavailable over 5 sample(s)"));
  EXPECT_THAT(text, Not(HasSubstr("0.0%")));
}

}  // namespace
}  // namespace wcp::render
