#include "verdict/identity_changes.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "facts/queries.h"
#include "io/name_table.h"

namespace wcp::verdict {
namespace {

// One identity's first compiled load in a run.
struct IdentityBuild {
  BuiltIdentity identity;
  const ModuleEvent* first = nullptr;
};

// One module's compiled loads in one run, in order.
struct RunModule {
  std::string name;
  std::vector<const ModuleEvent*> builds;
  std::vector<IdentityBuild> identities;  // distinct, in order of first build
};

using ModuleKey = std::pair<std::string, std::string>;  // label, device

BuiltIdentity built_identity(const ModuleEvent& event) {
  return {event.hash, event.block_dim};
}

// One run's cold compiled loads, keyed for pairing: by name, or for module="unique" modules by
// "<kernel> (unique #<n>)", the n-th such module of that kernel to be built.
std::map<ModuleKey, RunModule> modules_of_run(const Report& report) {
  std::map<ModuleKey, RunModule> modules;
  std::map<ModuleKey, ModuleKey> key_of_name;                      // (name, device) -> pairing key
  std::map<std::pair<std::string, std::string>, int> unique_seen;  // (kernel, device) -> modules so far
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    const ModuleKey name{event->name, event->device};
    auto found = key_of_name.find(name);
    if (found == key_of_name.end()) {
      ModuleKey key = name;
      if (const auto kernel = unique_module_kernel(event->name)) {
        const int order = ++unique_seen[{*kernel, event->device}];
        key.first = fmt::format("{} (unique #{})", *kernel, order);
      }
      found = key_of_name.emplace(name, key).first;
    }
    auto& module = modules[found->second];
    module.name = event->name;
    module.builds.push_back(event);
    const BuiltIdentity identity = built_identity(*event);
    const bool known = std::any_of(module.identities.begin(), module.identities.end(),
                                   [&](const IdentityBuild& build) { return build.identity == identity; });
    if (!known) module.identities.push_back({identity, event});
  }
  return modules;
}

bool has_snapshots(const Report& report) {
  return std::any_of(report.module_events.begin(), report.module_events.end(),
                     [](const ModuleEvent& event) { return event.detail.has_value(); });
}

FirstBuilder first_builder(const ModuleEvent& event) {
  if (!event.detail) return {};
  return {event.detail->test, event.detail->trigger};
}

std::vector<BuiltIdentity> identities_of(const RunModule* module) {
  std::vector<BuiltIdentity> identities;
  if (module == nullptr) return identities;
  for (const auto& build : module->identities) identities.push_back(build.identity);
  return identities;
}

// What the two sides know about their loads, for a diff one of them cannot give.
struct SnapshotSides {
  bool baseline = false;
  bool candidate = false;
};

// Which side lacks the snapshot a diff needs, in plain words: a report without any (the original
// probe's, a run the instrumentation did not attach to) or one load without it.
std::string why_not_recorded(const ModuleEvent& before, const ModuleEvent& after, ExplainedAgainst against,
                             const SnapshotSides& sides) {
  if (against == ExplainedAgainst::earlier_build) {
    return sides.candidate ? "the candidate's loads of it have no snapshot"
                           : "the candidate report has no load snapshots";
  }
  const auto side_text = [](std::string_view side, bool report_has_any) {
    return report_has_any ? fmt::format("the {}'s load of it has no snapshot", side)
                          : fmt::format("the {} report has no load snapshots", side);
  };
  if (!before.detail && !after.detail) {
    return fmt::format("{}; {}", side_text("baseline", sides.baseline), side_text("candidate", sides.candidate));
  }
  return !before.detail ? side_text("baseline", sides.baseline) : side_text("candidate", sides.candidate);
}

IdentityExplanation explain(const ModuleEvent& before, const ModuleEvent& after, ExplainedAgainst against,
                            const SnapshotSides& sides) {
  IdentityExplanation explanation;
  explanation.against = against;
  explanation.from = built_identity(before);
  explanation.to = built_identity(after);
  explanation.built_by = first_builder(after);
  if (before.detail && after.detail) {
    // Across runs only the key tells one kernel; within the candidate, its objects do.
    SnapshotDiff diff = diff_loads(
        before, after, against == ExplainedAgainst::baseline ? KernelMatch::same_key : KernelMatch::same_object);
    // The block_dim is named once: a module option of that name moves with it.
    if (diff.block_dim) {
      std::erase_if(diff.options, [](const ValueChange& option) { return std::get<0>(option) == "block_dim"; });
    }
    explanation.diff = std::move(diff);
    return explanation;
  }
  explanation.not_recorded = why_not_recorded(before, after, against, sides);
  return explanation;
}

// The candidate's build of its module just before `event`, of another identity.
const ModuleEvent* previous_build(const RunModule& module, const ModuleEvent* event) {
  const ModuleEvent* previous = nullptr;
  for (const ModuleEvent* build : module.builds) {
    if (build == event) return previous;
    if (built_identity(*build) != built_identity(*event)) previous = build;
  }
  return previous;
}

ModuleIdentityChange changed_module(const ModuleKey& key, const RunModule& base, const RunModule& cand,
                                    const SnapshotSides& sides) {
  ModuleIdentityChange change;
  change.change = ModuleChange::changed;
  change.module = key.first;
  change.device = key.second;
  change.baseline_name = base.name;
  change.candidate_name = cand.name;
  change.baseline_identities = identities_of(&base);
  change.candidate_identities = identities_of(&cand);
  const auto in = [](const RunModule& module, const BuiltIdentity& identity) {
    return std::any_of(module.identities.begin(), module.identities.end(),
                       [&](const IdentityBuild& build) { return build.identity == identity; });
  };
  std::vector<const IdentityBuild*> base_only, cand_only;
  for (const auto& build : base.identities) {
    if (!in(cand, build.identity)) base_only.push_back(&build);
  }
  for (const auto& build : cand.identities) {
    if (!in(base, build.identity)) cand_only.push_back(&build);
  }
  change.identities_added = static_cast<int>(cand_only.size());
  change.identities_removed = static_cast<int>(base_only.size());
  for (std::size_t i = 0; i < cand_only.size(); ++i) {
    const ModuleEvent& after = *cand_only[i]->first;
    if (i < base_only.size()) {
      change.explanations.push_back(explain(*base_only[i]->first, after, ExplainedAgainst::baseline, sides));
    } else if (const ModuleEvent* previous = previous_build(cand, &after)) {
      change.explanations.push_back(explain(*previous, after, ExplainedAgainst::earlier_build, sides));
    } else {
      // The candidate's first build of the module is new and every baseline identity is
      // accounted for: its nearest relative is the baseline's first build.
      change.explanations.push_back(explain(*base.builds.front(), after, ExplainedAgainst::baseline, sides));
    }
  }
  for (std::size_t i = cand_only.size(); i < base_only.size(); ++i)
    change.no_longer_built.push_back(base_only[i]->identity);
  return change;
}

ModuleIdentityChange one_sided(const ModuleKey& key, const RunModule& module, ModuleChange kind) {
  ModuleIdentityChange change;
  change.change = kind;
  change.module = key.first;
  change.device = key.second;
  const bool appeared = kind == ModuleChange::appeared;
  (appeared ? change.candidate_name : change.baseline_name) = module.name;
  (appeared ? change.candidate_identities : change.baseline_identities) = identities_of(&module);
  (appeared ? change.identities_added : change.identities_removed) = static_cast<int>(module.identities.size());
  if (appeared) change.first_built_by = first_builder(*module.builds.front());
  return change;
}

std::string unobserved(const Report& report, std::string_view side) {
  if (!report.measured()) return fmt::format("the {} measured nothing", side);
  if (!report.loads_observed) {
    return fmt::format("the {}'s module loads were not observed{}", side,
                       report.loads_unobserved.empty() ? "" : ": " + report.loads_unobserved);
  }
  return "";
}

}  // namespace

