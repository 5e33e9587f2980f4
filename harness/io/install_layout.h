#pragma once
// Where the running binary is installed, and what an installation lays out beside it. Both ways
// of installing the tool give one prefix holding bin/warp-compile-probe and
// lib/cmake/WarpCompileProbe: `cmake --install` into any prefix, and pip, whose wheel puts the
// binary and the CMake package into the environment's prefix (a venv, ~/.local, /usr/local).
#include <filesystem>

namespace wcp {

// This process's executable (/proc/self/exe, symlinks resolved); empty when it cannot be read.
std::filesystem::path running_executable();

// The installation prefix of `executable`: the folder above its bin/.
std::filesystem::path install_prefix(const std::filesystem::path& executable);

// The prefix to put on CMAKE_PREFIX_PATH so that find_package(WarpCompileProbe) finds the package
// installed with `executable`. Throws UsageError when there is none (a build tree's binary).
std::filesystem::path cmake_prefix_of(const std::filesystem::path& executable);

}  // namespace wcp
