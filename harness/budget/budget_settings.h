#pragma once
// One mapping of settings as written, before defaults are merged: `defaults` and each command
// entry are read into this, then merged field by field (the entry wins; `env` and
// `allow_rebuilds` merge key by key).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "budget/budget_file.h"

namespace wcp::budget {

struct Settings {
  std::optional<std::vector<std::string>> command;
  std::optional<std::string> cwd;
  std::map<std::string, std::string> env;
  std::optional<int> samples;
  std::optional<double> timeout_s;
  std::optional<DeviceRequirement> device;
  std::optional<std::uint64_t> max_modules;
  std::optional<std::uint64_t> max_identities;
  std::optional<std::uint64_t> max_builds_per_module;
  std::map<std::string, std::string> allow_rebuilds;
  std::optional<double> cold_seconds;
  std::optional<double> cold_units;
  std::optional<double> compile_elapsed_seconds;
  std::optional<bool> warm_near_zero;
  std::optional<std::string> baseline;
  std::optional<double> baseline_tolerance_percent;
  std::optional<std::uint64_t> max_generated_source_bytes;
  std::optional<std::uint64_t> max_lto_artifacts;
};

// `overrides` wins over `base`.
Settings merge(const Settings& base, const Settings& overrides);

}  // namespace wcp::budget
