#include "reference/reference_python.h"

#include <string_view>

#include "calibrate/warp_native_dir.h"

namespace wcp::reference {
namespace {

std::string_view file_name(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool is_python(std::string_view program) {
  return file_name(program).starts_with("python");
}

// A NAME=VALUE word of `env`: a name before the first '=' (a word starting with '=' is a program).
bool is_assignment(std::string_view word) {
  const auto equals = word.find('=');
  return equals != std::string_view::npos && equals > 0;
}

// Where `env`'s program starts, or nullopt when an option could change how or where it runs
// (-C DIR, -S STRING, a long option with a value, combined short flags): then the program is
// not known for sure, and the default interpreter is the safer guess.
std::optional<std::size_t> env_program_index(const std::vector<std::string>& command) {
  std::size_t index = 1;
  for (; index < command.size(); ++index) {
    const std::string_view word = command[index];
    if (word == "--") {
      ++index;
      break;
    }
    if (word == "-" || word == "-i" || word == "--ignore-environment" || word == "-0" || word == "--null" ||
        word == "-v" || word == "--debug") {
      continue;
    }
    if (word == "-u" || word == "--unset") {
      ++index;  // its NAME
      continue;
    }
    if ((word.starts_with("-u") && word.size() > 2) || word.starts_with("--unset=")) continue;
    if (word.starts_with("-")) return std::nullopt;
    break;
  }
  while (index < command.size() && is_assignment(command[index])) ++index;
  if (index >= command.size()) return std::nullopt;
  return index;
}

}  // namespace

std::optional<std::string> command_interpreter(const std::vector<std::string>& command) {
  if (command.empty()) return std::nullopt;
  if (is_python(command.front())) return command.front();
  if (file_name(command.front()) != "env") return std::nullopt;
  const auto program = env_program_index(command);
  if (!program || !is_python(command[*program])) return std::nullopt;
  return command[*program];
}

std::string reference_python_for(const std::optional<std::string>& explicit_python,
                                 const std::vector<std::string>& command, const std::filesystem::path& command_cwd) {
  if (explicit_python && !explicit_python->empty()) return calibrate::choose_python(explicit_python);
  // The reference runs in a directory of its own, so a relative interpreter is anchored where
  // the command would have found it.
  if (const auto interpreter = command_interpreter(command)) {
    return calibrate::absolute_if_relative_path(*interpreter, command_cwd);
  }
  return calibrate::choose_python(std::nullopt);
}

}  // namespace wcp::reference
