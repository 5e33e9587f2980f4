#pragma once
// `measure --warm-cache DIR` as text: one or two lines on the default screen (what the run used
// of DIR, what it never read), and with --verbose the tables (each module identity and whether
// DIR served it, the unused entries by version folder and largest first, the copy's cost).
#include <iosfwd>

#include "model/cache_audit.h"

namespace wcp::render {

void render_cache_audit_summary(const CacheAudit& audit, std::ostream& out);
void render_cache_audit_text(const CacheAudit& audit, std::ostream& out);

}  // namespace wcp::render
