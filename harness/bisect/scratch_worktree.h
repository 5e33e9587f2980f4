#pragma once
// A detached git worktree of the user's repository in a scratch directory, removed with its
// per-worktree state (bisect refs included) when the object goes away: on success, on error
// and while unwinding from an interrupt. The user's checkout is never touched.
#include <filesystem>
#include <string>

namespace wcp::bisect {

class ScratchWorktree {
 public:
  // `git worktree add --detach PATH COMMIT` in `repository`; throws RunError when git refuses.
  ScratchWorktree(std::filesystem::path repository, std::filesystem::path path, const std::string& commit);
  ~ScratchWorktree();  // `git worktree remove --force`, then `git worktree prune`
  ScratchWorktree(const ScratchWorktree&) = delete;
  ScratchWorktree& operator=(const ScratchWorktree&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path repository_;
  std::filesystem::path path_;
};

}  // namespace wcp::bisect
