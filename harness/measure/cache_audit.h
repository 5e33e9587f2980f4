#pragma once
// `measure --warm-cache DIR`: what one warm pass against a private copy of DIR read and wrote.
// Read = a load the instrumentation saw served from the cache (Warp's "cached") whose module
// directory `wp_<module>_<hash7>` was in DIR; written = a directory the pass created or whose
// files changed, or a load it compiled. Evidence from the loads, not from access times (which
// relatime, noatime mounts and the copy itself make useless).
#include <filesystem>
#include <string>
#include <vector>

#include "measure/cache_listing.h"
#include "measure/measure_options.h"
#include "measure/progress.h"
#include "model/cache_audit.h"
#include "model/module_event.h"

namespace wcp {
class InterruptWatch;
}

namespace wcp::measure {

// The set arithmetic, pure: DIR's listing (`before`, as copied), the copy's after the pass, the
// pass's loads, and the group its Warp used. Fills audit.entries and audit.modules.
void classify_entries(CacheAudit& audit, const CacheListing& before, const CacheListing& after,
                      const std::vector<ModuleEvent>& loads, const std::string& run_group);

// Copies DIR, runs the pass with the probe, and classifies. DIR is only read.
CacheAudit audit_warm_cache(const MeasureOptions& options, const std::filesystem::path& dir, InterruptWatch& interrupts,
                            ProgressListener& progress);

}  // namespace wcp::measure
