#pragma once
// How `git bisect run` ended, read from what it printed: git says which commit is the first
// bad one, or that only skipped commits are left, in plain sentences and not in an exit code.
#include <string>
#include <string_view>
#include <vector>

namespace wcp::bisect {

enum class BisectEnd {
  first_bad,     // "<sha> is the first bad commit"
  only_skipped,  // "There are only 'skip'ped commits left to test." and the candidates
  unknown,       // neither: git stopped for another reason (its output says which)
};

struct BisectRunResult {
  BisectEnd end = BisectEnd::unknown;
  std::string first_bad;                // full sha, for first_bad
  std::vector<std::string> candidates;  // full shas, for only_skipped
};

BisectRunResult parse_bisect_run_output(std::string_view output);

}  // namespace wcp::bisect
