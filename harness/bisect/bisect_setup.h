#pragma once
// What the user named for `bisect`, checked against the repository before anything is created:
// the top level, the budget file inside it, GOOD an ancestor of BAD, the budget present at BAD.
#include <filesystem>
#include <string>

namespace wcp::bisect {

struct BisectSetup {
  std::filesystem::path top;     // the repository's top level
  std::filesystem::path budget;  // repository-relative
  std::string good;              // full shas
  std::string bad;
};

// A relative `budget_file` is taken from the current directory, else from the repository's top
// level. Throws UsageError naming what is wrong.
BisectSetup validate_bisect_setup(const std::string& repo, const std::string& good, const std::string& bad,
                                  const std::string& budget_file);

}  // namespace wcp::bisect
