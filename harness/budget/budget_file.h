#pragma once
// A budget file after parsing, expansion and the merge of `defaults` (docs/budgets.md).
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "budget/budget_settings.h"

namespace wcp::budget {

// Rebuilds are the common regression, so this one budget is always checked.
inline constexpr std::uint64_t kDefaultMaxBuildsPerModule = 1;
inline constexpr int kDefaultSamples = 3;  // `measure`'s; a budget entry's default is auto
// The most runs `samples: auto` takes before it answers with what it measured.
inline constexpr int kMaxAutoSamples = 5;
inline constexpr std::chrono::milliseconds kDefaultTimeout{900'000};
// What a baseline budget must be able to see unless `baseline_threshold_percent` says otherwise:
// a change this size is what a pull request that adds a kernel or an option typically costs.
inline constexpr double kDefaultBaselineThresholdPercent = 5.0;

struct CommandEntry {
  std::string name;
  int line = 0;  // where the entry starts in the file, for messages
  std::vector<std::string> command;
  std::filesystem::path cwd;  // absolute
  std::map<std::string, std::string> env;
  // The runs to take: with auto_samples, the most; fewer when every budget is decided sooner.
  int samples = kMaxAutoSamples;
  bool auto_samples = true;
  std::chrono::milliseconds timeout = kDefaultTimeout;
  DeviceRequirement device = DeviceRequirement::any;
  Settings budgets;                                      // the merged settings; evaluation reads its budget keys
  std::optional<std::filesystem::path> baseline_report;  // `baseline`, absolute
  // `baseline: {rev: REV}` (variables expanded), or `check --against-rev REV`: the entry's
  // baseline is REV, measured in a scratch worktree interleaved with the working tree's runs.
  std::optional<std::string> baseline_rev;
  // `cuda_arch`: the architectures (86 for sm_86) each cold run builds its modules for with
  // Warp's NVRTC at the program's exit, without a GPU (`measure --cuda-arch`); empty: none.
  std::vector<int> cuda_archs;
};

struct BudgetFile {
  std::filesystem::path path;  // absolute
  std::vector<CommandEntry> commands;
};

}  // namespace wcp::budget
