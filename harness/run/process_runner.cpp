#include "run/process_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "errors.h"
#include "io/executable.h"
#include "run/interrupt_watch.h"
#include "run/output_tail.h"

namespace wcp {
namespace bp = boost::process;
namespace {

using Clock = std::chrono::steady_clock;

// An fd we own; closed on scope exit.
class OwnedFd {
 public:
  explicit OwnedFd(int fd = -1) : fd_(fd) {}
  ~OwnedFd() { reset(); }
  OwnedFd(const OwnedFd&) = delete;
  OwnedFd& operator=(const OwnedFd&) = delete;
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

// Owns the child's process group until the leader is reaped: whatever path leaves the
// run (return, exception, interrupt), nothing started by it stays alive.
class ProcessGroup {
 public:
  explicit ProcessGroup(pid_t leader)
      : leader_(leader), exit_watch_(static_cast<int>(::syscall(SYS_pidfd_open, leader, 0))) {}
  ~ProcessGroup() {
    if (!reaped_) {
      ::killpg(leader_, SIGKILL);
      int status = 0;
      ::waitpid(leader_, &status, 0);
    }
  }
  ProcessGroup(const ProcessGroup&) = delete;
  ProcessGroup& operator=(const ProcessGroup&) = delete;

  int exit_fd() const { return exit_watch_.get(); }  // -1 when pidfd is unavailable
  bool reaped() const { return reaped_; }
  int status() const { return status_; }

  bool try_reap() {
    if (reaped_) return true;
    const pid_t got = ::waitpid(leader_, &status_, WNOHANG);
    if (got == leader_) {
      reaped_ = true;
      exit_watch_.reset();
      // Processes the leader left behind belong to the run too.
      kill_leftovers();
    }
    return reaped_;
  }

  // Whether any process of the group outlived its leader (and was killed): only then can
  // orphans still be on their way to us (see kill_stray_children).
  bool had_leftovers() const { return had_leftovers_; }

  // SIGTERM to the whole group, SIGKILL after `grace`, then reap.
  void stop(std::chrono::milliseconds grace) {
    if (reaped_) return;
    ::killpg(leader_, SIGTERM);
    const auto give_up = Clock::now() + grace;
    while (!try_reap() && Clock::now() < give_up) wait_for_exit(std::chrono::milliseconds(20));
    if (!reaped_) {
      ::killpg(leader_, SIGKILL);
      ::waitpid(leader_, &status_, 0);
      reaped_ = true;
    }
    kill_leftovers();
  }

 private:
  void kill_leftovers() {
    if (::killpg(leader_, SIGKILL) == 0) had_leftovers_ = true;
  }

  void wait_for_exit(std::chrono::milliseconds at_most) const {
    if (exit_watch_.get() >= 0) {
      pollfd watch{exit_watch_.get(), POLLIN, 0};
      ::poll(&watch, 1, static_cast<int>(at_most.count()));
    } else {
      ::usleep(static_cast<useconds_t>(at_most.count()) * 1000);
    }
  }

