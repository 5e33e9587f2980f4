#include "model/process.h"

namespace wcp {

std::string_view to_string(ProcessRole role) {
  switch (role) {
    case ProcessRole::main: return "main";
    case ProcessRole::worker: return "worker";
    case ProcessRole::child: return "child";
  }
  return "main";
}

std::optional<ProcessRole> process_role_from_string(std::string_view text) {
  if (text == "main") return ProcessRole::main;
  if (text == "worker") return ProcessRole::worker;
  if (text == "child") return ProcessRole::child;
  return std::nullopt;
}

}  // namespace wcp
