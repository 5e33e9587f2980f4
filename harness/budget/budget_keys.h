#pragma once
// The budget file schema as one table: every key a command entry (or `defaults`) may carry,
// with what it means, how it is read and validated, and how `defaults` merge into an entry.
// The parser, the "known keys" message, the evaluation's outcome names and the docs test all
// come from here, so a key is spelled once.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "budget/budget_settings.h"
#include "io/yaml_reader.h"

namespace wcp::budget {

namespace key {
inline constexpr std::string_view command = "command";
inline constexpr std::string_view cwd = "cwd";
inline constexpr std::string_view env = "env";
inline constexpr std::string_view samples = "samples";
inline constexpr std::string_view timeout = "timeout";
inline constexpr std::string_view device = "device";
inline constexpr std::string_view max_modules = "max_modules";
inline constexpr std::string_view max_identities = "max_identities";
inline constexpr std::string_view max_builds_per_module = "max_builds_per_module";
inline constexpr std::string_view allow_rebuilds = "allow_rebuilds";
inline constexpr std::string_view cold_seconds = "cold_seconds";
inline constexpr std::string_view cold_cpu_seconds = "cold_cpu_seconds";
inline constexpr std::string_view cold_units = "cold_units";
inline constexpr std::string_view compile_elapsed_seconds = "compile_elapsed_seconds";
inline constexpr std::string_view warm_near_zero = "warm_near_zero";
inline constexpr std::string_view baseline = "baseline";
inline constexpr std::string_view baseline_tolerance_percent = "baseline_tolerance_percent";
inline constexpr std::string_view baseline_threshold_percent = "baseline_threshold_percent";
inline constexpr std::string_view gate_on_elapsed = "gate_on_elapsed";
inline constexpr std::string_view max_generated_source_bytes = "max_generated_source_bytes";
inline constexpr std::string_view max_lto_artifacts = "max_lto_artifacts";
inline constexpr std::string_view stable_hashes = "stable_hashes";
inline constexpr std::string_view max_cache_bytes = "max_cache_bytes";
inline constexpr std::string_view max_test_builds = "max_test_builds";
inline constexpr std::string_view max_test_cold_seconds = "max_test_cold_seconds";
inline constexpr std::string_view no_builds_after = "no_builds_after";
inline constexpr std::string_view cuda_arch = "cuda_arch";
inline constexpr std::string_view max_cuda_compile_seconds = "max_cuda_compile_seconds";
inline constexpr std::string_view max_module_cuda_compile_seconds = "max_module_cuda_compile_seconds";
inline constexpr std::string_view max_kernel_cuda_compile_ms = "max_kernel_cuda_compile_ms";
inline constexpr std::string_view max_cuda_output_bytes = "max_cuda_output_bytes";
}  // namespace key

struct KeySpec {
  std::string_view name;
  std::string_view doc;  // one line: what the key means
  bool in_defaults;      // may appear in `defaults` (identity keys like `command` may not)
  void (*read)(const YamlReader& reader, const YAML::Node& value, Settings& into);
  void (*merge)(Settings& merged, const Settings& overrides);  // `overrides` wins, maps key by key
};

std::span<const KeySpec> budget_keys();
const KeySpec* find_key(std::string_view name);
// "command, cwd, env, …" for error messages.
std::string known_keys(bool with_name);
// The same names, for suggesting the nearest to a mistyped key.
std::vector<std::string_view> key_names(bool with_name);

}  // namespace wcp::budget
