#include "calibrate/warp_native_dir.h"

#include <chrono>
#include <cstdlib>
#include <map>

#include "errors.h"
#include "io/environment.h"
#include "run/output_tail.h"
#include "run/process_runner.h"

namespace wcp::calibrate {
namespace {

constexpr const char* kLocateScript =
    "import os, warp; print(os.path.join(os.path.dirname(os.path.abspath(warp.__file__)), 'native'))";

void require_builtin_header(const std::filesystem::path& dir, const std::string& how_found) {
  std::error_code ignored;
  if (!std::filesystem::is_regular_file(dir / "builtin.h", ignored)) {
    throw UsageError(how_found + " gave " + dir.string() +
                     ", which has no builtin.h; pass --warp-native-dir with the native/ folder of an installed warp-lang");
  }
}

}  // namespace

std::string choose_python(const std::optional<std::string>& python) {
  std::string chosen = "python3";
  if (python && !python->empty()) {
    chosen = *python;
  } else if (const char* from_env = std::getenv("WCP_PYTHON"); from_env != nullptr && *from_env != '\0') {
    chosen = from_env;
  }
  return absolute_if_relative_path(chosen, std::filesystem::current_path());
}

std::string absolute_if_relative_path(const std::string& program, const std::filesystem::path& cwd) {
  // A bare name is looked up on PATH; a relative path means "from here", and the interpreter
  // later runs in other directories (the calibration app's), so it is anchored now. Neither
  // canonical nor normalised: a venv's python is a symlink whose own path makes it the venv's,
  // and ".." must resolve the way the kernel resolves it.
  if (program.find('/') == std::string::npos) return program;
  const std::filesystem::path path(program);
  return path.is_absolute() ? program : (cwd / path).string();
}

std::filesystem::path find_warp_native_dir(const std::optional<std::filesystem::path>& explicit_dir,
                                           const std::string& python, InterruptWatch& interrupts) {
  if (explicit_dir) {
    require_builtin_header(*explicit_dir, "--warp-native-dir");
    return *explicit_dir;
  }
  RunRequest request;
  request.argv = {python, "-c", kLocateScript};
  request.environment = current_environment();
  request.cwd = std::filesystem::current_path();
  request.timeout = std::chrono::seconds(120);
  std::string output;
  const auto outcome = run_process(
      request,
      [&output](OutputStream stream, std::string_view chunk) {
        if (stream == OutputStream::out) output.append(chunk);
      },
      interrupts);
  if (!outcome.succeeded()) {
    throw UsageError("cannot locate Warp with " + python + " (" + last_line(outcome.output_tail) +
                     "); pass --python with an interpreter that has warp-lang installed, or --warp-native-dir DIR");
  }
  const std::filesystem::path dir = last_line(output);
  require_builtin_header(dir, python + " -c 'import warp'");
  return dir;
}

}  // namespace wcp::calibrate
