#pragma once
// What a finding is about and what to do, as typed values (issue 52): the kernels it names with
// their definitions, the options whose values changed, the block_dims, the cost and how it was
// obtained, and the fix as an action with its targets and site. Analysis fills these in; render/
// phrases them for each format and width (render/finding_text.h), so a reader of the JSON gets
// facts, not sentences, and a screen never has to cut one.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/deadlines.h"

namespace wcp::analysis {

// A line of the program's source: a kernel's definition, an option write, a factory.
struct SourceSite {
  std::string file;  // as recorded; render/ shortens it for a screen
  int line = 0;
  std::string function;  // the function the line is in; "" at a module's top level or unknown
  bool operator==(const SourceSite&) const = default;
};

// A kernel or a @wp.func the finding names.
struct KernelFact {
  std::string name;                // Warp's key ("offset", "make__locals__sdf")
  std::optional<SourceSite> site;  // its definition, when recorded
  bool operator==(const KernelFact&) const = default;
};

// An option whose value a finding is about: changed between two builds of one module, or written
// where it reached nothing.
struct OptionChange {
  std::string option;                 // "max_unroll", "enable_backward"
  std::optional<std::string> before;  // the earlier build's value; absent when the finding has none
  std::optional<std::string> after;   // the later build's, or the value written
  std::optional<SourceSite> site;     // the write, when recorded
  bool operator==(const OptionChange&) const = default;
};

// A setting and the line of this program it must come before (analysis/deadlines.h).
struct SettingAt {
  std::string key;    // "enable_backward"
  std::string value;  // "False"
  SettingDeadline deadline;
  bool operator==(const SettingAt&) const = default;
};

// A compiled module identity a finding names: the module, its hash and device, and in how many
// processes it was built (0 where the event does not count them).
struct IdentityFact {
  std::string module;
  std::string hash;
  std::string device;
  std::size_t processes = 0;
  bool operator==(const IdentityFact&) const = default;
};

// Whether a finding's cost was measured in this run, estimated (a model, a ceiling) or is not
// available from it. Never 0 for "unavailable".
enum class CostKind { measured, estimated, unavailable };
std::string_view to_string(CostKind kind);  // "measured", "estimated", "unavailable"

struct CostFact {
  CostKind kind = CostKind::unavailable;
  std::optional<double> ms;  // absent exactly when kind is unavailable
  std::string basis;         // how it was obtained, or why it is not available
};

// What the fix asks the user to do. Each kind names the fields it reads; `as_written` is a family
// whose fix is still phrased by analysis (Finding::short_fix), so render/ shows those words.
enum class FixKind {
  as_written,
  define_before_first_launch,  // kernels: define (import) them before the module's first launch
  create_before_first_launch,  // site: the factory whose kernels to create before the first launch
  set_module_options_early,    // options: set them with wp.set_module_options before the first launch
  declare_overloads_early,     // names: the generic instances to declare with wp.overload
  rename_shadowed_argument,    // kernels[0], names[0] (the argument and the global), python_module
  keep_value_fixed,            // names[0] (the value), kernels[0] (what compiles it in)
  keep_function_value_fixed,   // names[0], kernels[0] (the @wp.func capturing it, with its site)
  add_overloads_early,         // kernels[0] (the function), site (where an overload comes from)
  define_function_early,       // kernels[0] (the function, with its site)
  remove_option_write,         // options[0] (the write, with its site)
  for_maintainers,             // package: the owner who can act; nothing for this user
  set_before_deadline,         // settings: each warp.config value before its line of this program
  set_at_entry_point,          // settings[0] (no deadline recorded), package: set it before importing it
  drop_unique,                 // kernels: made from constants; names: those this run cannot tell about
};
std::string_view to_string(FixKind kind);  // "define-before-first-launch", ...

struct FixAction {
  FixKind kind = FixKind::as_written;
  std::vector<KernelFact> kernels;
  std::vector<OptionChange> options;
  std::vector<std::string> names;  // instances, values, argument names: as the kind says
  std::optional<SourceSite> site;
  std::string python_module;        // the Python module holding a global, where the kind names one
  std::string package;              // the owner's phrase ("simlib 0.3.0", "Warp"), for `for_maintainers`
  std::vector<SettingAt> settings;  // for `set_before_deadline` and `set_at_entry_point`
  // The phrased action is the whole fix: the family has no longer form than this run's specific
  // action (Finding::fix keeps the catalogue's general one, which groups compare).
  bool whole = false;
  bool operator==(const FixAction&) const = default;
};

// An action of `kind` with the one field it reads set: fix_with<&FixAction::kernels>(kind, kernels).
template <auto field, typename Value>
FixAction fix_with(FixKind kind, Value value) {
  FixAction action;
  action.kind = kind;
  action.*field = std::move(value);
  return action;
}

inline SourceSite site_at(std::string file, int line, std::string function = {}) {
  SourceSite site;
  site.file = std::move(file);
  site.line = line;
  site.function = std::move(function);
  return site;
}

// What happened, as the finding's first line says it. `as_written` keeps Finding::headline.
enum class EventKind {
  as_written,
  kernel_added_after_load,       // kernels
  kernel_re_created_after_load,  // kernels
  option_changed_after_load,     // options (before -> after)
  generic_instance_added,        // names (the instances)
  option_reached_no_build,       // options[0] (the write with its site)
  backward_never_launched,       // modules: backward code generated, never launched adjoint
  setting_after_module_copied,   // options (the settings and values), modules[0]: the module that copied them
  unique_kernels_stable,         // kernels: module="unique" ones made from constants; names: undecided ones
  compiled_at_once,              // identities[0] (with its processes): built at once in several processes
  main_script_compiled_twice,    // identities[0]: one hash built under __main__ and under __mp_main__
  kernels_never_launched,        // modules, kernels: the kernels of those modules no launch of the run used
  built_one_at_a_time,           // modules: CUDA modules, each built once, whose builds never overlapped
  kernels_not_found_after_load,  // kernels, modules and names (the devices) Warp's "Failed to find" lines named
  built_at_several_block_dims,   // modules[0]; identities: its first build at each block_dim; block_dims: those known
  modules_built_separately,      // modules: one feature's modules, each built once; names[0]: the feature
  rebuilt_cause_not_recorded,    // modules: rebuilt with a new hash; identities: their hashes, in order
};
std::string_view to_string(EventKind kind);  // "kernel-added-after-load", ...

struct FindingFacts {
  EventKind event = EventKind::as_written;
  std::vector<KernelFact> kernels;       // the kernels (or functions) the finding is about
  std::vector<OptionChange> options;     // the options it is about
  std::vector<std::string> names;        // generic instances, values: as the event says
  std::vector<int> block_dims;           // the block_dims it is about, on CUDA
  std::vector<std::string> modules;      // the Warp modules the event names, where it names them
  std::vector<IdentityFact> identities;  // the compiled identities it names
  std::size_t more_rebuilds = 0;         // further rebuilds of the same cause beyond the first one named
  FixAction fix;
};

}  // namespace wcp::analysis
