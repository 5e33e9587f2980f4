#pragma once
// The measure report on one screen (`measure`'s default): the answer first — the clocks a
// change is judged on, what was built and the slowest builds — then a line per warning; the
// processes, every identity, every rebuild and the notes stay in the full text (--verbose).
#include <iosfwd>

#include "render/report_text.h"

namespace wcp::render {

void render_report_summary_text(const ReportView& view, std::ostream& out);

}  // namespace wcp::render
