#pragma once
// Progress of interleaved arms (`ab`'s two, `levers`' baseline and one per lever): numbers the
// passes of every arm as one sequence, so the progress line's ETA covers the whole run.
#include <string>

#include "measure/progress.h"

namespace wcp::measure {

class ArmProgress final : public ProgressListener {
 public:
  // `total` samples of two passes each, across every arm.
  ArmProgress(ProgressListener& inner, int total) : inner_(inner), total_(total) { inner_.plan(2 * total); }
  // The passes that follow are sample `sample` of `arm` (kept here: the listener sees a view).
  void start(std::string arm, int sample) {
    arm_ = std::move(arm);
    inner_.arm(arm_);
    sample_ = sample;
  }
  void pass_started(int, int, Pass pass) override { inner_.pass_started(sample_, total_, pass); }
  void pass_finished(int, int, Pass pass, double wall_ms, bool ok) override {
    inner_.pass_finished(sample_, total_, pass, wall_ms, ok);
  }
  void plan(int passes) override { inner_.plan(passes); }
  void done() override {
    inner_.arm("");
    inner_.done();
  }

 private:
  ProgressListener& inner_;
  int total_;
  int sample_ = 0;
  std::string arm_;
};

}  // namespace wcp::measure
