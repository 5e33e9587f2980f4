#include "measure/cache_inventory.h"

#include <fstream>
#include <map>
#include <string>

namespace wcp::measure {
namespace {

bool has_extension(const std::filesystem::path& path, std::initializer_list<const char*> extensions) {
  const auto extension = path.extension().string();
  for (const char* wanted : extensions) {
    if (extension == wanted) return true;
  }
  return false;
}

// Kernel entry points in Warp's generated source: CPU modules export `WP_API void
// <kernel>_cpu_forward(` / `_cpu_backward(`; CUDA modules declare `__global__` kernels named
// `<kernel>_cuda_kernel_forward` / `_cuda_kernel_backward`.
void count_entry_points(const std::filesystem::path& source, ModuleSource& module) {
  std::ifstream file(source);
  std::string line;
  while (std::getline(file, line)) {
    const bool exported = line.starts_with("WP_API void ") || line.find("__global__") != std::string::npos;
    if (!exported) continue;
    if (line.find("_cpu_forward(") != std::string::npos || line.find("_cuda_kernel_forward(") != std::string::npos) {
      ++module.forward_kernels;
    } else if (line.find("_cpu_backward(") != std::string::npos ||
               line.find("_cuda_kernel_backward(") != std::string::npos) {
      ++module.backward_kernels;
    }
  }
}

}  // namespace

CacheInventory inventory_cache(const std::filesystem::path& cache_root) {
  CacheInventory inventory;
  std::error_code error;
  if (!std::filesystem::is_directory(cache_root, error)) return inventory;
  std::map<std::string, ModuleSource> modules;
  std::map<std::string, bool> has_meta;
  const auto options = std::filesystem::directory_options::skip_permission_denied;
  for (std::filesystem::recursive_directory_iterator it(cache_root, options, error), end; !error && it != end;
       it.increment(error)) {
    if (!it->is_regular_file(error)) continue;
    const auto& path = it->path();
    const std::string directory = path.parent_path().filename().string();
    const auto size = it->file_size(error);
    if (has_extension(path, {".cpp", ".cu"})) {
      inventory.generated_source_bytes += size;
      auto& module = modules[directory];
      module.directory = directory;
      module.source_bytes += size;
      count_entry_points(path, module);
    } else if (has_extension(path, {".lto", ".ltoir"})) {
      ++inventory.lto_artifacts;
      inventory.lto_bytes += size;
    } else if (has_extension(path, {".meta"})) {
      has_meta[path.parent_path().string()] = true;
    }
  }
  inventory.module_directories = has_meta.size();
  for (auto& [name, module] : modules) inventory.modules.push_back(std::move(module));
  return inventory;
}

}  // namespace wcp::measure
