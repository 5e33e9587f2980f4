#pragma once
// What a bisection found, as a value: how it ended, the commits it names (each with the
// `abc1234 subject` line a reader sees), every commit visited, and Warp's structure between the
// first bad commit and its parent. bisect/bisection.h makes it; render/ lays it out (text and
// JSON), the CLI turns its ending into an exit code.
#include <optional>
#include <string>
#include <vector>

#include "bisect/visit_log.h"
#include "verdict/judge.h"

namespace wcp::bisect {

enum class BisectEnding {
  first_bad,         // one commit named
  only_skipped,      // only skipped commits are left; the first bad one is among `candidates`
  bad_is_not_bad,    // BAD passes the budget (or cannot be told)
  good_is_not_good,  // the first bad commit's parent, GOOD, fails too
  aborted,           // a check could not work, so no commit could (abort.txt says why)
};

// A commit and its `abc1234 subject` line.
struct DescribedCommit {
  std::string sha;
  std::string line;
};

struct VisitLine {
  Visit visit;
  std::string described;         // `abc1234 subject`
  bool after_bisection = false;  // checked by `bisect` itself, not visited by git
};

// One budget entry measured at both commits, judged parent -> first bad.
struct EntryStructure {
  std::string entry;
  verdict::Judgement judgement;
};

struct BisectResult {
  BisectEnding ending = BisectEnding::first_bad;
  std::string good;  // full shas
  std::string bad;
  std::string budget;  // repository-relative
  // first_bad: why that commit is bad; otherwise the one message the reader is told.
  std::string reason;
  std::optional<DescribedCommit> first_bad;  // also set when its parent or BAD itself turned out wrong
  std::optional<DescribedCommit> parent;     // first_bad only
  std::string parent_outcome;                // "good", or "good (GOOD)" when git took it on trust
  std::vector<std::string> candidates;       // only_skipped
  std::vector<VisitLine> visits;             // in order, those checked after the bisection last
  std::vector<EntryStructure> structure;     // first_bad only; empty when no report was measured at both
  // aborted: the code `bisect` exits with (absent when abort.txt did not say: an internal
  // error), and why (abort.txt: its first line, then details).
  std::optional<int> abort_exit_code;
  std::string abort_reason;
};

}  // namespace wcp::bisect