namespace {

constexpr NameTable<ExplainedAgainst, 2> kExplainedAgainst{{
    {ExplainedAgainst::baseline, "baseline"},
    {ExplainedAgainst::earlier_build, "earlier_build"},
}};

constexpr NameTable<ModuleChange, 3> kModuleChanges{{
    {ModuleChange::appeared, "appeared"},
    {ModuleChange::disappeared, "disappeared"},
    {ModuleChange::changed, "changed"},
}};

}  // namespace

std::string_view to_string(ExplainedAgainst against) {
  return name_of(kExplainedAgainst, against);
}

std::string_view to_string(ModuleChange change) {
  return name_of(kModuleChanges, change);
}

IdentityChanges compare_identities(const Report& baseline, const Report& candidate) {
  IdentityChanges changes;
  changes.unavailable = unobserved(baseline, "baseline");
  if (changes.unavailable.empty()) changes.unavailable = unobserved(candidate, "candidate");
  if (!changes.unavailable.empty()) return changes;
  const SnapshotSides sides{has_snapshots(baseline), has_snapshots(candidate)};
  const auto base = modules_of_run(baseline);
  const auto cand = modules_of_run(candidate);
  std::vector<ModuleIdentityChange> changed, appeared, disappeared;
  for (const auto& [key, module] : cand) {
    const auto found = base.find(key);
    if (found == base.end()) {
      appeared.push_back(one_sided(key, module, ModuleChange::appeared));
      continue;
    }
    ModuleIdentityChange change = changed_module(key, found->second, module, sides);
    if (change.identities_added > 0 || change.identities_removed > 0) changed.push_back(std::move(change));
  }
  for (const auto& [key, module] : base) {
    if (!cand.contains(key)) disappeared.push_back(one_sided(key, module, ModuleChange::disappeared));
  }
  for (auto* group : {&changed, &appeared, &disappeared}) {
    for (auto& change : *group) changes.modules.push_back(std::move(change));
  }
  return changes;
}

}  // namespace wcp::verdict
