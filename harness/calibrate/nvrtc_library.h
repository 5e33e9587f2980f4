#pragma once
// NVRTC loaded at run time. The rest of the tool must work on machines without the CUDA
// toolkit, so nothing links against libnvrtc and nvrtc.h is never included: the handful of
// entry points the calibration needs are declared here with NVRTC's C ABI.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "calibrate/nvrtc_search.h"

namespace wcp::calibrate {

// The subset of nvrtcResult the code reacts to; the ABI type is a plain C enum (int).
enum NvrtcStatus : int { kNvrtcSuccess = 0, kNvrtcInvalidOption = 5, kNvrtcCompilationFailed = 6 };

using NvrtcProgram = struct NvrtcProgramOpaque*;

struct NvrtcApi {
  const char* (*get_error_string)(int status) = nullptr;
  int (*version)(int* major, int* minor) = nullptr;
  int (*create_program)(NvrtcProgram* program, const char* source, const char* name, int header_count,
                        const char* const* headers, const char* const* include_names) = nullptr;
  int (*destroy_program)(NvrtcProgram* program) = nullptr;
  int (*compile_program)(NvrtcProgram program, int option_count, const char* const* options) = nullptr;
  int (*get_program_log_size)(NvrtcProgram program, size_t* size) = nullptr;
  int (*get_program_log)(NvrtcProgram program, char* log) = nullptr;
  int (*get_ptx_size)(NvrtcProgram program, size_t* size) = nullptr;
  int (*get_ptx)(NvrtcProgram program, char* ptx) = nullptr;
  int (*get_cubin_size)(NvrtcProgram program, size_t* size) = nullptr;
  int (*get_cubin)(NvrtcProgram program, char* cubin) = nullptr;
  // Optional: NVRTC older than 11.2 lacks these; arch validation then defers to the compiler.
  int (*get_num_supported_archs)(int* count) = nullptr;
  int (*get_supported_archs)(int* archs) = nullptr;
};

struct NvrtcVersion {
  int major = 0;
  int minor = 0;
  std::string text() const { return std::to_string(major) + "." + std::to_string(minor); }
};

class NvrtcLibrary {
 public:
  // The first candidate of plan_nvrtc_search() (nvrtc_search.h: --nvrtc-library or $WCP_NVRTC
  // alone, else the toolkit, then the venv's wheel) that loads, with the NVRTC builtins library
  // beside it. Throws UsageError saying what was tried and what was left out.
  static NvrtcLibrary load(const NvrtcSearch& search);

  NvrtcLibrary(NvrtcLibrary&&) noexcept = default;
  NvrtcLibrary& operator=(NvrtcLibrary&&) noexcept = default;

  const NvrtcApi& api() const { return api_; }
  const std::string& path() const { return path_; }      // the file loaded (a bare name resolved)
  const std::string& origin() const { return origin_; }  // where that came from: "$CUDA_HOME", "the venv of ..."
  // The builtins library loaded from NVRTC's own folder; empty when NVRTC's own lookup finds it.
  const std::string& builtins_path() const { return builtins_path_; }
  NvrtcVersion version() const;
  std::vector<int> supported_archs() const;  // empty when this NVRTC cannot tell
  std::string error_string(int status) const;

 private:
  struct HandleCloser {
    void operator()(void* handle) const;
  };
  NvrtcLibrary(std::unique_ptr<void, HandleCloser> handle, NvrtcCandidate from);
  void load_builtins_beside();

  std::unique_ptr<void, HandleCloser> handle_;
  std::unique_ptr<void, HandleCloser> builtins_;  // null when the loader is left to find it
  std::string path_;
  std::string origin_;
  std::string builtins_path_;
  NvrtcApi api_;
};

}  // namespace wcp::calibrate
