#pragma once
// Which interpreter runs the Warp CPU reference (and tells NVRTC where Warp's headers are).
// The command's own interpreter is the one known to have Warp: a default of `python3` from
// PATH fails every reference sample wherever that python has no Warp.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace wcp::reference {

// The Python interpreter `command` starts with: argv[0] when its file name starts with
// "python" (`python`, `python3.12`, `.venv/bin/python`), or the program `env` runs after its
// NAME=VALUE words and the options that take no say over where it runs (-i, -u NAME, -0, -v).
// nullopt for anything else: a shell, `uv run`, an `env` with an option it does not model.
std::optional<std::string> command_interpreter(const std::vector<std::string>& command);

// `explicit_python` (--reference-python) when given; else the command's interpreter, a relative
// path anchored at `command_cwd` (where the command itself runs); else $WCP_PYTHON, else
// `python3` (calibrate::choose_python). A bare name is left to PATH, as for the command.
std::string reference_python_for(const std::optional<std::string>& explicit_python,
                                 const std::vector<std::string>& command, const std::filesystem::path& command_cwd);

}  // namespace wcp::reference
