#include "model/cache_audit.h"

#include <algorithm>
#include <map>

#include "io/name_table.h"

namespace wcp {

namespace {

constexpr NameTable<ServedBy, 3> kServedByNames{
    {{ServedBy::dir, "dir"}, {ServedBy::compiled, "compiled"}, {ServedBy::error, "error"}}};

}  // namespace

std::string to_string(ServedBy served) {
  return std::string(name_of(kServedByNames, served));
}

std::optional<ServedBy> served_by_from_string(std::string_view text) {
  return value_named(kServedByNames, text);
}

CacheAuditTotals totals_of(const CacheAudit& audit) {
  CacheAuditTotals totals;
  for (const auto& audited : audit.entries) {
    const std::uint64_t bytes = audited.entry.bytes;
    if (audited.needed()) {
      ++totals.needed_entries;
      totals.needed_bytes += audited.written || !audited.in_dir ? audited.after_bytes : bytes;
    }
    if (!audited.in_dir) continue;
    ++totals.dir_entries;
    totals.dir_bytes += bytes;
    if (audited.needed()) {
      ++totals.used_entries;
      totals.used_bytes += bytes;
      if (audited.entry.hashless) ++totals.hashless_used;
    } else {
      ++totals.unused_entries;
      totals.unused_bytes += bytes;
    }
  }
  for (const auto& item : audit.not_audited) totals.not_audited_bytes += item.bytes;
  return totals;
}

std::vector<CacheEntry> unused_entries(const CacheAudit& audit) {
  std::vector<CacheEntry> unused;
  for (const auto& audited : audit.entries) {
    if (audited.in_dir && !audited.needed()) unused.push_back(audited.entry);
  }
  std::stable_sort(unused.begin(), unused.end(), [](const CacheEntry& a, const CacheEntry& b) {
    if (a.bytes != b.bytes) return a.bytes > b.bytes;
    if (a.group != b.group) return a.group < b.group;
    return a.name < b.name;
  });
  return unused;
}

std::vector<GroupUnused> unused_by_group(const CacheAudit& audit) {
  std::map<std::string, GroupUnused> groups;
  for (const auto& entry : unused_entries(audit)) {
    auto& group = groups[entry.group];
    group.group = entry.group;
    ++group.entries;
    group.bytes += entry.bytes;
  }
  std::vector<GroupUnused> ordered;
  for (auto& [name, group] : groups) ordered.push_back(group);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const GroupUnused& a, const GroupUnused& b) { return a.bytes > b.bytes; });
  return ordered;
}

std::string cache_entry_name(const std::string& module, const std::string& hash) {
  return hash.empty() ? "wp_" + module : "wp_" + module + "_" + hash;
}

}  // namespace wcp
