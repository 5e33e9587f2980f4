#pragma once
// The measuring stage reports progress through this interface and never prints; the CLI
// supplies a renderer (render/progress_line.h).
#include <string_view>

#include "model/pass.h"

namespace wcp::measure {

class ProgressListener {
 public:
  virtual ~ProgressListener() = default;
  virtual void pass_started(int sample, int samples, Pass pass) = 0;
  virtual void pass_finished(int sample, int samples, Pass pass, double wall_ms, bool ok) = 0;
  virtual void done() = 0;
  // The run will take `passes` more passes (negative: fewer, when a failed cold run skips its warm
  // one). Each phase announces its passes before it starts them, so the ETA counts every pass the
  // run plans, not only the samples.
  virtual void plan(int passes) { (void)passes; }
  // Which arm the following passes belong to (`ab` interleaves two commands); "" for none.
  virtual void arm(std::string_view name) { (void)name; }
  // Before any pass of this run has finished, an earlier run's average pass (ms) and where it
  // came from ("the history", "the baseline"), so that the first estimate is not "unknown".
  virtual void expect(double pass_ms, std::string_view source) {
    (void)pass_ms;
    (void)source;
  }
};

class SilentProgress final : public ProgressListener {
 public:
  void pass_started(int, int, Pass) override {}
  void pass_finished(int, int, Pass, double, bool) override {}
  void done() override {}
};

// Passes per sample: a cold run, and a warm run unless the options take only cold ones.
inline int passes_per_sample(bool cold_only) {
  return cold_only ? 1 : 2;
}

}  // namespace wcp::measure
