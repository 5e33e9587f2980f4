#include "model/cache_miss.h"

namespace wcp {

std::string to_string(MissCause cause) {
  switch (cause) {
    case MissCause::no_entry:
      return "no_entry";
    case MissCause::kernels_differ:
      return "kernels_differ";
    case MissCause::options_differ:
      return "options_differ";
    case MissCause::functions_differ:
      return "functions_differ";
    case MissCause::compiler_only:
      return "compiler_only";
    case MissCause::no_device_build:
      return "no_device_build";
    case MissCause::unexplained:
      return "unexplained";
  }
  return "unexplained";
}

std::optional<MissCause> miss_cause_from_string(std::string_view text) {
  for (const auto cause :
       {MissCause::no_entry, MissCause::kernels_differ, MissCause::options_differ, MissCause::functions_differ,
        MissCause::compiler_only, MissCause::no_device_build, MissCause::unexplained}) {
    if (text == to_string(cause)) return cause;
  }
  return std::nullopt;
}

}  // namespace wcp
