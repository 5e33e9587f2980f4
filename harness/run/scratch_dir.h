#pragma once
// A private directory under the system temp dir, created with mkdtemp semantics (mode 0700,
// unpredictable name) and removed with everything in it when the object goes away — on
// success, on a failing target, and while unwinding from an interrupt.
#include <filesystem>
#include <string>

namespace wcp {

class ScratchDir {
 public:
  explicit ScratchDir(const std::string& prefix = "warp-compile-probe-");
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path make_subdir(const std::string& name) const;  // 0700 as well

 private:
  std::filesystem::path path_;
};

// $TMPDIR when set and non-empty, else /tmp.
std::filesystem::path system_temp_dir();

}  // namespace wcp
