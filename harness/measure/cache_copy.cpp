#include "measure/cache_copy.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/fs.h>
#endif

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "errors.h"

namespace wcp::measure {
namespace {

// An owned file descriptor.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& other) noexcept : fd_(other.release()) {}
  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  bool valid() const { return fd_ >= 0; }

 private:
  int fd_;
};

[[noreturn]] void fail(const std::string& what, const std::filesystem::path& path) {
  throw RunError("could not copy the cache for --warm-cache: " + what + " " + path.string() + ": " +
                 std::strerror(errno));
}

// O_NOATIME is refused (EPERM) on files the caller does not own: then open without it.
int open_quietly(int dir_fd, const char* name, int flags) {
#ifdef O_NOATIME
  const int fd = ::openat(dir_fd, name, flags | O_NOATIME | O_CLOEXEC);
  if (fd >= 0 || errno != EPERM) return fd;
#endif
  return ::openat(dir_fd, name, flags | O_CLOEXEC);
}

enum class Method { reflink, copy_range, read_write };

bool copy_with_read_write(int in, int out) {
  std::vector<char> buffer(1 << 20);
  for (;;) {
    const ssize_t got = ::read(in, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return false;
    if (got == 0) return true;
    for (ssize_t put = 0; put < got;) {
      const ssize_t wrote = ::write(out, buffer.data() + put, static_cast<std::size_t>(got - put));
      if (wrote < 0 && errno == EINTR) continue;
      if (wrote < 0) return false;
      put += wrote;
    }
  }
}

// Copies the open `in` (of `size` bytes) into the empty `out`; which way it took.
Method copy_contents(int in, int out, off_t size, const std::filesystem::path& path) {
#ifdef FICLONE
  if (::ioctl(out, FICLONE, in) == 0) return Method::reflink;
#endif
  off_t left = size;
  bool ranged = true;
  while (left > 0) {
    const ssize_t copied = ::copy_file_range(in, nullptr, out, nullptr, static_cast<std::size_t>(left), 0);
    if (copied < 0 && errno == EINTR) continue;
    if (copied <= 0) {
      ranged = false;  // not supported here (another file system, an old kernel): fall back
      break;
    }
    left -= copied;
  }
  if (ranged) return Method::copy_range;
  if (::ftruncate(out, 0) != 0 || ::lseek(in, 0, SEEK_SET) < 0 || ::lseek(out, 0, SEEK_SET) < 0 ||
      !copy_with_read_write(in, out)) {
    fail("writing", path);
  }
  return Method::read_write;
}

struct Counts {
  std::uint64_t files = 0;
  std::uint64_t bytes = 0;
  std::uint64_t reflinked = 0;
  std::uint64_t ranged = 0;
  std::uint64_t read_write = 0;
};

void copy_directory(int from_fd, int to_fd, const std::filesystem::path& from_path, Counts& counts) {
  DIR* listing = ::fdopendir(::dup(from_fd));
  if (listing == nullptr) fail("listing", from_path);
  struct Closer {
    DIR* dir;
    ~Closer() { ::closedir(dir); }
  } closer{listing};
  for (errno = 0; dirent* item = ::readdir(listing); errno = 0) {
    const std::string name = item->d_name;
    if (name == "." || name == "..") continue;
    const auto path = from_path / name;
    struct stat info {};
    if (::fstatat(from_fd, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) fail("reading", path);
    if (S_ISDIR(info.st_mode)) {
      if (::mkdirat(to_fd, name.c_str(), 0700) != 0) fail("creating the copy of", path);
      Fd sub_from(open_quietly(from_fd, name.c_str(), O_RDONLY | O_DIRECTORY));
      Fd sub_to(::openat(to_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
      if (!sub_from.valid() || !sub_to.valid()) fail("opening", path);
      copy_directory(sub_from.get(), sub_to.get(), path, counts);
    } else if (S_ISREG(info.st_mode)) {
      Fd in(open_quietly(from_fd, name.c_str(), O_RDONLY));
      if (!in.valid()) fail("opening", path);
      Fd out(::openat(to_fd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, info.st_mode & 07777));
      if (!out.valid()) fail("creating the copy of", path);
      switch (copy_contents(in.get(), out.get(), info.st_size, path)) {
        case Method::reflink:
          ++counts.reflinked;
          break;
        case Method::copy_range:
          ++counts.ranged;
          break;
        case Method::read_write:
          ++counts.read_write;
          break;
      }
      ++counts.files;
      counts.bytes += static_cast<std::uint64_t>(info.st_size);
    } else if (S_ISLNK(info.st_mode)) {
      std::vector<char> target(static_cast<std::size_t>(info.st_size) + 1);
      const ssize_t length = ::readlinkat(from_fd, name.c_str(), target.data(), target.size());
      if (length < 0) fail("reading the link", path);
      target[static_cast<std::size_t>(length)] = '\0';
      if (::symlinkat(target.data(), to_fd, name.c_str()) != 0) fail("creating the copy of", path);
    }
  }
  if (errno != 0) fail("listing", from_path);
}

std::string strategy_of(const Counts& counts) {
  std::string strategy;
  const auto add = [&strategy](std::uint64_t n, const char* name) {
    if (n == 0) return;
    if (!strategy.empty()) strategy += "+";
    strategy += name;
  };
  add(counts.reflinked, "reflink");
  add(counts.ranged, "copy_file_range");
  add(counts.read_write, "read/write");
  return strategy.empty() ? "none (no files)" : strategy;
}

}  // namespace

CacheCopyCost copy_cache_tree(const std::filesystem::path& from, const std::filesystem::path& to) {
  const auto started = std::chrono::steady_clock::now();
  Fd from_fd(open_quietly(AT_FDCWD, from.c_str(), O_RDONLY | O_DIRECTORY));
  if (!from_fd.valid()) fail("opening", from);
  if (::mkdir(to.c_str(), 0700) != 0) fail("creating", to);
  Fd to_fd(::open(to.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!to_fd.valid()) fail("opening", to);
  Counts counts;
  copy_directory(from_fd.get(), to_fd.get(), from, counts);
  CacheCopyCost cost;
  cost.strategy = strategy_of(counts);
  cost.files = counts.files;
  cost.bytes = counts.bytes;
  cost.reflinked_files = counts.reflinked;
  cost.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return cost;
}

}  // namespace wcp::measure
