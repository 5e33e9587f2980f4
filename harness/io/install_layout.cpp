#include "io/install_layout.h"

#include <vector>

#include "errors.h"

namespace wcp {
namespace {

constexpr const char* kPackageConfig = "cmake/WarpCompileProbe/WarpCompileProbeConfig.cmake";

// The library folders find_package() searches below a prefix: lib, lib64 and lib/<multiarch>
// (GNUInstallDirs picks one of them by platform).
std::vector<std::filesystem::path> library_dirs(const std::filesystem::path& prefix) {
  std::vector<std::filesystem::path> dirs = {prefix / "lib", prefix / "lib64"};
  std::error_code error;
  for (std::filesystem::directory_iterator it(prefix / "lib", error), end; !error && it != end; it.increment(error)) {
    if (it->path().filename().string().find("-linux-") != std::string::npos) dirs.push_back(it->path());
  }
  return dirs;
}

}  // namespace

std::filesystem::path running_executable() {
  std::error_code error;
  auto path = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::path() : path;
}

std::filesystem::path install_prefix(const std::filesystem::path& executable) {
  return executable.parent_path().parent_path();
}

std::filesystem::path cmake_prefix_of(const std::filesystem::path& executable) {
  const auto prefix = install_prefix(executable);
  for (const auto& dir : library_dirs(prefix)) {
    std::error_code error;
    if (std::filesystem::is_regular_file(dir / kPackageConfig, error)) return prefix;
  }
  throw UsageError("no CMake package is installed beside " + executable.string() + " (looked for " +
                   (prefix / "lib" / kPackageConfig).string() +
                   "): a build tree's binary has none; use the tool installed by pip or by `cmake --install`");
}

}  // namespace wcp
