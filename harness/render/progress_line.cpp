#include "render/progress_line.h"

#include <fmt/format.h>

#include <ostream>

namespace wcp::render {

ProgressLine::ProgressLine(std::ostream& out, bool interactive)
    : out_(out), interactive_(interactive), started_(std::chrono::steady_clock::now()) {}

void ProgressLine::pass_started(int sample, int samples, Pass pass) {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  // The passes still to run, this one included, from the run's plan; the average pass so far
  // times those. A pass nobody planned has no honest estimate: "unknown", never a made-up 0.
  const int remaining_passes = planned_passes_ - finished_passes_;
  std::string eta = "ETA unknown";
  if (finished_passes_ > 0 && remaining_passes > 0) {
    eta = fmt::format("ETA ~{:.0f} s", finished_ms_ / finished_passes_ * remaining_passes / 1000.0);
  }
  const auto line = fmt::format("{}sample {}/{} {}  elapsed {:.1f} s  {}", arm_.empty() ? "" : arm_ + " ", sample,
                                samples, pass == Pass::cold ? "cold" : "warm", elapsed, eta);
  if (interactive_) {
    out_ << "\r\033[K" << line << std::flush;
  } else {
    out_ << line << '\n' << std::flush;
  }
}

void ProgressLine::pass_finished(int, int, Pass, double wall_ms, bool) {
  finished_ms_ += wall_ms;
  ++finished_passes_;
}

void ProgressLine::done() {
  if (interactive_) out_ << "\r\033[K" << std::flush;
}

}  // namespace wcp::render
