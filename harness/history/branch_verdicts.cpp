#include "history/branch_verdicts.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace wcp::history {

std::vector<BranchVerdict> latest_branch_verdicts(const std::vector<Result>& results, std::size_t limit) {
  std::vector<const Result*> newest_first;
  for (const auto& result : results) {
    if (!result.branch.empty()) newest_first.push_back(&result);
  }
  std::sort(newest_first.begin(), newest_first.end(), [](const Result* a, const Result* b) { return a->id > b->id; });
  std::set<std::tuple<std::string, std::string, std::string>> seen;
  std::vector<BranchVerdict> verdicts;
  for (const Result* result : newest_first) {
    if (verdicts.size() >= limit) break;
    if (!seen.emplace(result->branch, result->name, result->machine.machine_class).second) continue;
    verdicts.push_back({result->branch, result->name, result->machine.machine_class, result->commit, result->verdict,
                        result->recorded_at, result->id});
  }
  return verdicts;
}

std::vector<Result> results_on_branch(std::vector<Result> results, const std::string& branch) {
  if (branch.empty()) return results;
  std::erase_if(results, [&](const Result& result) { return result.branch != branch; });
  return results;
}

}  // namespace wcp::history
