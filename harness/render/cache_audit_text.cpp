#include "render/cache_audit_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <ostream>

#include "io/units.h"
#include "render/wrap.h"

namespace wcp::render {
namespace {

// How many unused entries the verbose table lists; the rest are in the JSON and the prune list.
constexpr std::size_t kListedUnused = 20;
// How many not-served modules the default screen explains; --verbose explains them all.
constexpr std::size_t kSummaryMisses = 5;

std::string group_text(const std::string& group) {
  return group.empty() ? "(top level)" : group;
}

// "1 entry", "3 entries": the verbose table's counts are often 1 on a small program.
std::string entries_text(std::size_t count) {
  return fmt::format("{} entr{}", count, count == 1 ? "y" : "ies");
}

std::string not_audited_reason(const CacheAudit& audit) {
  if (!audit.pass_ok) return audit.pass_failure;
  return audit.unavailable;
}

std::string served_text(const CacheAudit& audit) {
  std::size_t served = 0;
  for (const auto& module : audit.modules) served += module.served == ServedBy::dir ? 1 : 0;
  return fmt::format("DIR served {} of {} module identities", served, audit.modules.size());
}

// "integrate", "integrate and collide", "a, b, c and 2 more": kernel and function names in a line.
std::string names_text(const std::vector<std::string>& names) {
  constexpr std::size_t kNamed = 3;
  if (names.size() == 1) return names.front();
  const std::size_t named = std::min(names.size(), kNamed);
  std::string text;
  for (std::size_t at = 0; at < named; ++at) {
    if (at > 0) text += at + 1 == names.size() ? " and " : ", ";
    text += names[at];
  }
  if (names.size() > named) text += fmt::format(" and {} more", names.size() - named);
  return text;
}

std::string kernels_word(std::size_t count) {
  return count == 1 ? "kernel" : "kernels";
}

std::string closest_entry_text(const CacheMiss& miss) {
  const std::string& entry = miss.closest.front().entry;
  return miss.same_name_entries > 1 ? fmt::format("the cached entry {} (closest of {})", entry, miss.same_name_entries)
                                    : fmt::format("the cached entry {}", entry);
}

std::string option_changes_text(const std::vector<OptionChange>& options) {
  std::vector<std::string> parts;
  for (const auto& change : options)
    parts.push_back(fmt::format("{} {} -> {}", change.option, change.entry, change.build));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string kernel_difference_text(const CacheMiss& miss) {
  const EntryDifference& closest = miss.closest.front();
  std::vector<std::string> parts;
  const std::string against = closest_entry_text(miss);
  if (!closest.kernels_changed.empty()) {
    const auto& changed = closest.kernels_changed;
    parts.push_back(
        changed.size() == 1
            ? fmt::format("kernel {}'s generated source differs from {}", changed.front(), against)
            : fmt::format("the generated source of kernels {} differs from {}", names_text(changed), against));
  }
  if (!closest.kernels_added.empty()) {
    parts.push_back(fmt::format("{} {} {} new{}", kernels_word(closest.kernels_added.size()),
                                names_text(closest.kernels_added), closest.kernels_added.size() == 1 ? "is" : "are",
                                parts.empty() ? ", not in " + against : ""));
  }
  if (!closest.kernels_removed.empty()) {
    parts.push_back(fmt::format("{} {} {} only in {}", kernels_word(closest.kernels_removed.size()),
                                names_text(closest.kernels_removed), closest.kernels_removed.size() == 1 ? "is" : "are",
                                parts.empty() ? against : "the entry"));
  }
  if (!closest.kernels_identical.empty()) {
    parts.push_back(fmt::format("{} other {} identical", closest.kernels_identical.size(),
                                kernels_word(closest.kernels_identical.size())));
  }
  if (!closest.options.empty()) parts.push_back("also " + option_changes_text(closest.options));
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::string miss_reason(const CacheMiss& miss, const ServedModule& module, const CacheAudit& audit) {
  switch (miss.cause) {
    case MissCause::no_entry:
      return fmt::format("DIR has no entry of that name (wp_{}_*) in {}{}", module.identity.name,
                         group_text(audit.run_group),
                         miss.other_version_entries > 0
                             ? fmt::format("; {} in other Warp versions' folders, which this Warp never reads",
                                           miss.other_version_entries)
                             : "");
    case MissCause::kernels_differ:
      return kernel_difference_text(miss);
    case MissCause::options_differ:
      return fmt::format("same kernels as {}, built with other options: {} (entry -> this build)",
                         closest_entry_text(miss), option_changes_text(miss.closest.front().options));
    case MissCause::functions_differ: {
      const auto& closest = miss.closest.front();
      return fmt::format("same kernels and options as {}; {}", closest_entry_text(miss),
                         closest.functions_changed.empty()
                             ? std::string("the code the kernels share (structs, preamble) differs")
                             : fmt::format("the generated source of {} {} differs",
                                           closest.functions_changed.size() == 1 ? "function" : "functions",
                                           names_text(closest.functions_changed)));
    }
    case MissCause::compiler_only:
      return fmt::format(
          "the same generated source as {}: an option that reaches only the compiler differs (e.g. fast_math, "
          "optimization_level), which the entry does not record (Warp's .meta keeps only shared-memory sizes)",
          closest_entry_text(miss));
    case MissCause::no_device_build:
      return fmt::format("the cached entry {} has this very hash but no binary for {} ({})", module.entry,
                         module.identity.device, miss.detail);
    case MissCause::unexplained:
      return "not explained: " + miss.detail;
  }
  return "";
}

// The fresh modules DIR did not serve, each with why, e.g. "solver: not served — kernel
// integrate's generated source differs from the cached entry wp_solver_1a2b3c4 (closest of 2); 3
// other kernels identical".
void render_misses(const CacheAudit& audit, std::size_t at_most, const std::string& indent, std::ostream& out) {
  std::size_t shown = 0, missed = 0;
  for (const auto& module : audit.modules) {
    if (!module.miss) continue;
    ++missed;
    if (shown == at_most) continue;
    ++shown;
    print_wrapped(miss_reason(*module.miss, module, audit),
                  fmt::format("{}{}: not served — ", indent, module.identity.name), indent + "    ", out);
  }
  if (missed > shown)
    out << fmt::format("{}... and {} more not served (--verbose and the JSON have them all)\n", indent, missed - shown);
}

}  // namespace

void render_cache_audit_summary(const CacheAudit& audit, std::ostream& out) {
  if (!audit.measured()) {
    print_wrapped(not_audited_reason(audit), "Warm cache NOT AUDITED: ", "  ", out);
    return;
  }
  const CacheAuditTotals totals = totals_of(audit);
  print_wrapped(fmt::format("used {} of {}, {} of {}; {} never read ({}); {}{}", totals.used_entries,
                            entries_text(totals.dir_entries), bytes_text(totals.used_bytes),
                            bytes_text(totals.dir_bytes), totals.unused_entries, bytes_text(totals.unused_bytes),
                            served_text(audit), audit.prune_list ? "; prune list: " + *audit.prune_list : ""),
                "Warm cache: ", "  ", out);
  render_misses(audit, kSummaryMisses, "  ", out);
}

void render_cache_audit_text(const CacheAudit& audit, std::ostream& out) {
  out << fmt::format("\nWarm cache audit of {}\n", audit.dir);
  out << fmt::format("  Private copy: {} files, {} by {} in {:.0f} ms ({} reflinked); DIR was only read\n",
                     audit.copy.files, bytes_text(audit.copy.bytes), audit.copy.strategy, audit.copy.ms,
                     audit.copy.reflinked_files);
  if (!audit.measured()) {
    print_wrapped(not_audited_reason(audit), "  NOT AUDITED: ", "    ", out);
    return;
  }
  const CacheAuditTotals totals = totals_of(audit);
  out << fmt::format("  Warp's folder: {}; pass {:.0f} ms\n", group_text(audit.run_group), audit.pass_wall_ms);
  out << fmt::format("  Used {} of {}, {} of {}; needed (read + written) {}, {}\n", totals.used_entries,
                     entries_text(totals.dir_entries), bytes_text(totals.used_bytes), bytes_text(totals.dir_bytes),
                     entries_text(totals.needed_entries), bytes_text(totals.needed_bytes));
  if (totals.hashless_used > 0) {
    out << fmt::format("  {} used without a hash in the name (strip_hash): served by name, content unchecked\n",
                       entries_text(totals.hashless_used));
  }
  out << "  " << served_text(audit) << ":\n";
  for (const auto& module : audit.modules) {
    out << fmt::format("    {:<9} {} {} on {}{}{}\n",
                       module.served == ServedBy::dir ? "served" : to_string(module.served), module.identity.name,
                       module.identity.hash.empty() ? "(no hash)" : module.identity.hash, module.identity.device,
                       module.identity.block_dim ? fmt::format(" block_dim {}", *module.identity.block_dim) : "",
                       module.served == ServedBy::dir ? "" : "  (not from DIR)");
  }
  render_misses(audit, audit.modules.size(), "    ", out);
  const auto groups = unused_by_group(audit);
  if (!groups.empty()) out << "  Never read, by Warp version folder:\n";
  for (const auto& group : groups) {
    out << fmt::format("    {:<14} {}, {}\n", group_text(group.group), entries_text(group.entries),
                       bytes_text(group.bytes));
  }
  const auto unused = unused_entries(audit);
  if (!unused.empty()) out << "  Never read, largest first:\n";
  for (std::size_t at = 0; at < std::min(unused.size(), kListedUnused); ++at) {
    const auto& entry = unused[at];
    out << fmt::format("    {:>10}  {}/{}{}\n", bytes_text(entry.bytes), group_text(entry.group), entry.name,
                       entry.hashless ? "  (no hash in its name)" : "");
  }
  if (unused.size() > kListedUnused) {
    out << fmt::format("    ... and {} more (the JSON and --prune-list have them all)\n",
                       unused.size() - kListedUnused);
  }
  if (!audit.not_audited.empty()) {
    out << fmt::format("  Not audited ({}, never on the prune list):", bytes_text(totals.not_audited_bytes));
    for (const auto& item : audit.not_audited) out << fmt::format(" {} ({})", item.path, bytes_text(item.bytes));
    out << '\n';
  }
  if (audit.prune_list) out << fmt::format("  Prune list: {}\n", *audit.prune_list);
}

}  // namespace wcp::render
