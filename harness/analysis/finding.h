#pragma once
// What the diagnosis says about one report: the mechanisms it found (with the evidence from
// this run), the ones it checked and ruled out (with the signal that ruled them out), and the
// ones this run could not check. Plain data; the render stage decides how it looks.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/boundaries.h"
#include "analysis/finding_facts.h"
#include "analysis/user_actions.h"
#include "facts/kernel_usage.h"
#include "facts/option_receipts.h"
#include "facts/ownership.h"
#include "model/mechanism.h"

namespace wcp::analysis {

// How far this run establishes a finding's cause: seen in its own record (a snapshot diff, a log
// line, an experiment the tool ran), inferred (from names, sizes or a cost model), or not
// decidable from this run (and the finding says what would decide it).
enum class CauseStatus { confirmed, inferred, cannot_tell };
std::string_view to_string(CauseStatus status);  // "confirmed", "inferred", "this run cannot tell"

struct Finding {
  Mechanism mechanism = Mechanism::late_kernel;
  CauseStatus cause = CauseStatus::confirmed;
  // The observation of this run that made the finding fire (a log line, a snapshot diff, a
  // count), in one line: findings fire on evidence, never on a millisecond threshold alone, and
  // the reader can check the one thing that decided. Milliseconds are context and cost.
  std::string trigger;
  std::vector<std::string> evidence;  // module names, hashes, block_dims, numbers from this run
  std::optional<double> cost_ms;      // ms of redundant build work this explains, when computable
  std::string cost_basis;             // how cost_ms was obtained (or why it is an estimate)
  bool cost_estimated = false;        // cost_ms is an estimate (a model, a ceiling), not a measured time
  std::string fix;                    // the catalogue's fix unless this run calls for a more specific one
  // What the finding is about and what to do, typed (analysis/finding_facts.h): render/ phrases
  // the finding's first line and its short fix from these.
  FindingFacts facts;
  // The first line and the short fix of a family whose facts are `as_written` (its event or its
  // fix kind): one short line each that keeps the specific name, value or file:line. Empty in a
  // typed family; render/finding_text.h falls back to the trigger and the fix's first sentence.
  std::string headline;
  std::string short_fix;
  // Whether applying `fix` changes what the program computes (results, precision, the kernels it
  // builds, its launches), and in words what it keeps or changes: advice never changes a
  // program's behaviour without saying so.
  FixEffect fix_effect = FixEffect::keeps_behaviour;
  std::string behaviour;
  std::string limits;  // when the fix does not help, or what it costs elsewhere
  std::string module;  // the module the finding is about, "" when it spans several
  // Every module the finding is about where a family gathers several into one finding (the
  // first is `module`); empty where a family names its one module in `module` alone, or none.
  // What a setting that answers the finding must reach (analysis/user_action_plan.h).
  std::vector<std::string> modules;
  // Whose code the finding is about; absent for findings about the whole program (its cache,
  // processes, build schedule), which are always the user's to act on.
  std::optional<ModuleOwnership> owner;

  // The user can apply the fix to the code itself; otherwise the fix says what they can do instead.
  bool yours() const { return !owner || owner->users_to_change(); }
  // cost_ms with how it was obtained: measured, estimated, or unavailable (never 0 for unknown).
  CostFact cost() const;
};

struct RuledOut {
  Mechanism mechanism = Mechanism::late_kernel;
  std::string signal;  // what in this run ruled it out
};

struct NotChecked {
  Mechanism mechanism = Mechanism::late_kernel;
  std::string reason;  // why this run cannot tell
};

// One finding of a group: the module it is about and what it costs.
struct GroupMember {
  std::size_t finding = 0;  // index into Diagnosis::findings
  std::string module;       // "" when the finding spans several modules
  std::optional<double> cost_ms;
  bool cost_estimated = false;
  // The member's own values where the group's fix says "<N>" (a line number), in order.
  std::vector<std::string> fix_values;
  // Every module the finding is about (Finding::modules, or its one `module`): a finding that
  // gathers three modules counts as three where a reader is told how many modules a group touches.
  std::vector<std::string> modules;
};

// Findings of one mechanism, about code of one owner, whose fixes say the same thing but for the
// module (and a line number in it): one thing for the reader to do, however many modules it
// touches. Built from Diagnosis::findings by analysis/finding_groups.h.
struct FindingGroup {
  Mechanism mechanism = Mechanism::late_kernel;
  CauseStatus cause = CauseStatus::confirmed;  // the least established of its members
  std::optional<ModuleOwnership> owner;        // as the members' (absent: the whole program)
  // The members' fix, once: verbatim when they agree; otherwise with "<module>" for each
  // member's module and "<N>" for each number that differs between them (GroupMember::fix_values).
  std::string fix;
  // Whether the members' fixes agree verbatim, so `fix` holds no placeholder and holds for all.
  // Text for a person never shows a `fix` with placeholders: it shows `short_fix` or each
  // member's own.
  // A group's first line and short fix are phrased from its members' facts by render/finding_text.h.
  bool fixes_agree = true;
  std::vector<GroupMember> members;
  std::optional<double> total_cost_ms;  // the sum of the members' known costs; absent when none is known
  std::size_t costs_unknown = 0;        // members without a cost, left out of total_cost_ms
  bool cost_estimated = false;          // some member's cost in the total is an estimate
  std::string cost_basis;               // the members' cost basis when they share one, else ""

  bool yours() const { return !owner || owner->users_to_change(); }
};

struct Diagnosis {
  // First thing to say: whether compilation matters at all for this program's start-up.
  std::string bottleneck;
  bool compile_is_bottleneck = true;
  std::vector<Finding> findings;
  // The findings grouped for a reader (analysis/finding_groups.h), in the order of their first member.
  std::vector<FindingGroup> finding_groups;
  std::vector<RuledOut> ruled_out;
  std::vector<NotChecked> not_checked;
  std::vector<std::string> facts;  // informational (precompiled header, toolkit), never a finding
  // Compiled versus launched per module (facts/kernel_usage.h); empty without a launch record.
  std::vector<ModuleUse> kernel_usage;
  // How the user's own kernels could be grouped into modules (analysis/boundaries.h); absent
  // without kernel usage.
  std::optional<BoundaryProposal> boundaries;
  // What each option the program set reached (facts/option_receipts.h); absent when the report
  // has no option record. Warp's own writes are here too, marked by_warp: context only.
  std::optional<std::vector<OptionReceipt>> option_receipts;
  // What this user can do, in the order they act on it (analysis/user_action_plan.h).
  UserActions actions;

  bool found(Mechanism mechanism) const;
};

}  // namespace wcp::analysis
