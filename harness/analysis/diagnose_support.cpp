#include "analysis/diagnose_support.h"

#include <fmt/format.h>

#include <algorithm>

namespace wcp::analysis {

bool Diagnosis::found(Mechanism mechanism) const {
  return std::any_of(findings.begin(), findings.end(),
                     [mechanism](const Finding& finding) { return finding.mechanism == mechanism; });
}

Finding make_finding(Mechanism mechanism) {
  Finding finding;
  finding.mechanism = mechanism;
  finding.fix = std::string(info(mechanism).fix);
  finding.limits = std::string(info(mechanism).limits);
  finding.fix_effect = info(mechanism).effect;
  finding.behaviour = std::string(info(mechanism).behaviour);
  return finding;
}

void rule_out(Diagnosis& out, Mechanism mechanism, std::string signal) {
  out.ruled_out.push_back({mechanism, std::move(signal)});
}

void not_checked(Diagnosis& out, Mechanism mechanism, std::string reason) {
  out.not_checked.push_back({mechanism, std::move(reason)});
}

std::string format_ms(double ms) {
  if (ms >= 10000.0) return fmt::format("{:.1f} s", ms / 1000.0);
  if (ms >= 10.0) return fmt::format("{:.0f} ms", ms);
  return fmt::format("{:.1f} ms", ms);
}

std::string short_path(const std::string& path) { return short_file(path); }

std::string where(const SourceLocation& location) {
  std::string text = fmt::format("{}:{}", short_path(location.file), location.line);
  if (!location.function.empty() && location.function != "<module>") text += " (in " + location.function + ")";
  return text;
}

}  // namespace wcp::analysis
