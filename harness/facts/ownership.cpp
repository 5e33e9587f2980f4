#include "facts/ownership.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "facts/queries.h"
#include "facts/test_session.h"
#include "io/name_table.h"

namespace wcp {
namespace {

constexpr std::string_view kDynamic = ".dyn.";  // warp.fem's dynamic kernels: "<python module>.dyn.<key>"

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

bool installed(std::string_view file) {
  return contains(file, "/site-packages/") || contains(file, "/dist-packages/");
}

// The standard library: under a ".../lib/pythonX.Y/" folder and not in an installed package.
bool standard_library(std::string_view file) {
  return contains(file, "/lib/python3") && !installed(file);
}

// A console-script stub an installer wrote into an environment's bin/ (`/venv/bin/pytest`): a
// file with no extension there starts an installed program, it is not the user's code.
bool console_script(std::string_view file) {
  const std::filesystem::path path(file);
  return path.parent_path().filename() == "bin" && !path.filename().string().empty() &&
         path.filename().string().find('.') == std::string::npos;
}

bool main_module(std::string_view python_module) {
  return python_module == "__main__" || python_module == "__mp_main__";
}

std::string top_level(std::string_view python_module) {
  return std::string(python_module.substr(0, python_module.find('.')));
}

// The Python module a generated Warp module is named after: warp.fem names an integrand's
// modules "<python module>.<kernel key>" and its dynamic kernels "<python module>.dyn.<key>".
std::string namespace_of(std::string_view module_name) {
  if (const auto at = module_name.find(kDynamic); at != std::string_view::npos)
    return std::string(module_name.substr(0, at));
  const auto dot = module_name.rfind('.');
  return dot == std::string_view::npos ? std::string() : std::string(module_name.substr(0, dot));
}

bool made_in_function(const KernelInfo& kernel) {
  return contains(kernel.qualname, "<locals>");
}

std::string file_name(std::string_view path) {
  return std::filesystem::path(path).filename().string();
}

// "make_kernel() in app.py" for a kernel defined inside a function.
std::string factory_of(const KernelInfo& kernel) {
  const auto at = kernel.qualname.find(".<locals>");
  const std::string function = at == std::string::npos ? kernel.qualname : kernel.qualname.substr(0, at);
  return fmt::format("{}() in {}", function, file_name(kernel.file));
}

std::string package_text(const std::optional<Package>& package) {
  if (!package) return "";
  return package->version.empty() ? package->name : package->name + " " + package->version;
}

constexpr NameTable<Owner, 4> kOwnerNames{
    {{Owner::user, "user"}, {Owner::dependency, "dependency"}, {Owner::warp, "warp"}, {Owner::python, "python"}}};

}  // namespace

std::string_view to_string(Owner owner) {
  return name_of(kOwnerNames, owner);
}

std::string ModuleOwnership::describe() const {
  std::string text;
  switch (owner) {
    case Owner::user:
      if (generator) {
        text = fmt::format("generated at run time by {} from your code in {}", generated_by, python_module);
      } else if (generated) {
        text = generated_by.empty() ? "your code, generated at run time"
                                    : "your code, generated at run time by " + generated_by;
      } else {
        text = "your code";
      }
      break;
    case Owner::dependency:
      text = fmt::format("a dependency ({})", package.has_value() ? package_text(package) : "an installed package");
      if (generator) text += ", generated at run time by " + generated_by;
      break;
    case Owner::warp:
      text = fmt::format("Warp's own code ({})", package.has_value() ? package_text(package) : "warp");
      break;
    case Owner::python:
      text = "Python itself";
      break;
  }
  if (!from_snapshot) text += " (guessed from the module name)";
  return text;
}

CodeOwnership::CodeOwnership(const Report& report)
    : warp_dir_(report.instrumentation.warp_dir), warp_version_(report.warp_version) {
  std::set<std::string, std::less<>> entry_files;  // the outermost module-level frame of each loading stack
  // The last compiled (or cached) load of each module holds the kernels it was built with.
  for (const auto& event : report.module_events) {
    if (event.pass != Pass::cold || !event.detail || event.detail->kernels.empty()) continue;
    auto& kernels = kernels_by_module_[event.name];
    kernels.clear();
    for (const auto& kernel : event.detail->kernels) kernels.push_back(&kernel);
    // The entry script: the outermost real frame of a loading stack runs at module level.
    for (auto frame = event.detail->stack.rbegin(); frame != event.detail->stack.rend(); ++frame) {
      if (frame->file.empty() || frame->file.front() == '<') continue;
      if (frame->function == "<module>") entry_files.insert(frame->file);
      break;
    }
  }
  // The entry file is the program's, with two exceptions that say the program is a runner of
  // other code (a test runner): a console-script stub (`/venv/bin/pytest`), and an installed
  // file (`python -m pytest`: site-packages/pytest/__main__.py) while the run's kernels come
  // from files outside any installation (the suite in a checkout) or its builds ran in tests. An installed module run
  // with -m whose kernels are all installed code (a Warp example) is the program.
  const bool local_kernels = std::any_of(kernels_by_module_.begin(), kernels_by_module_.end(), [&](const auto& entry) {
    return std::any_of(entry.second.begin(), entry.second.end(), [&](const KernelInfo* kernel) {
      return !kernel->file.empty() && kernel->file.front() != '<' && !installed(kernel->file) &&
             !standard_library(kernel->file) && !in_warp(kernel->file);
    });
  });
  // A run whose builds happened inside tests (the probe saw a test session) was started by the
  // test runner: an installed entry file is then the runner, wherever its kernels come from (a
  // checkout's tests of an installed package define none of their own).
  const bool test_session = TestSession(report).present();
  for (const auto& file : entry_files) {
    // The standard library's runners (`python -m unittest`, `-m cProfile`) are never the program.
    if (console_script(file) || standard_library(file) || (installed(file) && (local_kernels || test_session)))
      continue;
    program_files_.insert(file);
  }
  for (const auto& [name, kernels] : kernels_by_module_) {
    for (const KernelInfo* kernel : kernels) {
      if (main_module(kernel->python_module) && !kernel->file.empty()) program_files_.insert(kernel->file);
    }
  }
  for (const auto& [name, kernels] : kernels_by_module_) {
    for (const KernelInfo* kernel : kernels) {
      const Owner owner = owner_of_file(kernel->file);
      if (!kernel->python_module.empty()) owner_by_python_module_.try_emplace(kernel->python_module, owner);
      if (kernel->package && owner == Owner::dependency) {
        package_by_top_level_.try_emplace(top_level(kernel->python_module), *kernel->package);
      }
    }
  }
}

bool CodeOwnership::in_warp(std::string_view file) const {
  if (!warp_dir_.empty()) return file.starts_with(warp_dir_);
  // Reports without the folder: an installed warp package.
  return contains(file, "/site-packages/warp/") || contains(file, "/dist-packages/warp/");
}

bool CodeOwnership::in_warp_core(std::string_view file) const {
  if (!in_warp(file)) return false;
  for (std::string_view outside : {"/warp/examples/", "/warp/tests/"}) {
    if (contains(file, outside)) return false;
  }
  return true;
}

Owner CodeOwnership::owner_of_file(std::string_view file) const {
  if (file.empty() || file.front() == '<') return Owner::python;  // <frozen runpy>, <string>
  if (program_files_.contains(file)) return Owner::user;          // the program, wherever it is installed
  if (in_warp(file)) return Owner::warp;
  if (installed(file) || console_script(file)) return Owner::dependency;
  if (standard_library(file)) return Owner::python;
  return Owner::user;
}

std::optional<Owner> CodeOwnership::owner_of_namespace(const std::string& python_module) const {
  if (python_module.empty()) return std::nullopt;
  if (main_module(python_module)) return Owner::user;
  if (top_level(python_module) == "warp") return Owner::warp;
  if (const auto found = owner_by_python_module_.find(python_module); found != owner_by_python_module_.end()) {
    return found->second;
  }
  if (package_by_top_level_.contains(top_level(python_module))) return Owner::dependency;
  return Owner::user;  // no installed distribution claims it
}

std::optional<Package> CodeOwnership::warp_package(const std::vector<const KernelInfo*>& kernels) const {
  for (const KernelInfo* kernel : kernels) {
    if (kernel->package) return kernel->package;
  }
  if (warp_version_.empty()) return std::nullopt;
  return Package{"warp-lang", warp_version_};
}

ModuleOwnership CodeOwnership::of_module(const std::string& module_name) const {
  ModuleOwnership result;
  const auto found = kernels_by_module_.find(module_name);
  if (found == kernels_by_module_.end()) {
    // No snapshot: Warp's own modules are named after its Python modules; anything else is
    // taken to be the user's, as the tool always did.
    const std::string top = top_level(module_name);
    if (top == "warp") {
      result.owner = Owner::warp;
      result.package = warp_package({});
    }
    result.generated = contains(module_name, kDynamic);
    return result;
  }
  const auto& kernels = found->second;
  result.from_snapshot = true;
  result.generated =
      contains(module_name, kDynamic) ||
      std::any_of(kernels.begin(), kernels.end(), [](const KernelInfo* k) { return made_in_function(*k); });
  const KernelInfo* user_kernel = nullptr;
  const KernelInfo* dependency_kernel = nullptr;
  for (const KernelInfo* kernel : kernels) {
    const Owner owner = owner_of_file(kernel->file);
    if (owner == Owner::user && user_kernel == nullptr) user_kernel = kernel;
    if (owner == Owner::dependency && dependency_kernel == nullptr) dependency_kernel = kernel;
  }
  if (user_kernel != nullptr) {
    result.owner = Owner::user;
    for (const KernelInfo* kernel : kernels) {
      if (made_in_function(*kernel)) {
        result.generated_by = factory_of(*kernel);
        break;
      }
    }
    return result;
  }
  if (dependency_kernel != nullptr) {
    result.owner = Owner::dependency;
    result.package = dependency_kernel->package;
    if (made_in_function(*dependency_kernel)) result.generated_by = factory_of(*dependency_kernel);
    return result;
  }
  // Every kernel's code is Warp's. A module named after someone else's Python module was
  // generated by Warp for them (warp.fem integrands, dynamic kernels).
  const std::string from = namespace_of(module_name);
  const auto from_owner = owner_of_namespace(from);
  const bool fem =
      std::any_of(kernels.begin(), kernels.end(), [](const KernelInfo* k) { return contains(k->file, "/fem/"); });
  if (from_owner && *from_owner != Owner::warp && *from_owner != Owner::python) {
    result.owner = *from_owner;
    result.generator = Owner::warp;
    result.generated = true;
    result.generated_by = fem ? "warp.fem" : "Warp";
    result.python_module = from;
    if (*from_owner == Owner::dependency) {
      if (const auto package = package_by_top_level_.find(top_level(from)); package != package_by_top_level_.end()) {
        result.package = package->second;
      }
    }
    return result;
  }
  result.owner = Owner::warp;
  result.package = warp_package(kernels);
  result.generated =
      result.generated || (unique_module_kernel(module_name).has_value() && contains(module_name, "__locals__"));
  return result;
}

ModuleOwnership CodeOwnership::of_file(std::string_view file) const {
  ModuleOwnership result;
  result.from_snapshot = true;
  result.owner = owner_of_file(file);
  if (result.owner == Owner::warp) {
    result.package = warp_package({});
  } else if (result.owner == Owner::dependency) {
    // ".../site-packages/<top>/...": the top-level package the kernels of this report name.
    for (std::string_view marker : {"/site-packages/", "/dist-packages/"}) {
      const auto at = file.find(marker);
      if (at == std::string_view::npos) continue;
      const auto rest = file.substr(at + marker.size());
      const auto top = std::string(rest.substr(0, rest.find('/')));
      if (const auto found = package_by_top_level_.find(top); found != package_by_top_level_.end())
        result.package = found->second;
      break;
    }
  }
  return result;
}

TriggerFrames CodeOwnership::trigger_of(const LoadDetail& detail) const {
  TriggerFrames frames;
  if (detail.stack.empty()) {
    frames.site = detail.trigger;  // an older report kept only the first frame outside Warp
    if (detail.trigger && owner_of_file(detail.trigger->file) == Owner::user) {
      frames.user_innermost = frames.user_outermost = detail.trigger;
    }
    return frames;
  }
  for (const auto& frame : detail.stack) {  // innermost first
    const Owner owner = owner_of_file(frame.file);
    if (owner == Owner::python) continue;
    if (!frames.site && !in_warp_core(frame.file)) frames.site = frame;
    if (owner == Owner::user) {
      if (!frames.user_innermost) frames.user_innermost = frame;
      frames.user_outermost = frame;
    }
  }
  return frames;
}

}  // namespace wcp
