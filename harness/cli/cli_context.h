#pragma once
// What every subcommand shares: where to write, how to notice Ctrl-C, and where to leave
// its exit code. Built once in main() and passed by reference; there are no globals.
#include <iosfwd>
#include <optional>

namespace wcp {
class InterruptWatch;
}
namespace wcp::verdict {
enum class Verdict;
}

namespace wcp::cli {

// Exit codes are part of the public contract (docs/cli.md#exit-codes).
enum ExitCode : int {
  kOk = 0,
  kFailed = 1,    // a measured failure: regression, invalid comparison, failed budget, every sample failed, or
                  // a failure after work started (RunError)
  kUsage = 2,     // usage, configuration or set-up error: nothing was run, nothing was written
  kInternal = 3,  // a bug in the tool
  kHistoryRefused = 4,  // the history file is damaged, foreign or newer: refused and left as it was
  kNotRun = 77,   // `check`: every selected entry needs a device this machine lacks (CTest SKIP_RETURN_CODE)
};

struct CliContext {
  std::ostream& out;
  std::ostream& err;
  InterruptWatch& interrupts;
  int exit_code = kOk;
  // Test only (WCP_JUDGE_FAULT, verdict/judge_fault.h): the verdict `compare` and `ab` give.
  std::optional<verdict::Verdict> judge_fault;
};

}  // namespace wcp::cli
