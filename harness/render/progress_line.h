#pragma once
// "sample 2/3 warm  elapsed 12.4 s  ETA ~9 s" on stderr: redrawn in place on a terminal, one
// line per pass otherwise (CI logs).
#include <chrono>
#include <iosfwd>
#include <string>

#include "measure/progress.h"

namespace wcp::render {

class ProgressLine final : public measure::ProgressListener {
 public:
  ProgressLine(std::ostream& out, bool interactive);
  void pass_started(int sample, int samples, Pass pass) override;
  void pass_finished(int sample, int samples, Pass pass, double wall_ms, bool ok) override;
  void done() override;
  void plan(int passes) override { planned_passes_ += passes; }
  void arm(std::string_view name) override { arm_ = name; }

 private:
  std::ostream& out_;
  bool interactive_;
  std::chrono::steady_clock::time_point started_;
  double finished_ms_ = 0.0;
  int finished_passes_ = 0;
  int planned_passes_ = 0;  // every pass announced so far (ProgressListener::plan)
  std::string arm_;
};

}  // namespace wcp::render
