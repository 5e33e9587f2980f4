// The installed layout `--cmake-dir` answers from (io/install_layout.h): a prefix with
// bin/warp-compile-probe and lib/cmake/WarpCompileProbe, as `cmake --install` and the wheel lay it
// out, and a build tree, which has no package.
#include "io/install_layout.h"

#include <gtest/gtest.h>

#include <fstream>

#include "errors.h"
#include "run/scratch_dir.h"

namespace wcp {
namespace {

namespace fs = std::filesystem;

void make_package(const fs::path& lib_dir) {
  fs::create_directories(lib_dir / "cmake" / "WarpCompileProbe");
  std::ofstream(lib_dir / "cmake" / "WarpCompileProbe" / "WarpCompileProbeConfig.cmake") << "";
}

TEST(InstallLayout, ThePrefixAboveBinHoldsThePackage) {
  const ScratchDir scratch;
  make_package(scratch.path() / "venv" / "lib");
  const auto binary = scratch.path() / "venv" / "bin" / "warp-compile-probe";
  EXPECT_EQ(install_prefix(binary), scratch.path() / "venv");
  EXPECT_EQ(cmake_prefix_of(binary), scratch.path() / "venv");
}

TEST(InstallLayout, Lib64AndMultiarchFoldersCount) {
  const ScratchDir scratch;
  make_package(scratch.path() / "a" / "lib64");
  make_package(scratch.path() / "b" / "lib" / "x86_64-linux-gnu");
  EXPECT_EQ(cmake_prefix_of(scratch.path() / "a/bin/warp-compile-probe"), scratch.path() / "a");
  EXPECT_EQ(cmake_prefix_of(scratch.path() / "b/bin/warp-compile-probe"), scratch.path() / "b");
}

TEST(InstallLayout, ABuildTreeHasNoPackageAndSaysSo) {
  const ScratchDir scratch;
  fs::create_directories(scratch.path() / "build" / "harness");
  try {
    cmake_prefix_of(scratch.path() / "build/harness/warp-compile-probe");
    FAIL() << "a build tree's binary found a CMake package";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("no CMake package is installed beside"), std::string::npos)
        << error.what();
  }
}

TEST(InstallLayout, TheRunningExecutableIsThisTestBinary) {
  EXPECT_EQ(running_executable().filename(), "unit_tests");
}

}  // namespace
}  // namespace wcp
