#pragma once
// `bisect`'s orchestration: in a scratch worktree (never the user's checkout), drive
// `git bisect run` with `bisect-step` as the test at every commit, test by hand the commits git
// takes on trust (BAD when every tested commit was good, the first bad commit's parent), and
// judge Warp's structure between the first bad commit and its parent. Produces a BisectResult;
// it prints only progress.
#include <iosfwd>
#include <string>

#include "bisect/bisect_result.h"
#include "bisect/bisect_setup.h"

namespace wcp {
class InterruptWatch;
}

namespace wcp::bisect {

struct BisectRequest {
  BisectSetup setup;
  std::string good_spec;  // GOOD and BAD as the user typed them, for messages
  std::string bad_spec;
  std::string only;    // check --only, when set
  bool quiet = false;  // no progress
};

// Progress (git's "Bisecting:" lines, each step's line, commits checked by hand) goes to
// `progress`. Throws RunError when git fails, Interrupted on SIGINT/SIGTERM.
BisectResult run_bisection(const BisectRequest& request, std::ostream& progress, InterruptWatch& interrupts);

}  // namespace wcp::bisect
