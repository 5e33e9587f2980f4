#include "cli/command_progress.h"

#include <unistd.h>

namespace wcp::cli {

CommandProgress::CommandProgress(std::ostream& err, bool quiet)
    // Quiet draws nothing, so its line needs no ticker thread.
    : line_(err, !quiet && ::isatty(STDERR_FILENO) == 1), quiet_(quiet) {}

measure::ProgressListener& CommandProgress::listener() {
  return quiet_ ? static_cast<measure::ProgressListener&>(silent_) : line_;
}

}  // namespace wcp::cli
