#pragma once
// Where NVRTC is looked for, in order. A machine with a CUDA toolkit uses the toolkit's; a
// machine without one (a stock CI runner) uses the `nvidia-cuda-nvrtc` wheel: the one pip put
// beside the installed tool (`pip install 'warp-compile-probe[nvrtc]'`), else the one ci/setup.sh
// puts into the project's venv, found through the interpreter the tool already uses for Warp.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "io/environment.h"
#include "io/install_layout.h"

namespace wcp::calibrate {

struct NvrtcSearch {
  std::optional<std::filesystem::path> explicit_path;  // --nvrtc-library
  // The interpreter in use (--python, $WCP_PYTHON, the command's own): the venv it belongs to
  // may hold the wheel. Empty: no venv is searched.
  std::string python;
  // This binary: when pip installed it (bin/ of a venv or other prefix), that prefix's
  // site-packages may hold the wheel, whatever interpreter is in use. Empty: not searched.
  std::filesystem::path tool_executable = running_executable();
};

struct NvrtcCandidate {
  std::filesystem::path path;  // handed to dlopen: a file, or a bare name for the loader's own search
  std::string origin;          // where it came from, for messages: "$CUDA_HOME", "the venv of /x/bin/python"
};

struct NvrtcSearchPlan {
  std::vector<NvrtcCandidate> candidates;
  // One path the user named (--nvrtc-library or $WCP_NVRTC): a wrong one is their mistake and
  // must not be papered over by a different NVRTC, so nothing else is tried.
  bool explicit_choice = false;
  std::vector<std::string> notes;  // places left out or empty, for the error when nothing loads
};

// The order, first that loads wins:
//   1. `explicit_path`, else $WCP_NVRTC: that file alone;
//   2. $CUDA_HOME, then $CUDA_PATH: lib64/ and lib/;
//   3. /usr/local/cuda/lib64;
//   4. the dynamic loader's own search (LD_LIBRARY_PATH, ld.so.cache) for the bare names;
//   5. the nvidia-cuda-nvrtc wheel in the tool's own environment: the prefix above the bin/ of
//      `tool_executable` (the venv pip installed warp-compile-probe[nvrtc] into);
//   6. the nvidia-cuda-nvrtc wheel in the venv of `python`.
// In 5 and 6: nvidia/cu<N>/lib, newest N first, then the CUDA 12 wheels' nvidia/cuda_nvrtc/lib.
// WCP_NVRTC_NO_SYSTEM=1 leaves out 2-4, so that a machine with a toolkit can test 5 and 6.
NvrtcSearchPlan plan_nvrtc_search(const NvrtcSearch& search, const EnvironmentLookup& environment);

// The wheel's libnvrtc.so.<N> files below the venv (or other prefix) of `python`, newest first.
// `python` is taken as given (a venv's bin/python is a symlink out of the venv, so it is not
// resolved); a bare name is looked up on `path_variable` like a shell would.
std::vector<std::filesystem::path> wheel_nvrtc_libraries(const std::string& python, const std::string& path_variable);

// The wheel's libnvrtc.so.<N> files in the Python package folders below `prefix`, newest first.
std::vector<std::filesystem::path> prefix_nvrtc_libraries(const std::filesystem::path& prefix);

}  // namespace wcp::calibrate
