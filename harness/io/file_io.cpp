#include "io/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "errors.h"

namespace wcp {
namespace {

std::filesystem::path directory_of(const std::filesystem::path& destination) {
  const auto parent = destination.parent_path();
  return parent.empty() ? std::filesystem::path(".") : parent;
}

// The temporary file of one atomic write: closed and removed unless committed.
class PendingFile {
 public:
  explicit PendingFile(const std::filesystem::path& destination) : destination_(destination) {
    std::string pattern =
        (directory_of(destination) / ("." + destination.filename().string() + ".tmp-XXXXXX")).string();
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    fd_ = ::mkstemp(name.data());
    if (fd_ < 0) fail("create");
    path_ = name.data();
  }
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  ~PendingFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_ && !path_.empty()) ::unlink(path_.c_str());
  }

  void write(std::string_view content) {
    std::size_t written = 0;
    while (written < content.size()) {
      const auto got = ::write(fd_, content.data() + written, content.size() - written);
      if (got < 0) {
        if (errno == EINTR) continue;
        fail("write");
      }
      written += static_cast<std::size_t>(got);
    }
  }

  void commit() {
    if (::fchmod(fd_, 0644) != 0) fail("chmod");
    if (::fsync(fd_) != 0) fail("fsync");
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail("close");
    if (::rename(path_.c_str(), destination_.c_str()) != 0) fail("rename");
    committed_ = true;
  }

 private:
  [[noreturn]] void fail(const char* step) const {
    throw RunError("cannot write " + destination_.string() + " (" + step + "): " + std::strerror(errno));
  }

  std::filesystem::path destination_;
  std::string path_;
  int fd_ = -1;
  bool committed_ = false;
};

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
  PendingFile file(destination);
  file.write(content);
  file.commit();
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
