#include "calibrate/nvrtc_library.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <dlfcn.h>

#include <cstdlib>

#include "errors.h"

namespace wcp::calibrate {
namespace {

std::vector<std::string> candidate_paths() {
  const std::vector<std::string> names = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"};
  std::vector<std::filesystem::path> dirs;
  if (const char* cuda_home = std::getenv("CUDA_HOME"); cuda_home != nullptr && *cuda_home != '\0') {
    dirs.emplace_back(std::filesystem::path(cuda_home) / "lib64");
  }
  dirs.emplace_back("/usr/local/cuda/lib64");
  std::vector<std::string> candidates;
  for (const auto& dir : dirs) {
    for (const auto& name : names) candidates.push_back((dir / name).string());
  }
  // Bare names last: the loader then honours LD_LIBRARY_PATH and ld.so.cache.
  for (const auto& name : names) candidates.push_back(name);
  return candidates;
}

template <typename Function>
void bind(void* handle, const char* symbol, Function& slot, bool required, const std::string& path) {
  void* address = ::dlsym(handle, symbol);
  if (address == nullptr && required) {
    throw UsageError(path + " is not a usable NVRTC library: it lacks " + symbol +
                     " (pass --nvrtc-library with the path of libnvrtc.so from a CUDA toolkit 12 or newer)");
  }
  slot = reinterpret_cast<Function>(address);
}

}  // namespace

void NvrtcLibrary::HandleCloser::operator()(void* /*handle*/) const {
  // Deliberately not dlclose()d: NVRTC keeps process-lifetime state (its own allocator pools,
  // exit handlers) that it releases only at process exit, and unloading it earlier leaves
  // that state pointing into unmapped code. The handle is reference-counted by the loader, so
  // loading again later is free.
}

NvrtcLibrary::NvrtcLibrary(std::unique_ptr<void, HandleCloser> handle, std::string path)
    : handle_(std::move(handle)), path_(std::move(path)) {
  void* raw = handle_.get();
  bind(raw, "nvrtcGetErrorString", api_.get_error_string, true, path_);
  bind(raw, "nvrtcVersion", api_.version, true, path_);
  bind(raw, "nvrtcCreateProgram", api_.create_program, true, path_);
  bind(raw, "nvrtcDestroyProgram", api_.destroy_program, true, path_);
  bind(raw, "nvrtcCompileProgram", api_.compile_program, true, path_);
  bind(raw, "nvrtcGetProgramLogSize", api_.get_program_log_size, true, path_);
  bind(raw, "nvrtcGetProgramLog", api_.get_program_log, true, path_);
  bind(raw, "nvrtcGetPTXSize", api_.get_ptx_size, true, path_);
  bind(raw, "nvrtcGetPTX", api_.get_ptx, true, path_);
  bind(raw, "nvrtcGetCUBINSize", api_.get_cubin_size, true, path_);
  bind(raw, "nvrtcGetCUBIN", api_.get_cubin, true, path_);
  bind(raw, "nvrtcGetNumSupportedArchs", api_.get_num_supported_archs, false, path_);
  bind(raw, "nvrtcGetSupportedArchs", api_.get_supported_archs, false, path_);
}

NvrtcLibrary NvrtcLibrary::load(const std::optional<std::filesystem::path>& explicit_path) {
  if (explicit_path) {
    std::unique_ptr<void, HandleCloser> handle(::dlopen(explicit_path->c_str(), RTLD_NOW | RTLD_LOCAL));
    if (!handle) {
      const char* reason = ::dlerror();
      throw UsageError("cannot load NVRTC from " + explicit_path->string() + ": " +
                       (reason != nullptr ? reason : "unknown dlopen error") +
                       " (pass --nvrtc-library with the path of libnvrtc.so from a CUDA toolkit)");
    }
    return NvrtcLibrary(std::move(handle), explicit_path->string());
  }
  std::vector<std::string> tried;
  for (const auto& candidate : candidate_paths()) {
    std::unique_ptr<void, HandleCloser> handle(::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL));
    if (handle) return NvrtcLibrary(std::move(handle), candidate);
    tried.push_back(candidate);
  }
  throw UsageError(fmt::format(
      "cannot find NVRTC (tried {}); install the CUDA toolkit, set CUDA_HOME, or pass --nvrtc-library PATH",
      fmt::join(tried, ", ")));
}

NvrtcVersion NvrtcLibrary::version() const {
  NvrtcVersion version;
  if (api_.version(&version.major, &version.minor) != kNvrtcSuccess) {
    throw UsageError("NVRTC at " + path_ + " does not report its version; the library looks broken");
  }
  return version;
}

std::vector<int> NvrtcLibrary::supported_archs() const {
  if (api_.get_num_supported_archs == nullptr || api_.get_supported_archs == nullptr) return {};
  int count = 0;
  if (api_.get_num_supported_archs(&count) != kNvrtcSuccess || count <= 0) return {};
  std::vector<int> archs(static_cast<size_t>(count));
  if (api_.get_supported_archs(archs.data()) != kNvrtcSuccess) return {};
  return archs;
}

std::string NvrtcLibrary::error_string(int status) const {
  const char* text = api_.get_error_string(status);
  return text != nullptr ? text : "NVRTC error " + std::to_string(status);
}

}  // namespace wcp::calibrate
