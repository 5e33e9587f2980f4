#pragma once
// A git revision checked out beside the user's working tree, for arm A of `check --against-rev`
// (issue 63): a detached scratch worktree, as `bisect` makes one, that lives as long as this
// object. It maps a budget entry's run (working directory, program paths) from the working
// tree into the worktree, so that the same command measures the revision. The user's checkout
// gains only git's registration of the worktree, removed with it.
#include <filesystem>
#include <memory>
#include <string>

#include "bisect/scratch_worktree.h"
#include "measure/measure_options.h"
#include "run/scratch_dir.h"

namespace wcp::bisect {

class RevisionCheckout {
 public:
  // `revision` as the user wrote it (a sha, a branch, `origin/main`, `HEAD~1`); `inside` any
  // directory of the repository. Throws UsageError when it is not in a git repository or the
  // revision does not name a commit.
  RevisionCheckout(const std::string& revision, const std::filesystem::path& inside);

  const std::string& revision() const { return revision_; }
  const std::string& commit() const { return commit_; }  // full sha
  const std::filesystem::path& top() const { return top_; }
  // "origin/main (1a2b3c4)"
  std::string description() const;

  // The working tree's run, moved to the revision: the working directory and every argument or
  // environment value that is a path inside the repository point into the worktree instead,
  // where the worktree has that path (an untracked interpreter such as .venv/bin/python stays
  // the working tree's: it is the toolchain, not the code under test).
  measure::MeasureOptions at_revision(measure::MeasureOptions options) const;

 private:
  std::string revision_;
  std::string commit_;
  std::filesystem::path top_;
  std::unique_ptr<ScratchDir> scratch_;
  std::unique_ptr<ScratchWorktree> worktree_;
};

}  // namespace wcp::bisect
