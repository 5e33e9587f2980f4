#pragma once
// What every subcommand shares: where to write, how to notice Ctrl-C, and where to leave
// its exit code. Built once in main() and passed by reference; there are no globals.
#include <iosfwd>

namespace wcp {
class InterruptWatch;
}

namespace wcp::cli {

// Exit codes are part of the public contract (documented in docs/cli.md).
enum ExitCode : int { kOk = 0, kFailed = 1, kUsage = 2 };

struct CliContext {
  std::ostream& out;
  std::ostream& err;
  InterruptWatch& interrupts;
  int exit_code = kOk;
};

}  // namespace wcp::cli
