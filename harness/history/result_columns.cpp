#include "history/result_columns.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace wcp::history {
namespace {

using nlohmann::json;

json summary_json(const std::optional<Summary>& summary) {
  if (!summary) return nullptr;
  json out{{"median", summary->median}, {"n", summary->count}, {"values", summary->values}};
  out["mad"] = summary->mad ? json(*summary->mad) : json(nullptr);
  return out;
}

Cell text_or_null(const json& value) {
  if (value.is_null()) return std::monostate{};
  return value.dump();
}

template <typename Value>
Cell integer_or_null(const std::optional<Value>& value) {
  if (!value) return std::monostate{};
  return static_cast<std::int64_t>(*value);
}

bool is_null(const Cell& cell) {
  return std::holds_alternative<std::monostate>(cell);
}

std::string text_of(const Cell& cell) {
  if (const auto* text = std::get_if<std::string>(&cell)) return *text;
  if (const auto* number = std::get_if<std::int64_t>(&cell)) return std::to_string(*number);
  return "";
}

std::int64_t integer_of(const Cell& cell) {
  if (const auto* number = std::get_if<std::int64_t>(&cell)) return *number;
  if (const auto* text = std::get_if<std::string>(&cell)) return std::stoll(*text);
  return 0;
}

std::optional<std::uint64_t> count_of(const Cell& cell) {
  if (is_null(cell)) return std::nullopt;
  return static_cast<std::uint64_t>(integer_of(cell));
}

std::optional<Summary> summary_of(const Cell& cell) {
  if (is_null(cell)) return std::nullopt;
  const json in = json::parse(text_of(cell));
  Summary summary;
  summary.median = in.at("median").get<double>();
  if (!in.at("mad").is_null()) summary.mad = in.at("mad").get<double>();
  summary.values = in.at("values").get<std::vector<double>>();
  summary.count = in.at("n").get<std::size_t>();
  return summary;
}

// {"86": summary, …}; null when no arch was measured.
json cuda_json(const std::map<int, Summary>& by_arch) {
  if (by_arch.empty()) return nullptr;
  json out = json::object();
  for (const auto& [arch, summary] : by_arch) out[std::to_string(arch)] = summary_json(summary);
  return out;
}

}  // namespace

const std::vector<ResultColumn>& result_columns() {
  // Append only: a column's place is its index in cells_of() and in every stored layout.
  static const std::vector<ResultColumn> columns{
      {"recorded_at", 1, ""},
      {"source", 1, ""},
      {"host", 1, ""},
      {"cpu_model", 1, ""},
      {"gpu", 1, ""},
      {"driver", 1, ""},
      {"warp_version", 1, ""},
      {"cuda_toolkit", 1, ""},
      {"commit_sha", 1, ""},
      {"commit_dirty", 1, ""},
      {"name", 1, ""},
      {"argv", 1, ""},
      {"cwd", 1, ""},
      {"samples", 1, ""},
      {"failed_samples", 1, ""},
      {"cold_module_ms", 1, ""},
      {"cold_wall_ms", 1, ""},
      {"warm_wall_ms", 1, ""},
      {"compile_elapsed_ms", 1, ""},
      {"identities", 1, ""},
      {"modules", 1, ""},
      {"compiled_events", 1, ""},
      {"identity_set", 1, ""},
      {"verdict", 1, ""},
      {"cold_units", 2, "NULL"},
      {"reference", 2, "''"},
      {"rebuilt_modules", 2, "NULL"},
      {"warm_compiles", 3, "NULL"},
      {"lto_artifacts", 3, "NULL"},
      {"tool_version", 4, "''"},
      {"cold_module_cpu_ms", 5, "NULL"},
      {"machine_class", 6, "''"},
      {"branch", 6, "''"},
      {"report", 6, "NULL"},
      {"cuda_compile_cpu_ms", 7, "NULL"},
  };
  return columns;
}

std::string insert_column_list() {
  std::string list;
  for (const auto& column : result_columns()) {
    if (!list.empty()) list += ", ";
    list += column.name;
  }
  return list;
}

std::string select_column_list(int version) {
  std::string list = "id";
  for (const auto& column : result_columns()) {
    list += ", ";
    list += version >= column.since_version ? column.name : column.when_missing;
  }
  return list;
}

