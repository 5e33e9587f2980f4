#pragma once
// The human-readable measure report. Everything shown is computed before it gets here.
#include <iosfwd>
#include <vector>

#include "facts/rebuilds.h"
#include "model/report.h"

namespace wcp::render {

struct ReportView {
  const Report& report;
  std::vector<CompiledIdentity> identities;
  std::vector<RebuiltModule> rebuilt;
};

void render_report_text(const ReportView& view, std::ostream& out);

std::string format_command(const std::vector<std::string>& argv);

}  // namespace wcp::render
