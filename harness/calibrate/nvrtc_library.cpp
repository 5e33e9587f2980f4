#include "calibrate/nvrtc_library.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <link.h>

#include <array>
#include <cstddef>

#include "errors.h"
#include "io/environment.h"

namespace wcp::calibrate {
namespace {

// A bare name records the file the loader picked, not the name: that is what a calibration
// must name, and it may be an NVRTC this process loaded before from elsewhere (the loader
// matches a bare name against the sonames already loaded).
NvrtcCandidate with_file_loaded(NvrtcCandidate candidate, void* handle) {
  if (candidate.path.has_parent_path()) return candidate;
  link_map* map = nullptr;
  if (::dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr && map->l_name != nullptr &&
      *map->l_name != '\0') {
    candidate.path = map->l_name;
  }
  return candidate;
}

// Not `bind`: an unqualified bind(..., std::string) call would find std::bind by ADL.
template <typename Function>
void bind_symbol(void* handle, const char* symbol, Function& slot, bool required, const std::string& path) {
  void* address = ::dlsym(handle, symbol);
  if (address == nullptr && required) {
    throw UsageError(path + " is not a usable NVRTC library: it lacks " + symbol +
                     " (pass --nvrtc-library with the path of libnvrtc.so from a CUDA toolkit 12 or newer)");
  }
  slot = reinterpret_cast<Function>(address);
}

// Binds each slot to the symbol at its position in `symbols`.
template <std::size_t N, typename... Functions>
void bind_symbols(void* handle, const std::array<const char*, N>& symbols, bool required, const std::string& path,
                  Functions&... slots) {
  static_assert(sizeof...(Functions) == N, "one symbol per slot");
  std::size_t next = 0;
  (bind_symbol(handle, symbols[next++], slots, required, path), ...);  // a comma fold runs left to right
}

// In NvrtcApi's order: an NVRTC without a required one is refused; the arch queries may be missing.
constexpr std::array<const char*, 11> kRequiredSymbols{
    "nvrtcGetErrorString", "nvrtcVersion",           "nvrtcCreateProgram", "nvrtcDestroyProgram",
    "nvrtcCompileProgram", "nvrtcGetProgramLogSize", "nvrtcGetProgramLog", "nvrtcGetPTXSize",
    "nvrtcGetPTX",         "nvrtcGetCUBINSize",      "nvrtcGetCUBIN"};
constexpr std::array<const char*, 2> kOptionalSymbols{"nvrtcGetNumSupportedArchs", "nvrtcGetSupportedArchs"};

}  // namespace

void NvrtcLibrary::HandleCloser::operator()(void* /*handle*/) const {
  // Deliberately not dlclose()d: NVRTC keeps process-lifetime state (its own allocator pools,
  // exit handlers) that it releases only at process exit, and unloading it earlier leaves
  // that state pointing into unmapped code. The handle is reference-counted by the loader, so
  // loading again later is free.
}

NvrtcLibrary::NvrtcLibrary(std::unique_ptr<void, HandleCloser> handle, NvrtcCandidate from)
    : handle_(std::move(handle)), path_(from.path.string()), origin_(std::move(from.origin)) {
  void* raw = handle_.get();
  bind_symbols(raw, kRequiredSymbols, true, path_, api_.get_error_string, api_.version, api_.create_program,
               api_.destroy_program, api_.compile_program, api_.get_program_log_size, api_.get_program_log,
               api_.get_ptx_size, api_.get_ptx, api_.get_cubin_size, api_.get_cubin);
  bind_symbols(raw, kOptionalSymbols, false, path_, api_.get_num_supported_archs, api_.get_supported_archs);
}

NvrtcLibrary NvrtcLibrary::load(const NvrtcSearch& search) {
  const auto plan = plan_nvrtc_search(search, process_environment());
  std::vector<std::string> tried;
  for (const auto& candidate : plan.candidates) {
    std::unique_ptr<void, HandleCloser> handle(::dlopen(candidate.path.c_str(), RTLD_NOW | RTLD_LOCAL));
    if (handle) {
      auto loaded = with_file_loaded(candidate, handle.get());
      NvrtcLibrary library(std::move(handle), std::move(loaded));
      library.load_builtins_beside();
      return library;
    }
    if (plan.explicit_choice) {
      const char* reason = ::dlerror();
      const std::string named_by = candidate.origin == "--nvrtc-library" ? "" : " (named by " + candidate.origin + ")";
      throw UsageError("cannot load NVRTC from " + candidate.path.string() + named_by + ": " +
                       (reason != nullptr ? reason : "unknown dlopen error") +
                       " (pass --nvrtc-library with the path of libnvrtc.so from a CUDA toolkit)");
    }
    tried.push_back(candidate.path.string());
  }
  std::string looked = tried.empty() ? "nothing to try" : fmt::format("tried {}", fmt::join(tried, ", "));
  for (const auto& note : plan.notes) looked += "; " + note;
  throw UsageError("cannot find NVRTC (" + looked +
                   "); install the CUDA toolkit, set CUDA_HOME, install the nvidia-cuda-nvrtc wheel into the venv "
                   "of the Python the tool uses (ci/setup.sh does), or pass --nvrtc-library PATH");
}

void NvrtcLibrary::load_builtins_beside() {
  // At its first compile NVRTC dlopen()s libnvrtc-builtins.so.<major>.<minor> by bare name, which
  // the loader finds only on its own search path: a wheel's folder, or a toolkit that is not in
  // ld.so.cache, is not on it. Loaded first from NVRTC's own folder, under that soname, it is the
  // one NVRTC then gets (and the builtins of this very NVRTC, not of another toolkit's).
  const std::filesystem::path path(path_);
  if (!path.has_parent_path()) return;  // found by the loader, which finds the builtins the same way
  const auto version = this->version();
  const auto name = fmt::format("libnvrtc-builtins.so.{}.{}", version.major, version.minor);
  std::error_code ignored;
  for (const auto& dir : {path.parent_path(), std::filesystem::canonical(path, ignored).parent_path()}) {
    if (dir.empty() || !std::filesystem::exists(dir / name, ignored)) continue;
    builtins_.reset(::dlopen((dir / name).c_str(), RTLD_NOW | RTLD_LOCAL));
    if (builtins_) {
      builtins_path_ = (dir / name).string();
      return;
    }
  }
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
