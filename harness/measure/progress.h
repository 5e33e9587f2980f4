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
  // Which arm the following passes belong to (`ab` interleaves two commands); "" for none.
  virtual void arm(std::string_view name) { (void)name; }
};

class SilentProgress final : public ProgressListener {
 public:
  void pass_started(int, int, Pass) override {}
  void pass_finished(int, int, Pass, double, bool) override {}
  void done() override {}
};

}  // namespace wcp::measure
