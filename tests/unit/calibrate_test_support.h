#pragma once
// Shared by the calibrate_* tests that need a real NVRTC and a real Warp install. A machine
// without them fails those tests with the reason (GTEST_FAIL); they do not skip.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "calibrate/nvrtc_library.h"

namespace wcp::calibrate::testing {

inline std::optional<NvrtcLibrary> try_load_nvrtc() {
  try {
    return NvrtcLibrary::load(std::nullopt);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// $WCP_WARP_NATIVE_DIR, else asks $WCP_PYTHON, the project venv or python3 where warp lives.
inline std::optional<std::filesystem::path> find_warp_native_dir_for_tests() {
  if (const char* dir = std::getenv("WCP_WARP_NATIVE_DIR"); dir != nullptr && *dir != '\0') return dir;
  std::vector<std::string> pythons;
  if (const char* python = std::getenv("WCP_PYTHON"); python != nullptr && *python != '\0')
    pythons.emplace_back(python);
  pythons.emplace_back(std::string(WCP_SOURCE_DIR) + "/.venv/bin/python");
  pythons.emplace_back("python3");
  for (const auto& python : pythons) {
    const std::string command =
        "'" + python +
        "' -c \"import os, warp; print(os.path.join(os.path.dirname(warp.__file__), 'native'))\" 2>/dev/null";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), ::pclose);
    if (!pipe) continue;
    char line[4096] = {};
    if (std::fgets(line, sizeof(line), pipe.get()) == nullptr) continue;
    std::string dir = line;
    while (!dir.empty() && (dir.back() == '\n' || dir.back() == '\r')) dir.pop_back();
    if (std::filesystem::is_regular_file(std::filesystem::path(dir) / "builtin.h")) return dir;
  }
  return std::nullopt;
}

inline std::filesystem::path source_fixtures_dir() {
  return std::filesystem::path(WCP_SOURCE_DIR) / "cuda_fixtures";
}

}  // namespace wcp::calibrate::testing
