#include "cli/fixed_cost_input.h"

#include <ostream>

#include "calibrate/calibration.h"
#include "calibrate/fixed_cost.h"
#include "errors.h"

namespace wcp::cli {

analysis::DiagnoseInputs calibrated_inputs(const Report& report, CliContext& context) {
  analysis::DiagnoseInputs inputs;
  try {
    const auto calibration = calibrate::load_default_calibration();
    if (!calibration) return inputs;
    std::string why;
    inputs.fixed_cost =
        calibrate::fixed_cost_reference(*calibration, backend_of(report), uses_precompiled_headers(report), why);
    inputs.cpu_header = calibrate::cpu_header_costs(*calibration);
  } catch (const UsageError& error) {
    context.err << "warp-compile-probe: warning: calibration ignored: " << error.what() << "\n";
  }
  return inputs;
}

std::optional<FixedCostReference> calibrated_fixed_cost(const Report& report, CliContext& context) {
  return calibrated_inputs(report, context).fixed_cost;
}

}  // namespace wcp::cli
