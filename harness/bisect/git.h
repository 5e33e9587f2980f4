#pragma once
// Running git's short plumbing commands (rev-parse, worktree, bisect start/reset, checkout)
// and reading what they print. The one long git command, `git bisect run`, goes through
// run/process_runner.h instead, so that Ctrl-C stops it and everything it started.
#include <filesystem>
#include <string>
#include <vector>

namespace wcp::bisect {

struct GitResult {
  int exit_code = 0;  // 128+N when killed by signal N
  std::string out;    // stdout, untouched
  std::string err;    // stderr
  bool ok() const { return exit_code == 0; }
  std::string first_line() const;  // of stdout, trimmed: the answer of rev-parse and friends
  std::string error_line() const;  // the last non-empty line of stderr, for messages
};

// `git -C dir ARGS...`, waited for. Ignores interrupts on purpose: it also runs from
// destructors that remove a worktree while an interrupt unwinds the stack, and every call is
// short. Throws RunError only when git cannot be started at all.
GitResult run_git(const std::filesystem::path& dir, const std::vector<std::string>& args);

}  // namespace wcp::bisect
