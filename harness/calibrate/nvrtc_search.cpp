#include "calibrate/nvrtc_search.h"

#include <algorithm>
#include <array>
#include <charconv>

#include "errors.h"
#include "io/executable.h"

namespace wcp::calibrate {
namespace {

// Toolkit directories hold the unversioned development link too; the loader's cache may only
// know the versioned names.
constexpr std::array<const char*, 3> kToolkitLibraryNames = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"};

std::optional<std::string> set_and_non_empty(const EnvironmentLookup& environment, const std::string& name) {
  auto value = environment(name);
  if (!value || value->empty()) return std::nullopt;
  return value;
}

// N of `prefix` + N when the rest of `name` is all digits.
std::optional<int> number_after(const std::string& name, const std::string& prefix) {
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  int number = 0;
  const char* first = name.data() + prefix.size();
  const char* last = name.data() + name.size();
  const auto [end, error] = std::from_chars(first, last, number);
  if (error != std::errc() || end != last) return std::nullopt;
  return number;
}

// The entries of `dir` named `prefix` + N, highest N first; none when `dir` cannot be read.
std::vector<std::filesystem::path> numbered_entries(const std::filesystem::path& dir, const std::string& prefix) {
  std::vector<std::pair<int, std::filesystem::path>> found;
  std::error_code error;
  for (std::filesystem::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    if (auto number = number_after(it->path().filename().string(), prefix)) found.emplace_back(*number, it->path());
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::filesystem::path> paths;
  for (auto& [number, path] : found) paths.push_back(std::move(path));
  return paths;
}

// site-packages (venvs, conda) and dist-packages (Debian's pip) of every Python below `prefix`.
std::vector<std::filesystem::path> package_dirs(const std::filesystem::path& prefix) {
  std::vector<std::filesystem::path> dirs;
  std::error_code error;
  for (std::filesystem::directory_iterator it(prefix / "lib", error), end; !error && it != end; it.increment(error)) {
    if (it->path().filename().string().rfind("python3", 0) != 0) continue;
    for (const char* leaf : {"site-packages", "dist-packages"}) {
      std::error_code ignored;
      if (std::filesystem::is_directory(it->path() / leaf, ignored)) dirs.push_back(it->path() / leaf);
    }
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

// Once each: $CUDA_HOME is often /usr/local/cuda itself.
void add_candidate(NvrtcSearchPlan& plan, NvrtcCandidate candidate) {
  for (const auto& known : plan.candidates) {
    if (known.path == candidate.path) return;
  }
  plan.candidates.push_back(std::move(candidate));
}

void add_toolkit(NvrtcSearchPlan& plan, const std::filesystem::path& root, const std::string& origin,
                 const std::vector<std::string>& subdirs) {
  for (const auto& subdir : subdirs) {
    for (const char* name : kToolkitLibraryNames) add_candidate(plan, {root / subdir / name, origin});
  }
}

}  // namespace

std::vector<std::filesystem::path> wheel_nvrtc_libraries(const std::string& python, const std::string& path_variable) {
  std::filesystem::path interpreter;
  try {
    interpreter = resolve_executable(python, {{"PATH", path_variable}}, std::filesystem::current_path());
  } catch (const UsageError&) {
    return {};  // no such interpreter: nothing to search; the caller's own use of it will say so
  }
  // <prefix>/bin/python: the venv's (or conda's, or /usr/local's) root is two levels up.
  return prefix_nvrtc_libraries(interpreter.parent_path().parent_path());
}

std::vector<std::filesystem::path> prefix_nvrtc_libraries(const std::filesystem::path& prefix) {
  std::vector<std::filesystem::path> libraries;
  for (const auto& packages : package_dirs(prefix)) {
    // CUDA 13 on: nvidia/cu13/lib (one folder per generation). CUDA 12: nvidia/cuda_nvrtc/lib.
    auto lib_dirs = numbered_entries(packages / "nvidia", "cu");
    lib_dirs.push_back(packages / "nvidia" / "cuda_nvrtc");
    for (const auto& dir : lib_dirs) {
      for (auto& library : numbered_entries(dir / "lib", "libnvrtc.so.")) libraries.push_back(std::move(library));
    }
  }
  return libraries;
}

NvrtcSearchPlan plan_nvrtc_search(const NvrtcSearch& search, const EnvironmentLookup& environment) {
  NvrtcSearchPlan plan;
  if (search.explicit_path) {
    plan.candidates.push_back({*search.explicit_path, "--nvrtc-library"});
    plan.explicit_choice = true;
    return plan;
  }
  if (auto named = set_and_non_empty(environment, "WCP_NVRTC")) {
    plan.candidates.push_back({*named, "$WCP_NVRTC"});
    plan.explicit_choice = true;
    return plan;
  }
  if (flag_set(environment, "WCP_NVRTC_NO_SYSTEM")) {
    plan.notes.emplace_back(
        "WCP_NVRTC_NO_SYSTEM is set, so $CUDA_HOME, $CUDA_PATH, /usr/local/cuda and the loader's "
        "search were left out");
  } else {
    for (const char* variable : {"CUDA_HOME", "CUDA_PATH"}) {
      if (auto root = set_and_non_empty(environment, variable))
        add_toolkit(plan, *root, std::string("$") + variable, {"lib64", "lib"});
    }
    add_toolkit(plan, "/usr/local/cuda", "/usr/local/cuda", {"lib64"});
    // Bare names: the loader then honours LD_LIBRARY_PATH and ld.so.cache.
    for (const char* name : kToolkitLibraryNames) add_candidate(plan, {name, "the loader's search"});
  }
  if (!search.tool_executable.empty()) {
    // A build tree or a `cmake --install` prefix has no Python packages: nothing to say then.
    const auto prefix = install_prefix(search.tool_executable);
    const auto own = prefix_nvrtc_libraries(prefix);
    for (const auto& library : own) add_candidate(plan, {library, "the tool's own environment " + prefix.string()});
    if (own.empty() && !package_dirs(prefix).empty()) {
      plan.notes.push_back("the tool's own environment " + prefix.string() +
                           " has no nvidia-cuda-nvrtc wheel (pip install 'warp-compile-probe[nvrtc]' puts it there)");
    }
  }
  if (search.python.empty()) {
    plan.notes.emplace_back("no Python interpreter was given, so no venv was searched for the nvidia-cuda-nvrtc wheel");
    return plan;
  }
  const auto wheel = wheel_nvrtc_libraries(search.python, environment("PATH").value_or("/usr/local/bin:/usr/bin:/bin"));
  // Once each: the interpreter's venv is often the tool's own.
  for (const auto& library : wheel) add_candidate(plan, {library, "the venv of " + search.python});
  if (wheel.empty()) {
    plan.notes.push_back(
        "the venv of " + search.python +
        " has no nvidia-cuda-nvrtc wheel (bash ci/setup.sh installs it where no CUDA toolkit is found)");
  }
  return plan;
}

}  // namespace wcp::calibrate
