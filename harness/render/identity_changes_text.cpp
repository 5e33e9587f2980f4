#include "render/identity_changes_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>

namespace wcp::render {
namespace {

using verdict::IdentityExplanation;
using verdict::ModuleChange;
using verdict::ModuleIdentityChange;

// How many differences one identity's explanation names, and how many modules a brief names.
constexpr std::size_t kPhrasesPerIdentity = 4;
constexpr std::size_t kIdentitiesPerLine = 2;
constexpr std::size_t kModulesPerBrief = 3;
constexpr std::size_t kNamesPerGroup = 3;

std::string module_label(const ModuleIdentityChange& module) {
  return module.module + "@" + module.device;
}

std::string block_dim_text(const std::optional<int>& block_dim) {
  return block_dim ? std::to_string(*block_dim) : std::string("none");
}

std::string values_text(const std::vector<ValueChange>& values) {
  std::vector<std::string> parts;
  for (const auto& [name, old_value, new_value] : values)
    parts.push_back(fmt::format("`{}` {} -> {}", name, old_value, new_value));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string hash_change_text(const std::string& old_hash, const std::string& new_hash) {
  if (old_hash.empty() || new_hash.empty() || old_hash == new_hash) return "";
  return fmt::format("content hash {} -> {}", old_hash, new_hash);
}

// Repeated phrases once, counted: a factory that made three closures adds "kernel k added" three times.
std::vector<std::string> folded(const std::vector<std::string>& phrases) {
  std::vector<std::pair<std::string, int>> counted;
  for (const auto& phrase : phrases) {
    auto found = std::find_if(counted.begin(), counted.end(), [&](const auto& item) { return item.first == phrase; });
    if (found == counted.end()) {
      counted.emplace_back(phrase, 1);
    } else {
      ++found->second;
    }
  }
  std::vector<std::string> out;
  for (const auto& [phrase, count] : counted) out.push_back(count == 1 ? phrase : fmt::format("{} ×{}", phrase, count));
  return out;
}

// What differs between two snapshots, one phrase per difference; `detailed` adds the hashes and
// values each phrase is about (a brief leaves them to compare's text).
std::vector<std::string> diff_phrases(const SnapshotDiff& diff, bool detailed) {
  std::vector<std::string> phrases;
  for (const auto& kernel : diff.changed) {
    std::vector<std::string> what;
    if (const auto hashes = hash_change_text(kernel.old_hash, kernel.kernel.hash); !hashes.empty())
      what.push_back(hashes);
    if (!kernel.constants.empty()) what.push_back(values_text(kernel.constants));
    phrases.push_back(fmt::format("kernel {} changed{}", kernel.kernel.key,
                                  detailed && !what.empty() ? fmt::format(" ({})", fmt::join(what, "; ")) : ""));
  }
  const auto recreated = diff.recreated();
  const auto is_recreated = [&](const KernelInfo& kernel) {
    return std::find(recreated.begin(), recreated.end(), kernel.key) != recreated.end();
  };
  for (const auto& kernel : diff.added) {
    const std::string where =
        detailed && !kernel.file.empty() ? short_location({kernel.file, kernel.line, ""}) : std::string();
    if (is_recreated(kernel)) {
      phrases.push_back(fmt::format("kernel {} re-created{}", kernel.key,
                                    where.empty() ? "" : fmt::format(" (another closure from {})", where)));
    } else {
      phrases.push_back(fmt::format("kernel {} added{}", kernel.key, where.empty() ? "" : " (" + where + ")"));
    }
  }
  for (const auto& kernel : diff.removed) {
    if (!is_recreated(kernel)) phrases.push_back(fmt::format("kernel {} removed", kernel.key));
  }
  for (const auto& [kernel, instance] : diff.instances_added)
    phrases.push_back(fmt::format("generic instance {}[{}] added", kernel, instance));
  for (const auto& [kernel, instance] : diff.instances_removed)
    phrases.push_back(fmt::format("generic instance {}[{}] removed", kernel, instance));
  for (const auto& function : diff.functions) {
    if (function.added) {
      phrases.push_back(fmt::format("function {} newly referenced", function.function.key));
      continue;
    }
    std::vector<std::string> what;
    if (const auto hashes = hash_change_text(function.old_hash, function.function.hash); !hashes.empty())
      what.push_back(hashes);
    if (!function.constants.empty()) what.push_back(values_text(function.constants));
    phrases.push_back(fmt::format("function {} changed{}", function.function.key,
                                  detailed && !what.empty() ? fmt::format(" ({})", fmt::join(what, "; ")) : ""));
  }
  for (const auto& function : diff.functions_removed)
    phrases.push_back(fmt::format("function {} no longer referenced", function.key));
  for (const auto& [key, old_value, new_value] : diff.options)
    phrases.push_back(fmt::format("option {} {} -> {}", key, old_value, new_value));
  if (diff.block_dim) {
    phrases.push_back(fmt::format("block_dim {} -> {}", block_dim_text(diff.block_dim->first),
                                  block_dim_text(diff.block_dim->second)));
  }
  phrases = folded(phrases);
  if (phrases.empty()) {
    phrases.push_back(detailed ? "no kernel, function, generic instance, option or block_dim in the load snapshots "
                                 "differs (a change they do not record: Warp's version, a kernel's hash not recorded)"
                               : "nothing the load snapshots record");
  }
  return phrases;
}

std::string capped(const std::vector<std::string>& items, std::size_t cap, std::string_view separator,
                   std::string_view more_word) {
  if (items.size() <= cap) return fmt::format("{}", fmt::join(items, separator));
  return fmt::format("{}{}and {} more{}", fmt::join(items.begin(), items.begin() + cap, separator),
                     separator == ", " ? " " : separator, items.size() - cap, more_word);
}

std::string builder_text(const verdict::FirstBuilder& builder) {
  if (builder.test) {
    const auto& test = *builder.test;
    if (test.id.empty()) return "during " + to_string(test.phase);
    std::string text = "by " + test.id;
    if (test.phase != TestPhase::call) text += " (" + to_string(test.phase) + ")";
    if (!test.worker.empty()) text += " on " + test.worker;
    return text;
  }
  if (builder.line) return "at " + short_location(*builder.line);
  return "";
}

// "first built by tests/test_x.py::test_y", or "" when the load did not say.
std::string first_built_text(const verdict::FirstBuilder& builder) {
  const std::string who = builder_text(builder);
  return who.empty() ? "" : "first built " + who;
}

std::string explanation_text(const IdentityExplanation& explanation, bool detailed) {
  if (!explanation.diff) {
    const auto& from = explanation.from.hash.empty() ? std::string("?") : explanation.from.hash;
    const auto& to = explanation.to.hash.empty() ? std::string("?") : explanation.to.hash;
    return fmt::format("hash {} -> {}; what changed: not recorded ({})", from, to, explanation.not_recorded);
  }
  std::string text = capped(diff_phrases(*explanation.diff, detailed), kPhrasesPerIdentity, ", ", " change(s)");
  if (explanation.against == verdict::ExplainedAgainst::earlier_build) text += " since its previous build";
  if (const auto who = first_built_text(explanation.built_by); !who.empty()) text += "; " + who;
  return text;
}

std::string identities_word(int count) {
  return count == 1 ? "identity" : "identities";
}

std::string removed_text(const ModuleIdentityChange& module) {
  std::vector<std::string> hashes;
  for (const auto& identity : module.no_longer_built) hashes.push_back(identity.hash.empty() ? "?" : identity.hash);
  const auto count = static_cast<int>(hashes.size());
  return fmt::format("{}{} {} no longer built ({})", count, module.explanations.empty() ? "" : " more",
                     identities_word(count), fmt::join(hashes, ", "));
}

// Who first built a new module, as its group's heading says it.
std::string group_builder(const ModuleIdentityChange& module) {
  const std::string who = first_built_text(module.first_built_by);
  return who.empty() ? "first built by: not recorded" : who;
}

// New modules grouped by who first built them, in the order the groups first appear.
std::vector<std::string> appeared_lines(const std::vector<const ModuleIdentityChange*>& appeared) {
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;
  for (const auto* module : appeared) {
    const std::string who = group_builder(*module);
    auto found = std::find_if(groups.begin(), groups.end(), [&](const auto& group) { return group.first == who; });
    if (found == groups.end()) found = groups.insert(groups.end(), {who, {}});
    found->second.push_back(module_label(*module));
  }
  std::vector<std::string> lines;
  for (const auto& [who, names] : groups) {
    if (names.size() == 1) {
      lines.push_back(fmt::format("new: {}; {}", names.front(), who));
    } else {
      lines.push_back(
          fmt::format("new: {} modules {} ({})", names.size(), who, capped(names, kNamesPerGroup, ", ", "")));
    }
  }
  return lines;
}

std::string gone_line(const std::vector<const ModuleIdentityChange*>& gone) {
  std::vector<std::string> names;
  for (const auto* module : gone) names.push_back(module_label(*module));
  return fmt::format("gone: {} module{} ({})", names.size(), names.size() == 1 ? "" : "s",
                     capped(names, kNamesPerGroup, ", ", ""));
}

struct Grouped {
  std::vector<const ModuleIdentityChange*> changed, appeared, gone;
};

Grouped grouped(const verdict::IdentityChanges& changes) {
  Grouped groups;
  for (const auto& module : changes.modules) {
    switch (module.change) {
      case ModuleChange::changed:
        groups.changed.push_back(&module);
        break;
      case ModuleChange::appeared:
        groups.appeared.push_back(&module);
        break;
      case ModuleChange::disappeared:
        groups.gone.push_back(&module);
        break;
    }
  }
  return groups;
}

}  // namespace

std::string module_identity_change_text(const ModuleIdentityChange& module) {
  const std::string label = module_label(module);
  switch (module.change) {
    case ModuleChange::appeared: {
      const std::string who = first_built_text(module.first_built_by);
      return fmt::format("{}: new ({} {}){}", label, module.identities_added, identities_word(module.identities_added),
                         who.empty() ? "; first built by: not recorded" : "; " + who);
    }
    case ModuleChange::disappeared:
      return fmt::format("{}: gone ({} {} in the baseline)", label, module.identities_removed,
                         identities_word(module.identities_removed));
    case ModuleChange::changed:
      break;
  }
  std::vector<std::string> explained;
  for (const auto& explanation : module.explanations) explained.push_back(explanation_text(explanation, true));
  std::string text = label + ": ";
  if (module.explanations.size() > 1)
    text += fmt::format("+{} {}: ", module.identities_added, identities_word(module.identities_added));
  text += capped(explained, kIdentitiesPerLine, " | ", " identities");
  if (!module.no_longer_built.empty()) text += (module.explanations.empty() ? "" : "; ") + removed_text(module);
  return text;
}

std::vector<std::string> identity_change_lines(const verdict::IdentityChanges& changes, std::size_t max_lines) {
  std::vector<std::string> lines;
  if (!changes.unavailable.empty()) return {"not compared: " + changes.unavailable};
  const Grouped groups = grouped(changes);
  for (const auto* module : groups.changed) lines.push_back(module_identity_change_text(*module));
  for (auto& line : appeared_lines(groups.appeared)) lines.push_back(std::move(line));
  if (!groups.gone.empty()) lines.push_back(gone_line(groups.gone));
  if (max_lines > 0 && lines.size() > max_lines) {
    const std::size_t more = lines.size() - (max_lines - 1);
    lines.resize(max_lines - 1);
    lines.push_back(fmt::format("and {} more line(s) (`--verbose` or --json: every module)", more));
  }
  return lines;
}

std::string identity_changes_brief(const verdict::IdentityChanges& changes) {
  if (!changes.unavailable.empty()) return "module identities not compared: " + changes.unavailable;
  if (changes.empty()) return "no module identity changed";
  const Grouped groups = grouped(changes);
  std::vector<std::string> parts;
  if (!groups.changed.empty()) {
    int added = 0, removed = 0;
    std::vector<std::string> modules;
    for (const auto* module : groups.changed) {
      added += module->identities_added;
      removed += module->identities_removed;
      std::string text = module_label(*module);
      if (!module->explanations.empty()) {
        const auto& first = module->explanations.front();
        if (first.diff) {
          text += " (" + capped(diff_phrases(*first.diff, false), 2, ", ", "") + ")";
        } else {
          text += " (what changed: not recorded)";
        }
        if (const auto who = first_built_text(first.built_by); !who.empty()) text += ", " + who;
      } else {
        text += " (" + removed_text(*module) + ")";
      }
      modules.push_back(std::move(text));
    }
    // A module that only lost identities reads as what it lost.
    const int headline = added > 0 ? added : -removed;
    parts.push_back(fmt::format("{:+} {}: {}", headline, identities_word(std::abs(headline)),
                                capped(modules, kModulesPerBrief, "; ", " changed module(s)")));
  }
  for (auto& line : appeared_lines(groups.appeared)) parts.push_back(std::move(line));
  if (!groups.gone.empty()) parts.push_back(gone_line(groups.gone));
  return fmt::format("{}", fmt::join(parts, "; "));
}

}  // namespace wcp::render
