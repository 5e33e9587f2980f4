#pragma once
// The one place a calibration becomes a fixed per-module cost for a given backend: the CUDA
// (NVRTC) section for CUDA loads, Warp's CPU section otherwise; with precompiled headers when
// the run used them (Warp's default). The diagnosis (merge savings) and budgets (cold_units)
// both ask here.
#include <optional>
#include <string>

#include "calibrate/calibration.h"
#include "facts/queries.h"

namespace wcp::calibrate {

// nullopt, with `why` saying what to run, when that backend is not calibrated (or the
// calibrated cost is not positive).
std::optional<FixedCostReference> fixed_cost_reference(const Calibration& calibration, Backend backend,
                                                       bool precompiled_headers, std::string& why);

// The CPU precompiled header's costs (CS-12), when `calibrate --warp-cpu` measured both settings.
std::optional<HeaderCosts> cpu_header_costs(const Calibration& calibration);

}  // namespace wcp::calibrate
