#include "render/progress_line.h"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

namespace wcp::render {

ProgressLine::ProgressLine(std::ostream& out, bool interactive, Clock::duration tick)
    : out_(out), interactive_(interactive), tick_(tick), started_(Clock::now()) {
  if (interactive_) ticker_ = std::jthread([this](std::stop_token stop) { tick_until_stopped(stop); });
}

ProgressLine::~ProgressLine() {
  ticker_.request_stop();
  wake_.notify_all();
}

void ProgressLine::plan(int passes) {
  const std::lock_guard lock(mutex_);
  planned_passes_ += passes;
}

void ProgressLine::arm(std::string_view name) {
  const std::lock_guard lock(mutex_);
  arm_ = name;
}

void ProgressLine::expect(double pass_ms, std::string_view source) {
  if (pass_ms <= 0.0) return;
  const std::lock_guard lock(mutex_);
  expected_pass_ms_ = pass_ms;
  expected_from_ = source;
}

std::string ProgressLine::line_locked() const {
  const auto now = Clock::now();
  const double elapsed = std::chrono::duration<double>(now - started_).count();
  const double in_pass = std::chrono::duration<double>(now - phase_started_).count();
  // The passes still to run, this one included, from the run's plan, times the average pass so
  // far (before any finished: an earlier run's, saying whose). A pass nobody planned has no
  // honest estimate: "unknown", never a made-up 0.
  const int remaining_passes = planned_passes_ - finished_passes_;
  std::string eta = "ETA unknown";
  const std::optional<double> pass_ms =
      finished_passes_ > 0 ? std::optional(finished_ms_ / finished_passes_) : expected_pass_ms_;
  if (pass_ms && remaining_passes > 0) {
    // Counting down inside this pass, but never below what the passes after it take.
    const double seconds =
        std::max(*pass_ms * (remaining_passes - 1), *pass_ms * remaining_passes - 1000.0 * in_pass) / 1000.0;
    eta = fmt::format("ETA ~{:.0f} s{}", seconds,
                      finished_passes_ > 0 ? std::string() : fmt::format(" (from {})", expected_from_));
  }
  return fmt::format("{}{}  {:.1f} s  elapsed {:.1f} s  {}", arm_.empty() ? "" : arm_ + " ", phase_, in_pass, elapsed,
                     eta);
}

void ProgressLine::draw_locked() {
  if (interactive_) {
    out_ << "\r\033[K" << line_locked() << std::flush;
  } else {
    out_ << line_locked() << '\n' << std::flush;
  }
}

void ProgressLine::pass_started(int sample, int samples, Pass pass) {
  const std::lock_guard lock(mutex_);
  phase_ = fmt::format("sample {}/{} {}", sample, samples, pass == Pass::cold ? "cold" : "warm");
  phase_started_ = Clock::now();
  draw_locked();
}

void ProgressLine::pass_finished(int, int, Pass, double wall_ms, bool) {
  const std::lock_guard lock(mutex_);
  finished_ms_ += wall_ms;
  ++finished_passes_;
  phase_.clear();
}

void ProgressLine::done() {
  ticker_.request_stop();
  wake_.notify_all();
  const std::lock_guard lock(mutex_);
  phase_.clear();
  if (interactive_) out_ << "\r\033[K" << std::flush;
}

void ProgressLine::tick_until_stopped(std::stop_token stop) {
  std::unique_lock lock(mutex_);
  while (!stop.stop_requested()) {
    wake_.wait_for(lock, stop, tick_, [] { return false; });
    if (!stop.stop_requested() && !phase_.empty()) draw_locked();
  }
}

}  // namespace wcp::render
