#include "measure/quiet_read.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace wcp::measure {
namespace {

// O_NOATIME is refused (EPERM) on what the caller does not own: then open without it.
int open_quietly(const std::filesystem::path& path, int flags) {
#ifdef O_NOATIME
  const int fd = ::open(path.c_str(), flags | O_NOATIME | O_CLOEXEC);
  if (fd >= 0 || errno != EPERM) return fd;
#endif
  return ::open(path.c_str(), flags | O_CLOEXEC);
}

}  // namespace

std::optional<std::string> read_file_quietly(const std::filesystem::path& path) {
  const int fd = open_quietly(path, O_RDONLY);
  if (fd < 0) return std::nullopt;
  std::string content;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      ::close(fd);
      return std::nullopt;
    }
    if (got == 0) break;
    content.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fd);
  return content;
}

std::vector<std::string> list_folder_quietly(const std::filesystem::path& folder) {
  std::vector<std::string> names;
  const int fd = open_quietly(folder, O_RDONLY | O_DIRECTORY);
  if (fd < 0) return names;
  DIR* listing = ::fdopendir(fd);  // owns fd from here
  if (listing == nullptr) {
    ::close(fd);
    return names;
  }
  while (const dirent* item = ::readdir(listing)) {
    const std::string name = item->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(listing);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace wcp::measure
