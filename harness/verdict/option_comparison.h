#pragma once
// The options section of `compare`: the seed's rule "after changing an option, confirm the hash
// moved for every target module; an unchanged hash means the option never arrived", done for
// the user. Two views:
//   - every option whose value differs between the two runs' load snapshots, per module, with
//     whether that module's hash moved;
//   - every option write made in one run only, with its receipt on that side (arrived, or why
//     not) and, for each module it reached or was meant for, the option's value and hash on
//     both sides.
// Informational only: judge() fills it and no verdict rule reads it.
#include <optional>
#include <string>
#include <vector>

#include "facts/option_receipts.h"
#include "model/report.h"

namespace wcp::verdict {

enum class Side { baseline, candidate };
std::string_view to_string(Side side);

// A module as the two runs are paired: by name, except module="unique" modules, whose name
// carries their content hash (an option change renames them) and which are paired by kernel
// key and order of first load instead.
struct PairedModule {
  std::string label;  // the name, or "<kernel> (unique #<n>)": the n-th such module to load
  std::string device;
  std::string baseline_name;  // "" when the module was not built on that side
  std::string candidate_name;
  std::vector<std::string> baseline_hashes;  // cold builds, in order, distinct
  std::vector<std::string> candidate_hashes;
  bool hash_moved() const { return baseline_hashes != candidate_hashes; }
  bool on_both() const { return !baseline_name.empty() && !candidate_name.empty(); }
};

// One option of one module whose value the two runs built with differs.
struct OptionChange {
  PairedModule module;
  std::string key;
  std::string baseline_value;   // what the last build of the run was built with ("(unset)" when absent)
  std::string candidate_value;
};

// One module an option write reached or was meant for, on both sides.
struct ModuleOption {
  PairedModule module;
  std::optional<std::string> baseline_value;  // absent when not built on that side
  std::optional<std::string> candidate_value;
  bool value_changed() const { return baseline_value != candidate_value; }
};

// A write made in one run and not (with this target, key and value) in the other.
struct WrittenOption {
  Side side = Side::candidate;
  OptionReceipt receipt;              // on its own side
  std::vector<ModuleOption> modules;  // the modules it reached, or was meant for
  bool arrived() const {
    return receipt.outcome == ReceiptOutcome::reached || receipt.outcome == ReceiptOutcome::partly_reached;
  }
};

struct OptionComparison {
  // Each side has load snapshots (per-load options) / an option record; without them the
  // section says what it cannot tell instead of reporting "no difference".
  bool baseline_snapshots = false;
  bool candidate_snapshots = false;
  bool baseline_writes = false;
  bool candidate_writes = false;
  std::vector<OptionChange> changes;
  std::vector<WrittenOption> writes;
};

OptionComparison compare_options(const Report& baseline, const Report& candidate);

}  // namespace wcp::verdict
