#pragma once
// Inline SVG for the HTML results report: no scripts, no fonts, nothing fetched at view time.
#include <string>
#include <vector>

#include "results/results_report.h"

namespace wcp::render {

// Build time per compiled identity, before vs after: one row per identity (<g class="identity">),
// one <rect class="bar before|after"> per side that built it.
std::string identity_bars_svg(const std::vector<results::IdentityBar>& identities);

// Module builds of a cold run on the process's time axis; overlapping builds take separate
// lanes, so serial and overlapped builds are told apart at a glance.
std::string timeline_svg(const results::Timeline& timeline, const std::string& title);

std::string escape_xml(const std::string& text);

}  // namespace wcp::render
