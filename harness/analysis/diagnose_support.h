#pragma once
// Small report queries shared by the diagnosis families (internal to analysis/).
#include <optional>
#include <string>
#include <vector>

#include "analysis/diagnose.h"
#include "analysis/finding.h"

namespace wcp::analysis {

// Cold-pass compiled loads, in the order they happened.
std::vector<const ModuleEvent*> cold_compiled(const Report& report);
bool loads_on_cuda(const Report& report);
bool loads_on_cpu(const Report& report);

// The generated source of one compiled identity ("wp_<name>_<hash>" in the kernel cache).
const ModuleSource* source_of(const Report& report, const std::string& name, const std::string& hash);

// What one more module costs before its first kernel: from the calibration when there is one
// for the backend, else the smallest module this run built (never the one that also built
// the precompiled header). `basis` says which.
struct FixedCost {
  double ms = 0.0;
  std::string basis;
};
std::optional<FixedCost> fixed_module_cost(const Report& report, const DiagnoseInputs& inputs);

// A Finding pre-filled with the catalogue's title and docs link.
Finding make_finding(const std::string& id);
void rule_out(Diagnosis& out, const std::string& id, std::string signal);
void not_checked(Diagnosis& out, const std::string& id, std::string reason);

std::string format_ms(double ms);
std::string where(const SourceLocation& location);  // "app.py:27 (in main)"
std::string short_path(const std::string& path);    // the file name, for evidence lines

}  // namespace wcp::analysis
