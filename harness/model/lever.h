#pragma once
// A lever: one fix the tool can apply to the measured program from outside its code, through the
// instrumentation, so that its effect is measured rather than estimated (`levers`, issue 30).
// The tool passes the levers of a run to the probe as JSON in WCP_PROBE_LEVERS
// (docs/instrumentation.md, "Levers"); the probe says for each one whether it arrived, and where,
// in `lever` events that reach the Report as LeverArrival.
#include <optional>
#include <string>
#include <vector>

#include "io/name_table.h"
#include "model/mechanism.h"

namespace wcp {

enum class LeverKind {
  config,         // warp.config.<name> = value right after `import warp` returns (the entry point)
  module_option,  // module.options[<name>] = value at each target module's creation
  drop_unique,    // @wp.kernel(module="unique") on the target kernels becomes the default module
  noop_call,      // calls of warp.<function> (clear_kernel_cache, clear_lto_cache) do nothing
};

// Its names, as the probe's WCP_PROBE_LEVERS and the levers ledger both write them.
inline constexpr NameTable<LeverKind, 4> kLeverKindNames{{
    {LeverKind::config, "config"},
    {LeverKind::module_option, "module_option"},
    {LeverKind::drop_unique, "drop_unique"},
    {LeverKind::noop_call, "noop_call"},
}};

// A kernel by where it was defined (CS-9's kernels made from constants).
struct KernelRef {
  std::string qualname;  // the Python function's __qualname__
  std::string file;      // absolute path of its source file
  bool operator==(const KernelRef&) const = default;
};

struct Lever {
  std::string id;  // stable and readable: "backward-off", "backward-off:wp___main__", used by --only/--skip
  LeverKind kind = LeverKind::config;
  std::string name;        // the config or module option, or the function made a no-op
  std::string value_json;  // the value to set, as JSON ("false", "2", "\"release\""); "" for noop_call/drop_unique
  std::vector<std::string> modules;    // module_option: target module names; {"*"} for every module
  std::vector<KernelRef> kernels;      // drop_unique: target kernels
  std::optional<Mechanism> mechanism;  // the finding it tests; absent for a standing lever
  bool changes_numerics = false;       // fast_math: offered only with --numerics
  bool cuda_only = false;              // load_module_max_workers: never run when a load targets the CPU
  bool operator==(const Lever&) const = default;
};

// What the probe said about one lever in one process: whether it could be applied in this Warp,
// and what it reached. Arrival is then proved from the run itself (moved hashes, intercepted
// calls, overlapping loads), never from this alone.
struct LeverArrival {
  std::string id;
  // "applied" (set where asked), "not_applicable" (this Warp lacks the option or function),
  // "failed" (setting it raised; detail says what)
  std::string status;
  std::string detail;
  std::vector<std::string> modules_reached;  // module_option, drop_unique: modules it was applied to
  int calls_intercepted = 0;                 // noop_call: calls it turned into no-ops
  // module_option (schema 8): reached modules whose value was gone at exit, because code after
  // their creation replaced or rewrote their options (warp.fem assigns `module.options = ...`).
  std::vector<std::string> modules_replaced;
  bool operator==(const LeverArrival&) const = default;
};

}  // namespace wcp
