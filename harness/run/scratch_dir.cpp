#include "run/scratch_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "errors.h"

namespace wcp {

std::filesystem::path system_temp_dir() {
  const char* tmpdir = std::getenv("TMPDIR");
  if (tmpdir != nullptr && *tmpdir != '\0') return tmpdir;
  return "/tmp";
}

ScratchDir::ScratchDir(const std::string& prefix) {
  const auto base = system_temp_dir();
  std::string pattern = (base / (prefix + "XXXXXX")).string();
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (::mkdtemp(buffer.data()) == nullptr) {
    throw RunError("cannot create a scratch directory in " + base.string() + ": " + std::strerror(errno) +
                     " (set TMPDIR to a writable directory with free space)");
  }
  path_ = buffer.data();
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::filesystem::path ScratchDir::make_subdir(const std::string& name) const {
  const auto dir = path_ / name;
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    throw RunError("cannot create " + dir.string() + ": " + std::strerror(errno));
  }
  return dir;
}

}  // namespace wcp
