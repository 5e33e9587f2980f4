#pragma once
// The error types that cross stage boundaries. Each carries a one-line message a user can act
// on; the CLI catches them once and maps them to exit codes (docs/cli.md).
#include <stdexcept>
#include <string>

namespace wcp {

// Bad command line, configuration or input file, or an environment we cannot work in: exit 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The tool itself got SIGINT/SIGTERM; everything it started has been stopped and removed.
struct Interrupted : std::runtime_error {
  explicit Interrupted(int signal_number)
      : std::runtime_error("interrupted by signal " + std::to_string(signal_number)), signal(signal_number) {}
  int signal;
};

}  // namespace wcp
