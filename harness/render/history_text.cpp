#include "render/history_text.h"

#include <fmt/format.h>

#include <ostream>

namespace wcp::render {
namespace {

using history::Point;
using history::Series;

std::string seconds(double ms) {
  return fmt::format("{:.2f} s", ms / 1000.0);
}

std::string clock_text(const Point& point) {
  const auto& result = point.result;
  if (!result.measured()) return "failed (every sample failed)";
  if (!result.cold_module_ms) return "not measured";
  const auto& clock = *result.cold_module_ms;
  return clock.mad ? fmt::format("{} ± {}", seconds(clock.median), seconds(*clock.mad)) : seconds(clock.median);
}

std::string units_cell(const Point& point) {
  const auto& units = point.result.cold_units;
  if (!units) return "-";
  return units->mad ? fmt::format("{:.2f} ± {:.2f}", units->median, *units->mad) : fmt::format("{:.2f}", units->median);
}

std::string change_cell(const Point& point) {
  if (!point.change_ms) return "-";
  return fmt::format("{}{}", *point.change_ms < 0 ? "-" : "+", seconds(std::abs(*point.change_ms)));
}

std::string identities_cell(const Point& point) {
  return point.result.identities ? std::to_string(*point.result.identities) : "-";
}

std::string rebuilt_cell(const Point& point) {
  if (!point.result.rebuilt_modules) return point.result.measured() ? "not recorded" : "-";
  std::string text;
  for (const auto& module : *point.result.rebuilt_modules) {
    text += (text.empty() ? "" : ", ") + fmt::format("{}×{}", module.name, module.builds);
  }
  return text.empty() ? "none" : text;
}

std::string clock_mark(const Point& point) {
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

std::string note_text(const Point& point) {
  return point.note ? point.note->summary : "";
}

// STEP or what the clock rule saw, then the note: "left band, came back; kernel code changed in X".
std::string mark_cell(const Point& point) {
  const std::string mark = clock_mark(point);
  const std::string note = note_text(point);
  return mark.empty() || note.empty() ? mark + note : mark + "; " + note;
}

// The reference a cold-units series was judged against: every measured commit has the same one.
std::string reference_of(const Series& series) {
  for (const auto& point : series.points) {
    if (point.result.measured()) return point.result.reference;
  }
  return "";
}

std::string title_of(const Series& series) {
  return series.name + " — " + series.machine.key();
}

}  // namespace

void render_history_text(const std::vector<Series>& all, std::ostream& out) {
  if (all.empty()) {
    out << "The history holds no results (for this selection).\n";
    return;
  }
  for (const auto& series : all) {
    out << title_of(series) << "\n";
    if (series.level_clock == history::LevelClock::cold_units) {
      out << "  (levels judged in cold units, which divide out the machine's load; reference " << reference_of(series)
          << ")\n";
    }
    const bool units = series.level_clock == history::LevelClock::cold_units;
    out << fmt::format("  {:<14} {:>7}  {:<30} {:>9}  {}{:>10}  {:<20} {:<13} {}\n", "commit", "results",
                       "cold module work (median±MAD)", "change", units ? fmt::format("{:<14}", "cold units") : "",
                       "identities", "built more than once", "verdict", "");
    for (const auto& point : series.points) {
      out << fmt::format("  {:<14} {:>7}  {:<30} {:>9}  {}{:>10}  {:<20} {:<13} {}\n", history::short_sha(point.commit),
                         point.results, clock_text(point), change_cell(point),
                         units ? fmt::format("{:<14}", units_cell(point)) : "", identities_cell(point),
                         rebuilt_cell(point), point.result.verdict.empty() ? "-" : point.result.verdict,
                         mark_cell(point));
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

void render_history_markdown(const std::vector<Series>& all, std::ostream& out) {
  out << "## Compile-time history\n\n";
  if (all.empty()) out << "The history holds no results.\n";
  for (const auto& series : all) {
    out << "### " << title_of(series) << "\n\n";
    out << "| commit | cold module work | change | identities | built more than once | verdict | step | note |\n";
    out << "|---|---|---|---|---|---|---|---|\n";
    for (const auto& point : series.points) {
      out << fmt::format("| `{}` | {} | {} | {} | {} | {} | {} | {} |\n", history::short_sha(point.commit),
                         clock_text(point), change_cell(point), identities_cell(point), rebuilt_cell(point),
                         point.result.verdict.empty() ? "-" : point.result.verdict,
                         point.step ? "**" + point.step->summary + "**" : clock_mark(point), note_text(point));
    }
    out << "\n";
  }
}

nlohmann::json history_to_json(const std::vector<Series>& all) {
  using nlohmann::json;
  const auto summary_json = [](const std::optional<Summary>& summary) -> json {
    if (!summary) return nullptr;
    return {{"median", summary->median},
            {"mad", summary->mad ? json(*summary->mad) : json(nullptr)},
            {"n", summary->count}};
  };
  const auto optional_count = [](const std::optional<std::uint64_t>& value) -> json {
    return value ? json(*value) : json(nullptr);
  };
  const auto builds_json = [](const std::vector<history::ModuleBuilds>& modules) {
    json list = json::array();
    for (const auto& module : modules) list.push_back({{"module", module.name}, {"builds", module.builds}});
    return list;
  };
  // Set only where the count changed and both commits recorded it.
  const auto count_change_json = [](const std::optional<history::CountChange>& change) -> json {
    if (!change) return nullptr;
    return {{"before", change->before}, {"after", change->after}};
  };
  json series_list = json::array();
  for (const auto& series : all) {
    json points = json::array();
    for (const auto& point : series.points) {
      const auto& result = point.result;
      const json rebuilt = result.rebuilt_modules ? builds_json(*result.rebuilt_modules) : json(nullptr);
      json step = nullptr;
      if (point.step) {
        const auto& found = *point.step;
        const auto& structure = found.structure;
        json per_module = json::array();
        for (const auto& module : structure.identities_per_module)
          per_module.push_back({{"module", module.module}, {"before", module.before}, {"after", module.after}});
        step = {{"summary", found.summary},
                {"identities_changed", structure.identities_differ},
                {"structure_changed", found.structure_changed},
                {"clock_left_band", found.clock_left_band},
                {"delta", found.delta ? json(*found.delta) : json(nullptr)},
                {"band", found.band ? json(*found.band) : json(nullptr)},
                {"identities_added", structure.identities_added},
                {"identities_removed", structure.identities_removed},
                {"identities_per_module", per_module},
                {"newly_rebuilt", builds_json(structure.built_more)},
                {"built_fewer_times", builds_json(structure.built_fewer)},
                {"warm_compiles_change", count_change_json(structure.warm_compiles)},
                {"lto_artifacts_change", count_change_json(structure.lto_artifacts)}};
      }
      json note = nullptr;
      if (point.note) {
        note = {{"kind", history::to_string(point.note->kind)},
                {"summary", point.note->summary},
                {"modules", point.note->modules},
                {"identities_added", point.note->identities_added},
                {"identities_removed", point.note->identities_removed}};
      }
      points.push_back({{"commit", point.commit ? json(point.commit->sha) : json(nullptr)},
                        {"dirty", point.commit ? json(point.commit->dirty) : json(nullptr)},
                        {"results", point.results},
                        {"recorded_at", result.recorded_at},
                        {"source", history::to_string(result.source)},
                        {"measured", result.measured()},
                        {"samples", result.samples},
                        {"failed_samples", result.failed_samples},
                        {"cold_module_ms", summary_json(result.cold_module_ms)},
                        {"compile_elapsed_ms", summary_json(result.compile_elapsed_ms)},
                        {"cold_units", summary_json(result.cold_units)},
                        {"change_ms", point.change_ms ? json(*point.change_ms) : json(nullptr)},
                        {"clock", history::to_string(point.clock)},
                        {"identities", optional_count(result.identities)},
                        {"modules", optional_count(result.modules)},
                        {"compiled_events", optional_count(result.compiled_events)},
                        {"identity_set", result.identity_set ? json(*result.identity_set) : json(nullptr)},
                        {"rebuilt_modules", rebuilt},
                        {"warm_compiles", optional_count(result.warm_compiles)},
                        {"lto_artifacts", optional_count(result.lto_artifacts)},
                        {"verdict", result.verdict},
                        {"step", step},
                        {"note", note}});
    }
    const auto& machine = series.machine;
    series_list.push_back({{"name", series.name},
                           {"level_clock", history::to_string(series.level_clock)},
                           {"machine",
                            {{"host", machine.host},
                             {"cpu_model", machine.cpu_model},
                             {"gpu", machine.gpu},
                             {"driver", machine.driver},
                             {"warp_version", machine.warp_version},
                             {"cuda_toolkit", machine.cuda_toolkit}}},
                           {"points", points}});
  }
  return {{"kind", "history"}, {"series", series_list}};
}

}  // namespace wcp::render
