#pragma once
// What a measured program did to compile options: every write of a module option or a
// warp.config attribute (with the line that made it), and every Warp module it created (with
// the warp.config values the module copied then). The instrumentation records both
// (docs/instrumentation.md, `option_write` and `module_created`); the option receipts
// (facts/option_receipts.h) match them against the per-load snapshots.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/module_event.h"

namespace wcp {

// How the option was written.
enum class OptionApi {
  set_module_options,  // wp.set_module_options({...}[, module=...])
  module_options,      // any Module's `options` dict (e.g. wp.get_module(name).options.update(...))
  kernel,              // @wp.kernel(enable_backward=..., module_options={...})
  config,              // an assignment to a warp.config attribute
};

std::string_view to_string(OptionApi api);  // the instrumentation's spelling ("module.options", ...)
std::optional<OptionApi> option_api_from_string(std::string_view text);

// For `@wp.kernel(...)` options: the kernel's own option, or one for its (unique) module.
enum class OptionScope { none, kernel, module };

std::string_view to_string(OptionScope scope);  // "" for none
std::optional<OptionScope> option_scope_from_string(std::string_view text);

inline constexpr std::string_view kConfigTarget = "warp.config";

struct OptionWrite {
  int pid = 0;
  double t_s = 0.0;  // on the run's clock, like LoadDetail::start_s
  OptionApi api = OptionApi::config;
  std::string target;  // the Warp module written to, or "warp.config"
  std::string key;
  std::string value;                   // Python repr, compared as text with the load snapshots' reprs
  std::optional<SourceLocation> site;  // the application line that led to the write
  std::string kernel;                  // api kernel: the kernel key
  OptionScope scope = OptionScope::none;
  bool by_warp = false;  // Warp's own code wrote it: context, never the user's
  bool operator==(const OptionWrite&) const = default;
};

// A Warp Module object came into being. A module="unique" kernel's module is created under a
// temporary name (the function's) and renamed after hashing, so only named modules can be
// matched to their loads by name.
struct ModuleCreation {
  int pid = 0;
  double t_s = 0.0;
  std::string name;
  std::map<std::string, std::string> config;   // the warp.config values the module copied (repr)
  std::map<std::string, std::string> options;  // its initial options (repr)
  std::optional<SourceLocation> site;
  // The outermost line of the program's main script on the stack when the module was created:
  // the entry script's import that defined its kernels, or its own @wp.kernel line. A setting
  // modules copy at creation must come before this line (absent when the main script was not on
  // the stack, e.g. under pytest).
  std::optional<SourceLocation> entry_site;
  bool operator==(const ModuleCreation&) const = default;
};

// The write as the program spelled it, e.g. `wp.set_module_options({"fast_math": True}) on
// pipeline.stages` or `wp.config.enable_backward = False`: the words every reader sees.
std::string spelled(const OptionWrite& write);

// A named Warp module as the process left it: the kernels registered into it, launched or not
// (a module="unique" kernel lives in a module of its own). A module option applies to these
// kernels whenever the module loads, so a run that never loaded the module says nothing against
// the option (docs/instrumentation.md, `registry`).
struct RegisteredModule {
  int pid = 0;
  std::string name;
  int kernel_count = 0;
  std::vector<std::string> kernels;  // their keys, sorted; at most the probe's bound
  bool operator==(const RegisteredModule&) const = default;
};

struct OptionRecord {
  std::vector<OptionWrite> writes;              // in the order they were made
  std::vector<ModuleCreation> modules_created;  // likewise
  // Every process's registry at exit; absent from reports written before schema 9 and from
  // processes that did not exit through the probe (killed).
  std::optional<std::vector<RegisteredModule>> modules_registered;
  bool operator==(const OptionRecord&) const = default;
};

}  // namespace wcp
