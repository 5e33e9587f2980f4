#pragma once
// The error model. Each error carries a one-line message a user can act on; the CLI catches
// them once (cli/main.cpp) and maps them to the exit codes documented in docs/cli.md.
#include <stdexcept>
#include <string>

namespace wcp {

// Bad command line, configuration or input file, or an environment the tool cannot work in,
// found before anything ran: exit 2, nothing was run and nothing was written.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Something failed after work had started (an output file that could not be written, a
// compiler that failed mid-calibration, a command that could not be started): exit 1. What was
// measured before the failure has been printed or kept.
struct RunError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A history file (--history, WCP_HISTORY) that is not a readable warp-compile-probe history:
// damaged, another program's database, or written by a newer version. Exit 4; the file is
// left exactly as it was.
struct HistoryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The tool itself got SIGINT/SIGTERM; everything it started has been stopped and removed.
struct Interrupted : std::runtime_error {
  explicit Interrupted(int signal_number)
      : std::runtime_error("interrupted by signal " + std::to_string(signal_number)), signal(signal_number) {}
  int signal;
};

// Any other exception reaching the CLI boundary is a bug in the tool: exit 3, with a line
// asking the user to report it.

}  // namespace wcp
