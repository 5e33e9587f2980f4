#pragma once
// Helpers shared by the diagnosis families (internal to analysis/).
#include <string>

#include "analysis/diagnose.h"
#include "analysis/finding.h"

namespace wcp::analysis {

// A Finding pre-filled with the catalogue's fix and limits.
Finding make_finding(Mechanism mechanism);
void rule_out(Diagnosis& out, Mechanism mechanism, std::string signal);
void not_checked(Diagnosis& out, Mechanism mechanism, std::string reason);

std::string format_ms(double ms);
std::string where(const SourceLocation& location);  // "app.py:27 (in main)"
std::string short_path(const std::string& path);    // the file name, for evidence lines

}  // namespace wcp::analysis
