#pragma once
// The mechanism catalogue: every way a Warp program pays for more JIT compilation than it
// needs, with its stable code ("CS-1"), title, default fix and limits, and its section in
// docs/mechanisms.md. Findings, ruled-out lines, budgets and every renderer refer to a
// mechanism by this enum, so a typo is a compile error and the words live in one table.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "model/fix_effect.h"

namespace wcp {

enum class Mechanism {
  late_kernel,         // CS-1
  cache_not_reused,    // CS-2
  late_option,         // CS-3
  granular_modules,    // CS-4
  block_dim_spread,    // CS-5
  late_generic,        // CS-6
  lto_dominated,       // CS-7
  cpu_load_race,       // CS-8
  unique_modules,      // CS-9
  unused_backward,     // CS-10
  unroll_budget,       // CS-11
  precompiled_header,  // CS-12
  serial_builds,       // CS-13
  closure_churn,
  identity_churn,  // a rebuild whose cause the evidence cannot tell (no per-load snapshots)
  config_deadline,
  parallel_cold_misses,  // one identity compiled at once in several processes, none finding it cached yet
  main_script_twice,     // a main script's kernels compiled as __main__ and again as __mp_main__
  never_launched,        // kernels compiled in a loaded module that the run never launched
  option_never_arrived,  // an option the application set reached no module build (its receipt is empty)
  changed_reference,     // a loaded kernel's content changed: a value or function its code names
};

struct MechanismInfo {
  Mechanism id;
  std::string_view code;       // "CS-1", "closure-churn": the id used in output and docs
  std::string_view title;      // plain language
  std::string_view anchor;     // heading anchor in docs/mechanisms.md
  std::string_view fix;        // the default fix; a finding may say something more specific
  std::string_view limits;     // when the fix does not help, or what it costs elsewhere
  FixEffect effect;            // whether applying the default fix changes what the program does
  std::string_view behaviour;  // why it keeps behaviour, or what it changes
};

// Every mechanism, in catalogue order.
std::span<const MechanismInfo> mechanism_catalogue();
const MechanismInfo& info(Mechanism mechanism);
std::string_view code(Mechanism mechanism);
std::optional<Mechanism> mechanism_from_code(std::string_view code);
// "docs/mechanisms.md#<anchor>"
std::string doc_link(Mechanism mechanism);

}  // namespace wcp
