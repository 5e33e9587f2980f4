#pragma once
// What a run used of a kernel cache it was handed (`measure --warm-cache DIR`, schema 7): one
// extra warm pass against a private copy of DIR, and per cache entry (a module directory
// `wp_<module>_<hash7>`, or `wp_<module>` with strip_hash) whether the pass read it, wrote it,
// or never touched it. "Needed" = read or written: what a CI cache must keep for this command.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/cache_miss.h"
#include "model/module_event.h"

namespace wcp {

// One module directory of a cache. `group` is the Warp version folder it lies in ("1.19.0";
// Warp 1.13+ puts one under WARP_CACHE_PATH), or "" for the top level (Warp before 1.13 writes
// its modules there, and a cache that predates the folders keeps them there).
struct CacheEntry {
  std::string group;
  std::string name;         // the directory's name, e.g. "wp___main___b43a5cc"
  std::uint64_t bytes = 0;  // regular files inside, summed (st_size)
  std::uint64_t files = 0;
  bool hashless = false;  // no hash in its name (strip_hash): its content cannot be told from its name
  bool operator==(const CacheEntry&) const = default;
};

// Something in the cache that is not a module directory (the `lto` folder, stray files): the
// audit cannot tell whether the run used it, so it is counted but never put on the prune list.
struct CacheOtherItem {
  std::string path;  // relative to DIR
  std::uint64_t bytes = 0;
  bool operator==(const CacheOtherItem&) const = default;
};

struct AuditedEntry {
  CacheEntry entry;
  bool in_dir = false;            // present in DIR (false: the pass created it)
  bool read = false;              // a load was served from it
  bool written = false;           // the pass built into it or created it (its files changed)
  std::uint64_t after_bytes = 0;  // its size after the pass (0: gone); `entry.bytes` is DIR's
  bool needed() const { return read || written; }
  bool operator==(const AuditedEntry&) const = default;
};

// Whether DIR served one module identity the audit pass loaded.
enum class ServedBy { dir, compiled, error };
std::string to_string(ServedBy served);
std::optional<ServedBy> served_by_from_string(std::string_view text);

struct ServedModule {
  ModuleIdentity identity;
  ServedBy served = ServedBy::compiled;
  std::string entry;  // the directory name the load used
  bool hashless = false;
  // Schema 11: why DIR did not serve it (served == compiled), when the audit measured it.
  std::optional<CacheMiss> miss;
  bool operator==(const ServedModule&) const = default;
};

// How the private copy was made and what it cost.
struct CacheCopyCost {
  std::string strategy;  // "reflink", "copy_file_range", "read/write", or a mix, e.g. "reflink+copy_file_range"
  std::uint64_t files = 0;
  std::uint64_t bytes = 0;            // of the files copied
  std::uint64_t reflinked_files = 0;  // shared blocks, no data written
  double ms = 0.0;
  bool operator==(const CacheCopyCost&) const = default;
};

struct CacheAudit {
  std::string dir;        // DIR, absolute
  std::string run_group;  // the group the pass's Warp used ("" = top level)
  CacheCopyCost copy;
  bool pass_ok = false;
  std::string pass_failure;  // plain words when !pass_ok
  double pass_wall_ms = 0.0;
  // Whether the pass's loads were seen (the instrumentation attached); without them what it read
  // is unknown and nothing below is a measurement: `unavailable` says why.
  bool loads_observed = false;
  std::string unavailable;
  std::vector<AuditedEntry> entries;  // DIR's entries and those the pass created, by group then name
  std::vector<ServedModule> modules;  // by identity
  std::vector<CacheOtherItem> not_audited;
  std::optional<std::string> prune_list;  // where `--prune-list` wrote the unused entries
  bool measured() const { return pass_ok && loads_observed && unavailable.empty(); }
  bool operator==(const CacheAudit&) const = default;
};

// Sums over the entries; the rendering and the budget read these, never add up themselves.
struct CacheAuditTotals {
  std::uint64_t dir_entries = 0;
  std::uint64_t dir_bytes = 0;
  std::uint64_t used_entries = 0;  // entries of DIR the pass read or wrote
  std::uint64_t used_bytes = 0;
  std::uint64_t unused_entries = 0;
  std::uint64_t unused_bytes = 0;
  std::uint64_t needed_entries = 0;  // used ones and those the pass created
  std::uint64_t needed_bytes = 0;    // at their size after the pass
  std::uint64_t hashless_used = 0;   // used entries without a hash in their name
  std::uint64_t not_audited_bytes = 0;
};
CacheAuditTotals totals_of(const CacheAudit& audit);

// DIR's entries the pass never read nor wrote, largest first (then by group and name).
std::vector<CacheEntry> unused_entries(const CacheAudit& audit);

// Unused bytes per group, in the order of the groups' largest unused total first.
struct GroupUnused {
  std::string group;
  std::uint64_t entries = 0;
  std::uint64_t bytes = 0;
};
std::vector<GroupUnused> unused_by_group(const CacheAudit& audit);

// The directory name Warp gives a module: `wp_<name>_<hash7>`, or `wp_<name>` without a hash.
std::string cache_entry_name(const std::string& module, const std::string& hash);

}  // namespace wcp
