#include "measure/cache_audit.h"

#include <map>
#include <set>
#include <tuple>

namespace wcp::measure {
namespace {

using Place = std::pair<std::string, std::string>;  // (group, name)

std::map<Place, CacheEntry> by_place(const CacheListing& listing) {
  std::map<Place, CacheEntry> places;
  for (const auto& entry : listing.entries) places.emplace(Place{entry.group, entry.name}, entry);
  return places;
}

ServedBy served_by(const ModuleEvent& load, bool in_dir) {
  if (load.status == LoadStatus::error) return ServedBy::error;
  // A cached load of a directory DIR did not have was built by another process of this pass.
  return load.status == LoadStatus::cached && in_dir ? ServedBy::dir : ServedBy::compiled;
}

}  // namespace

void classify_entries(CacheAudit& audit, const CacheListing& before, const CacheListing& after,
                      const std::vector<ModuleEvent>& loads, const std::string& run_group) {
  const auto old_entries = by_place(before);
  const auto new_entries = by_place(after);
  std::map<Place, AuditedEntry> audited;
  for (const auto& [place, entry] : old_entries) {
    AuditedEntry& item = audited[place];
    item.entry = entry;
    item.in_dir = true;
    const auto now = new_entries.find(place);
    item.after_bytes = now == new_entries.end() ? 0 : now->second.bytes;
    // Changed files mean the pass wrote into it (a new device or block_dim variant).
    item.written = now != new_entries.end() && (now->second.bytes != entry.bytes || now->second.files != entry.files);
  }
  for (const auto& [place, entry] : new_entries) {
    if (old_entries.contains(place)) continue;
    AuditedEntry& item = audited[place];
    item.entry = entry;
    item.entry.bytes = 0;  // nothing of it was in DIR
    item.after_bytes = entry.bytes;
    item.written = true;
  }
  std::set<ModuleIdentity> seen;
  for (const auto& load : loads) {
    const Place place{run_group, cache_entry_name(load.name, load.hash)};
    const bool in_dir = old_entries.contains(place);
    const auto found = audited.find(place);
    if (found != audited.end()) {
      if (load.status == LoadStatus::cached && in_dir) found->second.read = true;
      if (load.status == LoadStatus::compiled) found->second.written = true;
      if (load.hash.empty()) found->second.entry.hashless = true;
    }
    if (!seen.insert(identity_of(load)).second) continue;
    audit.modules.push_back(
        {identity_of(load), served_by(load, in_dir), place.second, load.hash.empty(), std::nullopt});
  }
  audit.entries.clear();
  for (auto& [place, item] : audited) audit.entries.push_back(std::move(item));
  audit.not_audited = before.others;
}

}  // namespace wcp::measure
