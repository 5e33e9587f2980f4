#pragma once
// The progress a measuring command shows on stderr: a live line (redrawn on a terminal), or
// nothing with --quiet. Shared by `measure`, `ab` and `check`.
#include <iosfwd>

#include "measure/progress.h"
#include "render/progress_line.h"

namespace wcp::cli {

class CommandProgress {
 public:
  CommandProgress(std::ostream& err, bool quiet);
  measure::ProgressListener& listener();

 private:
  render::ProgressLine line_;
  measure::SilentProgress silent_;
  bool quiet_;
};

}  // namespace wcp::cli
