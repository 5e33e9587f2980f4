#pragma once
// Helpers shared by the diagnosis families (internal to analysis/).
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/diagnose.h"
#include "analysis/finding.h"
#include "facts/queries.h"

namespace wcp::analysis {

// A Finding pre-filled with the catalogue's fix and limits.
Finding make_finding(Mechanism mechanism);
void rule_out(Diagnosis& out, Mechanism mechanism, std::string signal);
void not_checked(Diagnosis& out, Mechanism mechanism, std::string reason);

// Sets whose code the finding is about and, when it is not the user's to change, replaces the
// fix with what the user can do instead (analysis/ownership_advice.cpp).
void assign_owner(Finding& finding, const ModuleOwnership& owner);

// The fix for a finding about code the user does not own, when the way the user could reach
// it (a setting at the entry point, or module options a library copies) is ruled out: why it
// is not theirs, the reason given, and what still helps.
std::string not_yours_and_ruled_out(const ModuleOwnership& owner, std::string_view reason);

// "triggered at X, reached from your code at Y under Z": the innermost frame outside Warp's
// core and the user's own frames on the loading stack.
std::string trigger_text(const TriggerFrames& frames);

// Findings of one mechanism kept apart by whose code they are about, so advice for the user's own
// modules never mixes with advice about Warp's or a dependency's. emit() adds the non-empty ones,
// the user's first.
class FindingsByOwner {
 public:
  FindingsByOwner(Mechanism mechanism, const CodeOwnership& ownership);
  Finding& for_module(const std::string& module_name);
  bool empty() const;
  void emit(Diagnosis& out);

 private:
  Mechanism mechanism_;
  const CodeOwnership& ownership_;
  std::vector<std::pair<std::string, Finding>> groups_;  // in first-seen order, keyed by the owner's description
};

// Modules built exactly once in the cold pass, with their single event (CS-4, CS-13).
std::map<std::string, const ModuleEvent*> built_once(const Report& report);
// Sets the cost of merging `modules` into one: (modules − 1) × the fixed per-module cost (CS-4, CS-9).
void add_merge_saving(Finding& finding, std::size_t modules, const std::optional<FixedCost>& fixed);

std::string where(const SourceLocation& location);  // "app.py:27 (in main)"
std::string short_path(const std::string& path);    // the file name, for evidence lines

}  // namespace wcp::analysis
