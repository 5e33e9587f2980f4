#include "model/process.h"

#include "io/name_table.h"

namespace wcp {

namespace {

constexpr NameTable<ProcessRole, 3> kRoleNames{
    {{ProcessRole::main, "main"}, {ProcessRole::worker, "worker"}, {ProcessRole::child, "child"}}};

}  // namespace

std::string_view to_string(ProcessRole role) {
  return name_of(kRoleNames, role);
}

std::string match_key(const ProcessRecord& process, std::size_t children_before) {
  switch (process.role) {
    case ProcessRole::main:
      return "main process";
    case ProcessRole::worker:
      return "multiprocessing workers";
    case ProcessRole::child:
      return "child process #" + std::to_string(children_before + 1);
  }
  return "";
}

std::optional<ProcessRole> process_role_from_string(std::string_view text) {
  return value_named(kRoleNames, text);
}

}  // namespace wcp
