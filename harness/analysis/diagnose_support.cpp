#include "analysis/diagnose_support.h"

#include <fmt/format.h>

#include <algorithm>

#include "io/units.h"

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

std::map<std::string, const ModuleEvent*> built_once(const Report& report) {
  std::map<std::string, int> builds;
  std::map<std::string, const ModuleEvent*> once;
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    ++builds[event->name];
    once[event->name] = event;
  }
  for (const auto& [name, count] : builds) {
    if (count != 1) once.erase(name);
  }
  return once;
}

void add_merge_saving(Finding& finding, std::size_t modules, const std::optional<FixedCost>& fixed) {
  if (!fixed || modules < 2) return;
  finding.cost_ms = static_cast<double>(modules - 1) * fixed->ms;
  finding.cost_basis =
      fmt::format("{} − 1 modules × fixed per-module cost {}; {}", modules, milliseconds_text(fixed->ms), fixed->basis);
}

std::string short_path(const std::string& path) { return short_file(path); }

std::string where(const SourceLocation& location) {
  std::string text = fmt::format("{}:{}", short_path(location.file), location.line);
  if (!location.function.empty() && location.function != "<module>") text += " (in " + location.function + ")";
  return text;
}

}  // namespace wcp::analysis
