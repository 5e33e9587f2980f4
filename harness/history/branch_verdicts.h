#pragma once
// The latest verdict of each branch's runs, for a team's view of its pull requests
// (`history show --html`): per branch, command and runner class, the newest result that was
// judged. Results without a branch (recorded before layout 6, or where none was known) are
// left out: they belong to no pull request.
#include <cstddef>
#include <string>
#include <vector>

#include "history/history_result.h"

namespace wcp::history {

struct BranchVerdict {
  std::string branch;
  std::string name;           // the command's name in the history
  std::string machine_class;  // "" for a result recorded without one
  std::optional<Commit> commit;
  std::string verdict;  // "" when that run judged nothing
  std::string recorded_at;
  std::int64_t id = 0;
};

// Newest first (by id, the order they were recorded in), at most `limit`.
std::vector<BranchVerdict> latest_branch_verdicts(const std::vector<Result>& results, std::size_t limit);

// Only the results of `branch` ("" keeps all).
std::vector<Result> results_on_branch(std::vector<Result> results, const std::string& branch);

}  // namespace wcp::history
