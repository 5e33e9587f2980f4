#pragma once
// Reading a budget file: YAML -> BudgetFile, with every problem reported as a UsageError
// "FILE:LINE: what is wrong" before anything runs.
#include <filesystem>
#include <string_view>

#include "budget/budget_file.h"
#include "budget/variables.h"

namespace wcp::budget {

struct LoadOptions {
  // Check that programs, working directories and baseline reports exist. Off only for
  // callers that must not depend on the machine (unit tests of the schema).
  bool check_files = true;
  // `--update-baseline` creates baselines, so a missing one is fine then.
  bool baseline_may_be_missing = false;
};

BudgetFile load_budget_file(const std::filesystem::path& path, const EnvironmentLookup& environment,
                            const LoadOptions& options = {});

// Same, from text; `path` names the file in messages and anchors relative paths.
BudgetFile parse_budget_text(std::string_view text, const std::filesystem::path& path,
                             const EnvironmentLookup& environment, const LoadOptions& options = {});

}  // namespace wcp::budget
