#include "render/history_markdown.h"

#include <fmt/format.h>

#include <ostream>

#include "render/history_cells.h"

namespace wcp::render {

using history::Series;

void render_history_markdown(const std::vector<Series>& all, std::ostream& out) {
  out << "## Compile-time history\n\n";
  if (all.empty()) out << "The history holds no results.\n";
  for (const auto& series : all) {
    out << "### " << series_title(series) << "\n\n";
    out << "| commit | cold module work | change | identities | built more than once | verdict | step | note |\n";
    out << "|---|---|---|---|---|---|---|---|\n";
    for (const auto& point : series.points) {
      out << fmt::format(
          "| `{}` | {} | {} | {} | {} | {} | {} | {} |\n", history::short_sha(point.commit), point_clock_text(point),
          point_change_cell(point), point_identities_cell(point), point_rebuilt_cell(point), point_verdict_cell(point),
          point.step ? "**" + point.step->summary + "**" : point_clock_mark(point), point_note_text(point));
    }
    out << "\n";
  }
}

}  // namespace wcp::render
