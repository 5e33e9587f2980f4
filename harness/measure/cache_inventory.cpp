#include "measure/cache_inventory.h"

#include "io/file_digest.h"

#include <cctype>
#include <fstream>
#include <map>
#include <optional>
#include <set>
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

// Where a kernel's code starts in Warp's generated source. Warp emits, per kernel and at
// column 0: `struct wp_args_<name> {`, the CPU functions `<name>_cpu_kernel_forward(`,
// `_cpu_forward_tasks(`, `_cpu_forward_dispatch(`, `WP_API void <name>_cpu_forward(` (and the
// backward ones), or on CUDA `extern "C" ... __global__ void ... <name>_cuda_kernel_forward(`.
// Calls to those functions inside bodies are indented, so only column-0 lines start a kernel.
struct KernelStart {
  std::string name;
  bool backward = false;
  bool entry_point = false;  // an exported entry point: counts as one forward or backward kernel
};

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// The identifier that ends right before `end` in `line`.
std::string identifier_before(const std::string& line, std::size_t end) {
  std::size_t begin = end;
  while (begin > 0 && identifier_char(line[begin - 1])) --begin;
  return line.substr(begin, end - begin);
}

std::optional<KernelStart> kernel_start(const std::string& line) {
  if (line.empty() || std::isspace(static_cast<unsigned char>(line.front())) != 0) return std::nullopt;
  if (line.starts_with("struct wp_args_")) {
    const std::size_t begin = std::string_view("struct wp_args_").size();
    std::size_t end = begin;
    while (end < line.size() && identifier_char(line[end])) ++end;
    return KernelStart{line.substr(begin, end - begin), false, false};
  }
  struct Suffix {
    const char* text;
    bool backward;
    bool entry_point;
  };
  static constexpr Suffix kSuffixes[] = {
      {"_cuda_kernel_forward(", false, true},   {"_cuda_kernel_backward(", true, true},
      {"_cpu_kernel_forward(", false, false},   {"_cpu_kernel_backward(", true, false},
      {"_cpu_forward_tasks(", false, false},    {"_cpu_backward_tasks(", true, false},
      {"_cpu_forward_dispatch(", false, false}, {"_cpu_backward_dispatch(", true, false},
      {"_cpu_forward(", false, true},           {"_cpu_backward(", true, true},
  };
  for (const auto& suffix : kSuffixes) {
    const auto at = line.find(suffix.text);
    if (at == std::string::npos) continue;
    if (suffix.entry_point && std::string_view(suffix.text).starts_with("_cpu") && !line.starts_with("WP_API void ")) {
      continue;  // a CPU entry point is exported; anything else naming it is not its definition
    }
    std::string name = identifier_before(line, at);
    if (name.empty()) continue;
    return KernelStart{std::move(name), suffix.backward, suffix.entry_point};
  }
  return std::nullopt;
}

// Splits one generated source file into per-kernel byte counts (each definition runs until the
// next kernel's definition starts) and counts the exported entry points.
// The Python line number of a forward source-line marker (`// <python source>   <L 42>`), or
// nullopt for any other line (the backward code's markers read `// adj: ...`).
std::optional<long> forward_line_marker(const std::string& line) {
  const auto at = line.rfind("<L ");
  if (at == std::string::npos || line.back() != '>') return std::nullopt;
  const auto comment = line.find("//");
  if (comment == std::string::npos || comment > at || line.compare(comment, 6, "// adj") == 0) return std::nullopt;
  long number = 0;
  for (std::size_t i = at + 3; i + 1 < line.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(line[i])) == 0) return std::nullopt;
    number = number * 10 + (line[i] - '0');
  }
  return number;
}

