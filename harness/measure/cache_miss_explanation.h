#pragma once
// Why DIR did not serve a module `measure --warm-cache DIR` built fresh (model/cache_miss.h):
// the fresh build's generated source, read from the private copy the pass used, against every
// entry of the same module name in DIR's folder for the run's Warp, closest first. The pure half
// compares parsed sources; the other reads the folders (DIR only read, never written).
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "measure/generated_source.h"
#include "model/cache_audit.h"
#include "model/cache_miss.h"
#include "model/module_event.h"

namespace wcp::measure {

// The build against one entry. `build_options` are the load's option reprs (may be empty): they
// give an option's value in words where the load recorded it.
EntryDifference compare_generated(const GeneratedSource& build, const GeneratedSource& entry,
                                  const std::map<std::string, std::string>& build_options);

// One entry of DIR as read: its source, or why there is none.
struct CandidateEntry {
  std::string name;
  std::optional<GeneratedSource> source;
  std::string unreadable;
};

// Ranks the candidates (fewest kernel differences, then options, then functions; unreadable
// ones last), keeps the closest kMaxComparedKept and names the cause from the closest.
CacheMiss explain_miss(const std::string& build_entry, const GeneratedSource& build,
                       const std::vector<CandidateEntry>& candidates,
                       const std::map<std::string, std::string>& build_options);

// Whether a cache directory name is an entry of `module`: `wp_<module>_<hash7>` or `wp_<module>`.
bool is_entry_of(const std::string& directory, const std::string& module);

// Fills `miss` of each module in `audit` that DIR did not serve (served == compiled), from the
// fresh builds in `copy` (the pass's cache) and DIR's entries (audit.entries with in_dir).
void explain_misses(CacheAudit& audit, const std::filesystem::path& dir, const std::filesystem::path& copy,
                    const std::vector<ModuleEvent>& loads);

}  // namespace wcp::measure
