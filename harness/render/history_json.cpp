#include "render/history_json.h"

namespace wcp::render {

using history::Series;

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
