#include "render/history_text.h"

#include <fmt/format.h>

#include <ostream>

#include "render/history_cells.h"

namespace wcp::render {
namespace {

using history::Point;
using history::Series;

// STEP or what the clock rule saw, then the note: "left band, came back; kernel code changed in X".
std::string mark_cell(const Point& point) {
  const std::string mark = point_clock_mark(point);
  const std::string note = point_note_text(point);
  return mark.empty() || note.empty() ? mark + note : mark + "; " + note;
}

// The reference a cold-units series was judged against: every measured commit has the same one.
std::string reference_of(const Series& series) {
  for (const auto& point : series.points) {
    if (point.result.measured()) return point.result.reference;
  }
  return "";
}

}  // namespace

void render_history_text(const std::vector<Series>& all, std::ostream& out) {
  if (all.empty()) {
    out << "The history holds no results (for this selection).\n";
    return;
  }
  for (const auto& series : all) {
    out << series_title(series) << "\n";
    if (series.level_clock == history::LevelClock::cold_units) {
      out << "  (levels judged in cold units, which divide out the machine's load; reference " << reference_of(series)
          << ")\n";
    } else if (series.level_clock == history::LevelClock::cuda_compile_cpu_ms) {
      out << fmt::format(
          "  (the CUDA build for sm_{}, measured without a GPU (`--cuda-arch`): the column and the "
          "levels are its CPU time)\n",
          series.cuda_arch);
    } else if (series.level_clock == history::LevelClock::cold_module_cpu_ms) {
      out << "  (levels judged on cold module CPU, which load on the machine barely moves; the column shows the "
             "wall)\n";
    }
    const bool units = series.level_clock == history::LevelClock::cold_units;
    out << fmt::format("  {:<14} {:>7}  {:<30} {:>9}  {}{:>10}  {:<20} {:<13} {}\n", "commit", "results",
                       "cold module work (median±MAD)", "change", units ? fmt::format("{:<14}", "cold units") : "",
                       "identities", "built more than once", "verdict", "");
    for (const auto& point : series.points) {
      out << fmt::format("  {:<14} {:>7}  {:<30} {:>9}  {}{:>10}  {:<20} {:<13} {}\n", history::short_sha(point.commit),
                         point.results, point_clock_text(point), point_change_cell(point),
                         units ? fmt::format("{:<14}", point_units_cell(point)) : "", point_identities_cell(point),
                         point_rebuilt_cell(point), point_verdict_cell(point), mark_cell(point));
    }
    bool any_step = false;
    for (const auto& point : series.points) {
      if (!point.step) continue;
      if (!any_step) out << "  Steps:\n";
      any_step = true;
      out << "    " << point.step->summary << "\n";
    }
    if (!any_step) out << "  No step: what Warp compiled and the level held.\n";
    out << "\n";
  }
  out << "A step: a changed structure of what Warp compiled (identities per module, builds per module, warm "
         "compiles, LTO artifacts), or the median left max(1 %, 2 × MAD) of the results since the last step and the "
         "next two commits stayed beyond it. New hashes alone are a note: kernel code changed (docs/history.md).\n";
}

}  // namespace wcp::render
