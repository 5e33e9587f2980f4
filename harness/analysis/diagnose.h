#pragma once
// The diagnosis engine: one pure function per mechanism family, each reading the Report and
// adding findings, ruled-out signals or not-checked reasons. Nothing here prints or reads
// files; the caller passes what the calibration and the environment said.
#include <optional>

#include "analysis/finding.h"
#include "facts/queries.h"
#include "model/report.h"

namespace wcp::analysis {

struct DiagnoseInputs {
  // This machine's calibrated fixed per-module cost for the report's backend, when calibrated.
  std::optional<FixedCostReference> fixed_cost;
  // CUDA_CACHE_DISABLE was set in the measured process's environment (known only at measure time).
  std::optional<bool> cuda_cache_disabled_env;
  // This machine's CPU precompiled-header costs, when calibrated (CS-12 in both directions).
  std::optional<HeaderCosts> cpu_header;
};

Diagnosis diagnose(const Report& report, const DiagnoseInputs& inputs = {});

// The family checks diagnose() runs, exposed for unit tests. Each appends to `out`.
void check_churn(const Report& report, Diagnosis& out);            // CS-1, CS-3, CS-6, closure churn
// The option receipts, and from them option-never-arrived and config-deadline.
void check_option_receipts(const Report& report, Diagnosis& out);
void check_cache(const Report& report, const DiagnoseInputs& inputs, Diagnosis& out);      // CS-2
void check_granular_modules(const Report& report, const DiagnoseInputs& inputs, Diagnosis& out);  // CS-4
void check_block_dim_spread(const Report& report, Diagnosis& out);                                // CS-5
void check_unique_modules(const Report& report, const DiagnoseInputs& inputs, Diagnosis& out);    // CS-9
void check_serial_builds(const Report& report, Diagnosis& out);                                   // CS-13
void check_source(const Report& report, Diagnosis& out);                                   // CS-7, CS-10, CS-11
void check_precompiled_header(const Report& report, const DiagnoseInputs& inputs, Diagnosis& out);  // CS-12
// Compiled versus launched per module, and never-launched findings.
void check_kernel_usage(const Report& report, Diagnosis& out);
void check_race(const Report& report, Diagnosis& out);                                     // CS-8
void check_processes(const Report& report, Diagnosis& out);  // parallel cold misses, main script twice
void state_bottleneck(const Report& report, Diagnosis& out);

}  // namespace wcp::analysis
