#include "report/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "errors.h"

namespace wcp {
namespace {

std::filesystem::path directory_of(const std::filesystem::path& destination) {
  const auto parent = destination.parent_path();
  return parent.empty() ? std::filesystem::path(".") : parent;
}

}  // namespace

void require_writable_destination(const std::filesystem::path& destination, std::string_view what) {
  const auto directory = directory_of(destination);
  std::error_code error;
  if (!std::filesystem::is_directory(directory, error)) {
    throw UsageError(std::string(what) + " " + destination.string() + ": directory " + directory.string() +
                     " does not exist");
  }
  if (::access(directory.c_str(), W_OK) != 0) {
    throw UsageError(std::string(what) + " " + destination.string() + ": directory " + directory.string() +
                     " is not writable");
  }
  if (std::filesystem::is_directory(destination, error)) {
    throw UsageError(std::string(what) + " " + destination.string() + " is a directory");
  }
}

void write_file_atomically(const std::filesystem::path& destination, std::string_view content) {
  const auto directory = directory_of(destination);
  std::string pattern = (directory / ("." + destination.filename().string() + ".tmp-XXXXXX")).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) throw UsageError("cannot write " + destination.string() + ": " + std::strerror(errno));
  const std::string temp(name.data());
  auto fail = [&](const char* step) {
    const std::string reason = std::strerror(errno);
    ::close(fd);
    ::unlink(temp.c_str());
    throw UsageError("cannot write " + destination.string() + " (" + step + "): " + reason);
  };
  std::size_t written = 0;
  while (written < content.size()) {
    const auto got = ::write(fd, content.data() + written, content.size() - written);
    if (got < 0) {
      if (errno == EINTR) continue;
      fail("write");
    }
    written += static_cast<std::size_t>(got);
  }
  if (::fchmod(fd, 0644) != 0) fail("chmod");
  if (::fsync(fd) != 0) fail("fsync");
  if (::close(fd) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temp.c_str());
    throw UsageError("cannot write " + destination.string() + " (close): " + reason);
  }
  if (::rename(temp.c_str(), destination.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temp.c_str());
    throw UsageError("cannot write " + destination.string() + " (rename): " + reason);
  }
}

std::string read_text_file(const std::filesystem::path& path, std::string_view what) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    throw UsageError(std::string(what) + " " + path.string() + " does not exist or is not a file");
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) throw UsageError("cannot read " + std::string(what) + " " + path.string());
  std::ostringstream content;
  content << file.rdbuf();
  return content.str();
}

}  // namespace wcp
