#pragma once
// A budget file after parsing, expansion and the merge of `defaults` (docs/budgets.md).
// Every optional budget is absent unless the file (or its defaults) set it; evaluation only
// checks the budgets that are present.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wcp::budget {

// Where a command may run. `any` runs everywhere; `cuda` entries are not run (and said so)
// on a machine without a CUDA device.
enum class DeviceRequirement { any, cpu, cuda };

std::string to_string(DeviceRequirement device);

struct Budgets {
  std::optional<std::uint64_t> max_modules;
  std::optional<std::uint64_t> max_identities;
  std::uint64_t max_builds_per_module = 1;  // always checked: rebuilds are the common regression
  std::map<std::string, std::string> allow_rebuilds;  // module name -> why it may rebuild
  std::optional<double> cold_seconds;
  // cold module work / the calibrated fixed per-module cost of the backend the run used: one
  // number that reads the same on a laptop and a CI runner (docs/budgets.md#cold_units).
  std::optional<double> cold_units;
  std::optional<double> compile_elapsed_seconds;
  bool warm_near_zero = false;
  std::optional<std::filesystem::path> baseline;  // absolute
  double baseline_tolerance_percent = 0.0;        // widens the noise band on noisy machines
  std::optional<std::uint64_t> max_generated_source_bytes;
  std::optional<std::uint64_t> max_lto_artifacts;
};

struct CommandEntry {
  std::string name;
  int line = 0;  // where the entry starts in the file, for messages
  std::vector<std::string> command;
  std::filesystem::path cwd;  // absolute
  std::map<std::string, std::string> env;
  int samples = 3;
  std::chrono::milliseconds timeout{900'000};
  DeviceRequirement device = DeviceRequirement::any;
  Budgets budgets;
};

struct BudgetFile {
  std::filesystem::path path;  // absolute
  std::vector<CommandEntry> commands;
};

}  // namespace wcp::budget
