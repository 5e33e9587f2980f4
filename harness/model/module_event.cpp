#include "model/module_event.h"

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

}  // namespace wcp
