#include "report/module_event.h"

#include <stdexcept>

namespace wcp {

std::string to_string(LoadStatus status) {
  switch (status) {
    case LoadStatus::compiled: return "compiled";
    case LoadStatus::cached: return "cached";
    case LoadStatus::error: return "error";
  }
  return "compiled";
}

LoadStatus load_status_from_string(const std::string& text) {
  if (text == "compiled") return LoadStatus::compiled;
  if (text == "cached") return LoadStatus::cached;
  if (text == "error") return LoadStatus::error;
  throw std::invalid_argument("unknown module event status '" + text + "'");
}

}  // namespace wcp