void measure_source(const std::filesystem::path& source, ModuleSource& module) {
  std::ifstream file(source);
  std::string line;
  std::map<std::string, std::size_t> index;             // kernel name -> position in module.kernels
  std::optional<std::pair<std::size_t, bool>> current;  // (kernel, backward) the lines belong to
  std::set<std::pair<std::size_t, long>> emitted;       // (kernel, python line) markers seen in forward code
  // Per kernel: forward markers, repeated ones, and whether it has a loop over a wp.static range,
  // which Warp unrolls whatever max_unroll says (codegen's get_unroll_range): its repeats are the
  // program's choice, not the unroll budget's, so such a kernel is left out of the counts.
  struct Markers {
    std::uint64_t total = 0;
    std::uint64_t repeated = 0;
    bool static_loop = false;
  };
  std::map<std::size_t, Markers> markers;
  while (std::getline(file, line)) {
    if (current && !current->second) {
      if (const auto marker = forward_line_marker(line)) {
        Markers& counts = markers[current->first];
        ++counts.total;
        if (!emitted.emplace(current->first, *marker).second) ++counts.repeated;
        if (line.find("range(wp.static(") != std::string::npos || line.find("in wp.static(") != std::string::npos)
          counts.static_loop = true;
      }
    }
    const std::uint64_t bytes = line.size() + 1;
    if (const auto start = kernel_start(line)) {
      auto [found, added] = index.try_emplace(start->name, module.kernels.size());
      if (added) module.kernels.push_back({start->name, 0, 0});
      current = std::pair{found->second, start->backward};
      if (start->entry_point) ++(start->backward ? module.backward_kernels : module.forward_kernels);
    }
    if (!current) {
      module.shared_bytes += bytes;
    } else {
      auto& kernel = module.kernels[current->first];
      (current->second ? kernel.backward_bytes : kernel.forward_bytes) += bytes;
    }
  }
  module.forward_line_markers = module.forward_line_markers.value_or(0);
  module.repeated_line_markers = module.repeated_line_markers.value_or(0);
  for (const auto& [kernel, counts] : markers) {
    if (counts.static_loop) continue;
    *module.forward_line_markers += counts.total;
    *module.repeated_line_markers += counts.repeated;
  }
}

}  // namespace

CacheInventory inventory_cache(const std::filesystem::path& cache_root) {
  CacheInventory inventory;
  std::error_code error;
  if (!std::filesystem::is_directory(cache_root, error)) return inventory;
  inventory.total_bytes = 0;  // measured from here on: an empty cache holds 0 bytes
  std::map<std::string, ModuleSource> modules;
  std::map<std::string, bool> has_meta;
  // Per module directory, its files by name: digests are taken in name order, whatever order
  // the directory listing gave.
  std::map<std::string, std::map<std::string, std::filesystem::path>> sources, outputs;
  const auto options = std::filesystem::directory_options::skip_permission_denied;
  for (std::filesystem::recursive_directory_iterator it(cache_root, options, error), end; !error && it != end;
       it.increment(error)) {
    if (!it->is_regular_file(error)) continue;
    const auto& path = it->path();
    const std::string directory = path.parent_path().filename().string();
    const auto size = it->file_size(error);
    inventory.total_bytes = inventory.total_bytes.value_or(0) + size;
    if (has_extension(path, {".cpp", ".cu"})) {
      inventory.generated_source_bytes += size;
      auto& module = modules[directory];
      module.directory = directory;
      module.source_bytes += size;
      measure_source(path, module);
      sources[directory][path.filename().string()] = path;
    } else if (has_extension(path, {".o", ".obj", ".cubin", ".ptx", ".fatbin"})) {
      modules[directory].directory = directory;
      outputs[directory][path.filename().string()] = path;
    } else if (has_extension(path, {".lto", ".ltoir"})) {
      ++inventory.lto_artifacts;
      inventory.lto_bytes += size;
    } else if (has_extension(path, {".meta"})) {
      has_meta[path.parent_path().string()] = true;
    }
  }
  inventory.module_directories = has_meta.size();
  for (auto& [directory, module] : modules) {
    const auto digest = [](const std::map<std::string, std::filesystem::path>& files) -> std::optional<std::string> {
      Crc64 crc;
      for (const auto& [name, path] : files) {
        crc.feed(name);
        if (!crc.feed_file(path)) return std::nullopt;  // unreadable: no digest rather than a wrong one
      }
      return crc.hex();
    };
    if (const auto found = sources.find(directory); found != sources.end())
      module.source_digest = digest(found->second);
    if (const auto found = outputs.find(directory); found != outputs.end()) {
      module.output_digest = digest(found->second);
      std::uint64_t bytes = 0;
      bool sized = true;
      for (const auto& [name, path] : found->second) {
        std::error_code size_error;
        const auto size = std::filesystem::file_size(path, size_error);
        sized = sized && !size_error;
        if (!size_error) bytes += size;
      }
      if (sized) module.output_bytes = bytes;
    }
  }
  for (auto& [name, module] : modules) inventory.modules.push_back(std::move(module));
  return inventory;
}

}  // namespace wcp::measure
