#include "bisect/git.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "errors.h"
#include "run/output_tail.h"

namespace wcp::bisect {
namespace {

std::string trim(std::string text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  const auto end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

std::string GitResult::first_line() const {
  return trim(out.substr(0, out.find('\n')));
}

std::string GitResult::error_line() const {
  return last_line(err);
}

GitResult run_git(const std::filesystem::path& dir, const std::vector<std::string>& args) {
  std::vector<std::string> argv{"git", "-C", dir.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> pointers;
  for (auto& argument : argv) pointers.push_back(argument.data());
  pointers.push_back(nullptr);

  int out_pipe[2] = {-1, -1};
  int err_pipe[2] = {-1, -1};
  if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0) {
    throw RunError(std::string("cannot run git: pipe: ") + std::strerror(errno));
  }
  const pid_t pid = ::fork();
  if (pid < 0) throw RunError(std::string("cannot run git: fork: ") + std::strerror(errno));
  if (pid == 0) {
    // The signals the tool blocks for itself (run/interrupt_watch.h) must not stay blocked in git.
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, STDIN_FILENO);
    ::dup2(out_pipe[1], STDOUT_FILENO);
    ::dup2(err_pipe[1], STDERR_FILENO);
    ::execvp("git", pointers.data());
    const char message[] = "cannot execute git\n";
    [[maybe_unused]] const auto ignored = ::write(STDERR_FILENO, message, sizeof message - 1);
    ::_exit(127);
  }
  close_fd(out_pipe[1]);
  close_fd(err_pipe[1]);

  GitResult result;
  std::array<char, 16 * 1024> buffer{};
  int fds[2] = {out_pipe[0], err_pipe[0]};
  std::string* sinks[2] = {&result.out, &result.err};
  while (fds[0] >= 0 || fds[1] >= 0) {
    std::array<pollfd, 2> watches{pollfd{fds[0], POLLIN, 0}, pollfd{fds[1], POLLIN, 0}};
    if (::poll(watches.data(), watches.size(), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int index = 0; index < 2; ++index) {
      if (fds[index] < 0 || !(watches[index].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t got = ::read(fds[index], buffer.data(), buffer.size());
      if (got > 0) {
        sinks[index]->append(buffer.data(), static_cast<std::size_t>(got));
      } else if (got == 0 || errno != EINTR) {
        close_fd(fds[index]);
      }
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (result.exit_code == 127 && result.err.find("cannot execute git") != std::string::npos) {
    throw RunError("cannot run git: is it installed and on PATH?");
  }
  return result;
}

}  // namespace wcp::bisect
