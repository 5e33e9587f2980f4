#include "budget/budget_settings.h"

namespace wcp::budget {
namespace {

template <typename T>
void take(std::optional<T>& into, const std::optional<T>& value) {
  if (value) into = value;
}

void take(std::map<std::string, std::string>& into, const std::map<std::string, std::string>& values) {
  for (const auto& [key, value] : values) into[key] = value;
}

}  // namespace

Settings merge(const Settings& base, const Settings& overrides) {
  Settings merged = base;
  take(merged.command, overrides.command);
  take(merged.cwd, overrides.cwd);
  take(merged.env, overrides.env);
  take(merged.samples, overrides.samples);
  take(merged.timeout_s, overrides.timeout_s);
  take(merged.device, overrides.device);
  take(merged.max_modules, overrides.max_modules);
  take(merged.max_identities, overrides.max_identities);
  take(merged.max_builds_per_module, overrides.max_builds_per_module);
  take(merged.allow_rebuilds, overrides.allow_rebuilds);
  take(merged.cold_seconds, overrides.cold_seconds);
  take(merged.cold_units, overrides.cold_units);
  take(merged.compile_elapsed_seconds, overrides.compile_elapsed_seconds);
  take(merged.warm_near_zero, overrides.warm_near_zero);
  take(merged.baseline, overrides.baseline);
  take(merged.baseline_tolerance_percent, overrides.baseline_tolerance_percent);
  take(merged.max_generated_source_bytes, overrides.max_generated_source_bytes);
  take(merged.max_lto_artifacts, overrides.max_lto_artifacts);
  return merged;
}

}  // namespace wcp::budget
