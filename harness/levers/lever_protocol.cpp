#include "levers/lever_protocol.h"

#include <nlohmann/json.hpp>

#include "model/module_event.h"

namespace wcp::levers {

std::string_view to_string(LeverKind kind) {
  return name_of(kLeverKindNames, kind);
}

std::string probe_levers_json(const std::vector<Lever>& levers) {
  nlohmann::json items = nlohmann::json::array();
  for (const Lever& lever : levers) {
    nlohmann::json item{{"id", lever.id}, {"kind", to_string(lever.kind)}, {"name", lever.name}};
    if (lever.kind == LeverKind::config || lever.kind == LeverKind::module_option) {
      item["value"] = nlohmann::json::parse(lever.value_json.empty() ? "null" : lever.value_json);
    }
    if (lever.kind == LeverKind::module_option) {
      item["modules"] = lever.modules;
      // A module="unique" target is created under its function's name and renamed after it is
      // hashed; the probe matches it at creation by its kernel key.
      nlohmann::json keys = nlohmann::json::array();
      for (const auto& module : lever.modules) {
        if (const auto key = unique_module_kernel(module)) keys.push_back(*key);
      }
      if (!keys.empty()) item["unique_kernels"] = keys;
    }
    if (lever.kind == LeverKind::drop_unique) {
      nlohmann::json kernels = nlohmann::json::array();
      for (const auto& kernel : lever.kernels)
        kernels.push_back({{"qualname", kernel.qualname}, {"file", kernel.file}});
      item["kernels"] = kernels;
    }
    items.push_back(std::move(item));
  }
  return items.dump();
}

}  // namespace wcp::levers
