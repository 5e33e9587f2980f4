#include "model/option_record.h"

#include <fmt/format.h>

#include "io/name_table.h"

namespace wcp {
namespace {

constexpr NameTable<OptionApi, 4> kApis{{
    {OptionApi::set_module_options, "set_module_options"},
    {OptionApi::module_options, "module.options"},
    {OptionApi::kernel, "kernel"},
    {OptionApi::config, "config"},
}};

constexpr NameTable<OptionScope, 3> kScopes{{
    {OptionScope::none, ""},
    {OptionScope::kernel, "kernel"},
    {OptionScope::module, "module"},
}};

}  // namespace

std::string_view to_string(OptionApi api) {
  return name_of(kApis, api);
}

std::optional<OptionApi> option_api_from_string(std::string_view text) {
  return value_named(kApis, text);
}

std::string_view to_string(OptionScope scope) {
  return name_of(kScopes, scope);
}

std::optional<OptionScope> option_scope_from_string(std::string_view text) {
  return value_named(kScopes, text);
}

std::string spelled(const OptionWrite& write) {
  switch (write.api) {
    case OptionApi::set_module_options:
      return fmt::format("wp.set_module_options({{\"{}\": {}}}) on {}", write.key, write.value, write.target);
    case OptionApi::module_options:
      return fmt::format("wp.get_module(\"{}\").options[\"{}\"] = {}", write.target, write.key, write.value);
    case OptionApi::kernel:
      if (write.scope == OptionScope::kernel) {
        return fmt::format("@wp.kernel({}={}) on {}", write.key, write.value, write.kernel);
      }
      // A unique module's name only repeats the kernel's key and its hash.
      if (unique_module_kernel(write.target)) {
        return fmt::format("@wp.kernel(module=\"unique\", module_options={{\"{}\": {}}}) on {}", write.key, write.value,
                           write.kernel);
      }
      return fmt::format("@wp.kernel(module_options={{\"{}\": {}}}) on {} (module {})", write.key, write.value,
                         write.kernel, write.target);
    case OptionApi::config:
      return fmt::format("wp.config.{} = {}", write.key, write.value);
  }
  return "";
}

}  // namespace wcp
