#include "render/history_cells.h"

#include <fmt/format.h>

#include <cmath>

namespace wcp::render {
namespace {

std::string history_seconds(double ms) {
  return fmt::format("{:.2f} s", ms / 1000.0);
}

}  // namespace

std::string point_clock_text(const history::Point& point) {
  const auto& result = point.result;
  if (!result.measured()) return "failed (every sample failed)";
  if (!result.cold_module_ms) return "not measured";
  const auto& clock = *result.cold_module_ms;
  return clock.mad ? fmt::format("{} ± {}", history_seconds(clock.median), history_seconds(*clock.mad))
                   : history_seconds(clock.median);
}

std::string point_units_cell(const history::Point& point) {
  const auto& units = point.result.cold_units;
  if (!units) return "-";
  return units->mad ? fmt::format("{:.2f} ± {:.2f}", units->median, *units->mad) : fmt::format("{:.2f}", units->median);
}

std::string point_change_cell(const history::Point& point) {
  if (!point.change_ms) return "-";
  return fmt::format("{}{}", *point.change_ms < 0 ? "-" : "+", history_seconds(std::abs(*point.change_ms)));
}

std::string point_identities_cell(const history::Point& point) {
  return point.result.identities ? std::to_string(*point.result.identities) : "-";
}

std::string point_rebuilt_cell(const history::Point& point) {
  if (!point.result.rebuilt_modules) return point.result.measured() ? "not recorded" : "-";
  std::string text;
  for (const auto& module : *point.result.rebuilt_modules) {
    text += (text.empty() ? "" : ", ") + fmt::format("{}×{}", module.name, module.builds);
  }
  return text.empty() ? "none" : text;
}

std::string point_clock_mark(const history::Point& point) {
  if (point.step) return "STEP";
  switch (point.clock) {
    case history::ClockMove::unconfirmed:
      return "left band, unconfirmed";
    case history::ClockMove::returned:
      return "left band, came back";
    default:
      return "";
  }
}

std::string point_note_text(const history::Point& point) {
  return point.note ? point.note->summary : "";
}

std::string point_verdict_cell(const history::Point& point) {
  return point.result.verdict.empty() ? "-" : point.result.verdict;
}

std::string series_title(const history::Series& series) {
  return series.name + " — " + series.machine.key();
}

}  // namespace wcp::render
