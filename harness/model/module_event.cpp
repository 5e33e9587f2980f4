#include "model/module_event.h"

#include <filesystem>

namespace wcp {

std::string to_string(LoadStatus status) {
  switch (status) {
    case LoadStatus::compiled: return "compiled";
    case LoadStatus::cached: return "cached";
    case LoadStatus::error: return "error";
  }
  return "compiled";
}

std::optional<LoadStatus> load_status_from_string(std::string_view text) {
  if (text == "compiled") return LoadStatus::compiled;
  if (text == "cached") return LoadStatus::cached;
  if (text == "error") return LoadStatus::error;
  return std::nullopt;
}

std::string to_string(LoadTimer timer) { return timer == LoadTimer::warp ? "warp" : "probe"; }

std::optional<LoadTimer> load_timer_from_string(std::string_view text) {
  if (text == "warp") return LoadTimer::warp;
  if (text == "probe") return LoadTimer::probe;
  return std::nullopt;
}

std::string to_string(ClosureKind kind) {
  switch (kind) {
    case ClosureKind::none: return "none";
    case ClosureKind::literals: return "literals";
    case ClosureKind::arguments: return "arguments";
    case ClosureKind::values: return "values";
  }
  return "none";
}

std::optional<ClosureKind> closure_kind_from_string(std::string_view text) {
  if (text == "none") return ClosureKind::none;
  if (text == "literals") return ClosureKind::literals;
  if (text == "arguments") return ClosureKind::arguments;
  if (text == "values") return ClosureKind::values;
  return std::nullopt;
}

std::string short_file(const std::string& path) {
  const auto name = std::filesystem::path(path).filename().string();
  const auto parent = std::filesystem::path(path).parent_path().filename().string();
  return parent.empty() ? name : parent + "/" + name;
}

std::string short_location(const SourceLocation& location) {
  return short_file(location.file) + ":" + std::to_string(location.line);
}

}  // namespace wcp
