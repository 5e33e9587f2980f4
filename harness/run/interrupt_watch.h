#pragma once
// Turns SIGINT/SIGTERM/SIGHUP into something the run loop can poll for, so that a Ctrl-C
// mid-sample stops the target's process group and removes scratch directories through normal
// stack unwinding instead of inside a signal handler.
#include <optional>

namespace wcp {

class InterruptWatch {
 public:
  InterruptWatch();  // call on the main thread before any other thread starts
  ~InterruptWatch();
  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;

  int fd() const { return fd_; }  // readable when a signal is pending
  std::optional<int> take_pending();  // non-blocking
  void throw_if_interrupted();        // throws wcp::Interrupted

 private:
  int fd_ = -1;
  bool had_previous_mask_ = false;
  unsigned char previous_mask_[128] = {};  // sigset_t storage without exposing <signal.h>
};

}  // namespace wcp
