#include "cli/fixed_cost_input.h"

#include <ostream>

#include "calibrate/calibration.h"
#include "calibrate/fixed_cost.h"
#include "errors.h"

namespace wcp::cli {

std::optional<FixedCostReference> calibrated_fixed_cost(const Report& report, CliContext& context) {
  try {
    const auto calibration = calibrate::load_default_calibration();
    if (!calibration) return std::nullopt;
    std::string why;
    return calibrate::fixed_cost_reference(*calibration, backend_of(report), uses_precompiled_headers(report), why);
  } catch (const UsageError& error) {
    context.err << "warp-compile-probe: warning: calibration ignored: " << error.what() << "\n";
    return std::nullopt;
  }
}

}  // namespace wcp::cli
