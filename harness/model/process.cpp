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

std::string match_key(const ProcessRecord& process, std::size_t children_before) {
  switch (process.role) {
    case ProcessRole::main: return "main process";
    case ProcessRole::worker: return "multiprocessing workers";
    case ProcessRole::child: return "child process #" + std::to_string(children_before + 1);
  }
  return "";
}

std::optional<ProcessRole> process_role_from_string(std::string_view text) {
  if (text == "main") return ProcessRole::main;
  if (text == "worker") return ProcessRole::worker;
  if (text == "child") return ProcessRole::child;
  return std::nullopt;
}

}  // namespace wcp
