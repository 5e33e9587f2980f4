#include "run/interrupt_watch.h"

#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "errors.h"

namespace wcp {

static_assert(sizeof(sigset_t) <= 128, "sigset_t storage in InterruptWatch is too small");

InterruptWatch::InterruptWatch() {
  sigset_t watched;
  sigemptyset(&watched);
  sigaddset(&watched, SIGINT);
  sigaddset(&watched, SIGTERM);
  sigaddset(&watched, SIGHUP);
  sigset_t previous;
  if (pthread_sigmask(SIG_BLOCK, &watched, &previous) != 0) {
    throw std::system_error(errno, std::generic_category(), "cannot block interrupt signals");
  }
  std::memcpy(previous_mask_, &previous, sizeof(previous));
  had_previous_mask_ = true;
  fd_ = signalfd(-1, &watched, SFD_NONBLOCK | SFD_CLOEXEC);
  if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "cannot watch interrupt signals");
}

InterruptWatch::~InterruptWatch() {
  if (fd_ >= 0) ::close(fd_);
  if (had_previous_mask_) {
    sigset_t previous;
    std::memcpy(&previous, previous_mask_, sizeof(previous));
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  }
}

std::optional<int> InterruptWatch::take_pending() {
  signalfd_siginfo info{};
  const auto got = ::read(fd_, &info, sizeof(info));
  if (got != static_cast<ssize_t>(sizeof(info))) return std::nullopt;
  return static_cast<int>(info.ssi_signo);
}

void InterruptWatch::throw_if_interrupted() {
  if (const auto signal_number = take_pending()) throw Interrupted(*signal_number);
}

}  // namespace wcp