  pid_t leader_;
  OwnedFd exit_watch_;
  bool reaped_ = false;
  bool had_leftovers_ = false;
  int status_ = 0;
};

double elapsed_ms(Clock::time_point since) {
  return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

// Processes of the run that left its process group (setsid, setpgid) are not reached by
// killpg. The tool is a child subreaper (see run_process), so once their parents are gone they
// become our children: every child we still have after the leader was reaped belongs to the
// run, because run_process is the only thing that starts processes and runs one at a time.
std::vector<pid_t> own_children() {
  std::vector<pid_t> children;
  const pid_t self = ::getpid();
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    const auto close = line.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    long parent = 0;
    if (std::sscanf(line.c_str() + close + 1, " %c %ld", &state, &parent) == 2 && parent == self) {
      children.push_back(static_cast<pid_t>(std::stol(name)));
    }
  }
  return children;
}

// SIGKILLs and reaps every child left (with its own group, for one that made itself a leader),
// until none has appeared for a moment: intermediates that die reparent theirs to us.
// Without leftovers (the common case) one scan suffices, so a clean run pays one /proc read;
// otherwise keep scanning until no new orphan has appeared for a few rounds.
void kill_stray_children(bool orphans_may_follow) {
  if (!orphans_may_follow && own_children().empty()) return;
  const auto give_up = Clock::now() + std::chrono::seconds(2);
  int quiet_rounds = 0;
  while (quiet_rounds < 3 && Clock::now() < give_up) {
    const auto children = own_children();
    if (children.empty()) {
      ++quiet_rounds;
    } else {
      quiet_rounds = 0;
      for (const pid_t child : children) {
        if (::getpgid(child) == child) ::killpg(child, SIGKILL);
        ::kill(child, SIGKILL);
        int status = 0;
        ::waitpid(child, &status, 0);
      }
    }
    ::usleep(20'000);
  }
}

// The child's environment as execve wants it, built before the fork and handed to the executor
// right before exec. (Not bp::environment: its operator[] reads past the end of shorter entries
// in Boost <= 1.8x, which AddressSanitizer reports as a heap-buffer-overflow.)
class ExecEnvironment {
 public:
  template <typename Variables>
  explicit ExecEnvironment(const Variables& variables) {
    entries_.reserve(variables.size());
    for (const auto& [name, value] : variables) entries_.push_back(name + "=" + value);
    block_.reserve(entries_.size() + 1);
    for (auto& entry : entries_) block_.push_back(entry.data());
    block_.push_back(nullptr);
  }
  ExecEnvironment(const ExecEnvironment&) = delete;  // block_ points into entries_
  ExecEnvironment& operator=(const ExecEnvironment&) = delete;
  char** data() { return block_.data(); }

 private:
  std::vector<std::string> entries_;
  std::vector<char*> block_;
};

// A wait status as the shell reports it: the exit code, or 128 + the signal that ended it.
void set_exit_status(int status, RunOutcome& outcome) {
  if (WIFSIGNALED(status)) {
    outcome.signal = WTERMSIG(status);
    outcome.exit_code = 128 + WTERMSIG(status);
  } else if (WIFEXITED(status)) {
    outcome.exit_code = WEXITSTATUS(status);
  }
}

}  // namespace

RunOutcome run_process(const RunRequest& request, const OutputSink& on_output, InterruptWatch& interrupts) {
  if (request.argv.empty()) throw UsageError("no command given");
  const auto executable = resolve_executable(request.argv.front(), request.environment, request.cwd);

  ExecEnvironment environment_block(request.environment);
  const std::vector<std::string> arguments(request.argv.begin() + 1, request.argv.end());

  // Orphans of the run (a grandchild that left the process group) are reparented to us, not
  // to init, so that they can be found and stopped when the run ends.
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  bp::pipe out_pipe, err_pipe;
  const auto started = Clock::now();
  std::error_code spawn_error;
  bp::child child(bp::exe = executable.string(), bp::args = arguments, bp::start_dir = request.cwd.string(),
                  bp::std_out > out_pipe, bp::std_err > err_pipe, bp::std_in < bp::null,
                  bp::extend::on_exec_setup([&environment_block](auto& executor) {
                    executor.env = environment_block.data();
                    // Own process group, so a timeout can stop grandchildren too; and the
                    // signals the tool blocks for itself must not stay blocked in the target.
                    ::setpgid(0, 0);
                    sigset_t none;
                    sigemptyset(&none);
                    ::sigprocmask(SIG_SETMASK, &none, nullptr);
                  }),
                  spawn_error);
  if (spawn_error) throw RunError("cannot start " + request.argv.front() + ": " + spawn_error.message());
  // Boost closed the write ends in the parent on success; forget them so they are not closed twice.
  out_pipe.assign_sink(-1);
  err_pipe.assign_sink(-1);
  const pid_t leader = child.id();
  child.detach();  // we reap it ourselves, below
  ProcessGroup group(leader);
  ::setpgid(leader, leader);  // also from the parent, so killpg works even before exec

  RunOutcome outcome;
  outcome.pid = leader;
  outcome.started_monotonic_s = std::chrono::duration<double>(started.time_since_epoch()).count();
  OutputTail tail;
  const auto deadline = started + request.timeout;
  std::array<char, 64 * 1024> buffer{};
  struct Source {
    int fd;
    OutputStream stream;
    bool open = true;
  };
  std::array<Source, 2> sources{Source{out_pipe.native_source(), OutputStream::out},
                                Source{err_pipe.native_source(), OutputStream::err}};
  const auto any_open = [&sources] { return sources[0].open || sources[1].open; };
  Clock::time_point drain_until = Clock::time_point::max();
  while (any_open() || !group.reaped()) {
    if (!group.reaped() && group.try_reap()) {
      outcome.wall_ms = elapsed_ms(started);
      drain_until = Clock::now() + request.kill_grace;
    }
    if (!any_open() && group.reaped()) break;
    if (group.reaped() && Clock::now() >= drain_until) {
      // The group is gone; whoever still holds a pipe escaped it. Do not wait for them.
      break;
    }

    std::array<pollfd, 4> watches{};
    std::array<Source*, 4> source_of{};
    nfds_t count = 0;
    watches[count++] = {interrupts.fd(), POLLIN, 0};
    for (auto& source : sources) {
      if (!source.open) continue;
      source_of[count] = &source;
      watches[count++] = {source.fd, POLLIN, 0};
    }
    if (!group.reaped() && group.exit_fd() >= 0) watches[count++] = {group.exit_fd(), POLLIN, 0};
    const bool need_tick = !group.reaped() && group.exit_fd() < 0;
    const auto remaining = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (remaining <= 0 && !group.reaped()) {
      outcome.timed_out = true;
      group.stop(request.kill_grace);
      outcome.wall_ms = elapsed_ms(started);
      drain_until = Clock::now() + request.kill_grace;
      continue;  // drain what is left of the output
    }
    int wait_ms = group.reaped() ? 100 : static_cast<int>(std::min<long long>(remaining, need_tick ? 20 : 60'000));
    if (::poll(watches.data(), count, wait_ms) < 0 && errno != EINTR) {
      throw std::system_error(errno, std::generic_category(), "poll");
    }
    if (watches[0].revents & POLLIN) {
      if (const auto signal_number = interrupts.take_pending()) {
        group.stop(request.kill_grace);
        kill_stray_children(true);
        throw Interrupted(*signal_number);
      }
    }
    for (nfds_t i = 1; i < count; ++i) {
      Source* source = source_of[i];
      if (source == nullptr || !(watches[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const auto got = ::read(source->fd, buffer.data(), buffer.size());
      if (got > 0) {
        const std::string_view chunk(buffer.data(), static_cast<std::size_t>(got));
        tail.append(chunk);
        on_output(source->stream, chunk);
      } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        source->open = false;
      }
    }
  }

  kill_stray_children(group.had_leftovers() || outcome.timed_out);
  set_exit_status(group.status(), outcome);
  outcome.output_tail = tail.text();
  return outcome;
}

}  // namespace wcp
