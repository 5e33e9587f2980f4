#include "render/cache_audit_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "io/units.h"
#include "render/wrap.h"

namespace wcp::render {
namespace {

// How many unused entries the verbose table lists; the rest are in the JSON and the prune list.
constexpr std::size_t kListedUnused = 20;

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
