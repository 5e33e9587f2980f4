#pragma once
// Where the installed Warp keeps its native runtime headers (builtin.h and friends), which
// Warp-shaped fixtures include exactly as Warp's generated modules do.
#include <filesystem>
#include <optional>
#include <string>

namespace wcp {
class InterruptWatch;
}

namespace wcp::calibrate {

// `python` when given, else $WCP_PYTHON when set, else "python3" from PATH. A relative path
// (".venv/bin/python") is made absolute against the current directory, as a user expects.
std::string choose_python(const std::optional<std::string>& python);

// `program` made absolute against `cwd` when it is a relative path (has a slash); a bare name
// (to be found on PATH) and an absolute path are returned as they are.
std::string absolute_if_relative_path(const std::string& program, const std::filesystem::path& cwd);

// `explicit_dir` when given, else asks `python` where `warp` is installed. Either way the
// directory must hold builtin.h. Throws UsageError saying which of --python or
// --warp-native-dir to use.
std::filesystem::path find_warp_native_dir(const std::optional<std::filesystem::path>& explicit_dir,
                                           const std::string& python, InterruptWatch& interrupts);

}  // namespace wcp::calibrate
