#pragma once
// "sample 2/3 warm  4.1 s  elapsed 12.4 s  ETA ~9 s" on stderr. On a terminal the line is redrawn
// in place, and ticks (about once a second) inside a pass, so a 14 s cold run shows it is alive;
// otherwise (CI logs) it is one line per pass.
#include <chrono>
#include <condition_variable>
#include <iosfwd>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "measure/progress.h"

namespace wcp::render {

class ProgressLine final : public measure::ProgressListener {
 public:
  using Clock = std::chrono::steady_clock;
  // `tick` is how often a terminal's line is redrawn inside a pass (tests shorten it).
  ProgressLine(std::ostream& out, bool interactive, Clock::duration tick = std::chrono::seconds(1));
  ~ProgressLine() override;
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void pass_started(int sample, int samples, Pass pass) override;
  void pass_finished(int sample, int samples, Pass pass, double wall_ms, bool ok) override;
  void done() override;
  void plan(int passes) override;
  void arm(std::string_view name) override;
  void expect(double pass_ms, std::string_view source) override;

 private:
  std::string line_locked() const;  // the current line; mutex_ held
  void draw_locked();
  void tick_until_stopped(std::stop_token stop);

  std::ostream& out_;
  const bool interactive_;
  const Clock::duration tick_;
  const Clock::time_point started_;
  mutable std::mutex mutex_;
  std::condition_variable_any wake_;
  double finished_ms_ = 0.0;
  int finished_passes_ = 0;
  int planned_passes_ = 0;  // every pass announced so far (ProgressListener::plan)
  std::string arm_;
  // The pass running now ("sample 2/3 warm"), "" between passes.
  std::string phase_;
  Clock::time_point phase_started_;
  // Before any pass of this run finished: an earlier run's average pass, and where it came from.
  std::optional<double> expected_pass_ms_;
  std::string expected_from_;
  std::jthread ticker_;  // last: started after the state it reads, stopped first
};

}  // namespace wcp::render
