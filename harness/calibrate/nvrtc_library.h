#pragma once
// NVRTC loaded at run time. The rest of the tool must work on machines without the CUDA
// toolkit, so nothing links against libnvrtc and nvrtc.h is never included: the handful of
// entry points the calibration needs are declared here with NVRTC's C ABI.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

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
  // Search order: `explicit_path` alone when given (a wrong path is the user's mistake and
  // must not be papered over by a different NVRTC), else $CUDA_HOME/lib64, /usr/local/cuda/lib64,
  // then the dynamic loader's own search. Throws UsageError listing what was tried.
  static NvrtcLibrary load(const std::optional<std::filesystem::path>& explicit_path);

  NvrtcLibrary(NvrtcLibrary&&) noexcept = default;
  NvrtcLibrary& operator=(NvrtcLibrary&&) noexcept = default;

  const NvrtcApi& api() const { return api_; }
  const std::string& path() const { return path_; }  // what was handed to dlopen
  NvrtcVersion version() const;
  std::vector<int> supported_archs() const;  // empty when this NVRTC cannot tell
  std::string error_string(int status) const;

 private:
  struct HandleCloser {
    void operator()(void* handle) const;
  };
  NvrtcLibrary(std::unique_ptr<void, HandleCloser> handle, std::string path);

  std::unique_ptr<void, HandleCloser> handle_;
  std::string path_;
  NvrtcApi api_;
};

}  // namespace wcp::calibrate
