#include "model/cache_miss.h"

#include "io/name_table.h"

namespace wcp {

namespace {

constexpr NameTable<MissCause, 7> kMissCauseNames{{{MissCause::no_entry, "no_entry"},
                                                   {MissCause::kernels_differ, "kernels_differ"},
                                                   {MissCause::options_differ, "options_differ"},
                                                   {MissCause::functions_differ, "functions_differ"},
                                                   {MissCause::compiler_only, "compiler_only"},
                                                   {MissCause::no_device_build, "no_device_build"},
                                                   {MissCause::unexplained, "unexplained"}}};

}  // namespace

std::string to_string(MissCause cause) {
  return std::string(name_of(kMissCauseNames, cause));
}

std::optional<MissCause> miss_cause_from_string(std::string_view text) {
  return value_named(kMissCauseNames, text);
}

}  // namespace wcp