std::vector<Cell> cells_of(const Result& result) {
  json rebuilt = nullptr;
  if (result.rebuilt_modules) {
    rebuilt = json::array();
    for (const auto& module : *result.rebuilt_modules) {
      rebuilt.push_back({{"module", module.name}, {"builds", module.builds}});
    }
  }
  const Cell no_commit = std::monostate{};
  return {
      result.recorded_at,
      to_string(result.source),
      result.machine.host,
      result.machine.cpu_model,
      result.machine.gpu,
      result.machine.driver,
      result.machine.warp_version,
      result.machine.cuda_toolkit,
      result.commit ? Cell(result.commit->sha) : no_commit,
      result.commit ? Cell(std::int64_t{result.commit->dirty ? 1 : 0}) : no_commit,
      result.name,
      json(result.argv).dump(),
      result.cwd,
      std::int64_t{result.samples},
      std::int64_t{result.failed_samples},
      text_or_null(summary_json(result.cold_module_ms)),
      text_or_null(summary_json(result.cold_wall_ms)),
      text_or_null(summary_json(result.warm_wall_ms)),
      text_or_null(summary_json(result.compile_elapsed_ms)),
      integer_or_null(result.identities),
      integer_or_null(result.modules),
      integer_or_null(result.compiled_events),
      text_or_null(result.identity_set ? json(*result.identity_set) : json(nullptr)),
      result.verdict,
      text_or_null(summary_json(result.cold_units)),
      result.reference,
      text_or_null(rebuilt),
      integer_or_null(result.warm_compiles),
      integer_or_null(result.lto_artifacts),
      result.tool_version,
      text_or_null(summary_json(result.cold_module_cpu_ms)),
      result.machine.machine_class,
      result.branch,
      result.report_json ? Cell(*result.report_json) : Cell(std::monostate{}),
      text_or_null(cuda_json(result.cuda_compile_cpu_ms)),
  };
}

Result result_from_cells(std::int64_t id, const std::vector<Cell>& cells) {
  if (cells.size() != result_columns().size()) {
    throw std::logic_error(fmt::format("{} history cells for {} columns", cells.size(), result_columns().size()));
  }
  Result result;
  result.id = id;
  std::size_t at = 0;
  const auto next = [&]() -> const Cell& { return cells[at++]; };
  result.recorded_at = text_of(next());
  result.source = source_from_string(text_of(next())).value_or(Source::import);
  result.machine.host = text_of(next());
  result.machine.cpu_model = text_of(next());
  result.machine.gpu = text_of(next());
  result.machine.driver = text_of(next());
  result.machine.warp_version = text_of(next());
  result.machine.cuda_toolkit = text_of(next());
  const Cell& sha = next();
  const Cell& dirty = next();
  if (!is_null(sha)) result.commit = Commit{text_of(sha), integer_of(dirty) != 0};
  result.name = text_of(next());
  result.argv = json::parse(text_of(next())).get<std::vector<std::string>>();
  result.cwd = text_of(next());
  result.samples = static_cast<int>(integer_of(next()));
  result.failed_samples = static_cast<int>(integer_of(next()));
  result.cold_module_ms = summary_of(next());
  result.cold_wall_ms = summary_of(next());
  result.warm_wall_ms = summary_of(next());
  result.compile_elapsed_ms = summary_of(next());
  result.identities = count_of(next());
  result.modules = count_of(next());
  result.compiled_events = count_of(next());
  if (const Cell& identity_set = next(); !is_null(identity_set)) {
    result.identity_set = json::parse(text_of(identity_set)).get<std::vector<std::string>>();
  }
  result.verdict = text_of(next());
  result.cold_units = summary_of(next());
  result.reference = text_of(next());
  if (const Cell& rebuilt = next(); !is_null(rebuilt)) {
    std::vector<ModuleBuilds> modules;
    for (const auto& module : json::parse(text_of(rebuilt))) {
      modules.push_back({module.at("module").get<std::string>(), module.at("builds").get<int>()});
    }
    result.rebuilt_modules = std::move(modules);
  }
  result.warm_compiles = count_of(next());
  result.lto_artifacts = count_of(next());
  result.tool_version = text_of(next());
  result.cold_module_cpu_ms = summary_of(next());
  result.machine.machine_class = text_of(next());
  result.branch = text_of(next());
  if (const Cell& report = next(); !is_null(report)) result.report_json = text_of(report);
  if (const Cell& cuda = next(); !is_null(cuda)) {
    const json by_arch = json::parse(text_of(cuda));
    for (const auto& [arch, summary] : by_arch.items())
      if (auto read = summary_of(Cell(summary.dump()))) result.cuda_compile_cpu_ms[std::stoi(arch)] = std::move(*read);
  }
  return result;
}

}  // namespace wcp::history
