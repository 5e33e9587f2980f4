#include "history/capture.h"

#include "errors.h"
#include "io/environment.h"
#include "run/process_runner.h"

namespace wcp::history {

std::optional<std::string> capture_output(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                                          InterruptWatch& interrupts) {
  RunRequest request;
  request.argv = argv;
  request.environment = current_environment();
  request.cwd = cwd.empty() ? std::filesystem::current_path() : cwd;
  request.timeout = std::chrono::seconds(30);
  std::string output;
  try {
    const auto outcome = run_process(
        request,
        [&output](OutputStream stream, std::string_view chunk) {
          if (stream == OutputStream::out) output.append(chunk);  // git's warnings go to stderr
        },
        interrupts);
    if (!outcome.succeeded()) return std::nullopt;
  } catch (const UsageError&) {
    return std::nullopt;  // not installed
  }
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) output.pop_back();
  return output;
}

}  // namespace wcp::history
