#pragma once
// How the instrumentation reaches the target: a `sitecustomize.py` and the `_wcp_probe` package
// it starts, in a private directory put first on PYTHONPATH, and a private directory named by WCP_EVENT_DIR where each Python process
// writes its own event file.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace wcp::instrument {

inline constexpr const char* kEventDirVariable = "WCP_EVENT_DIR";

// Writes sitecustomize.py and the _wcp_probe package into `directory` (which must exist).
// Throws RunError when it cannot (a full temp directory).
void write_instrumentation(const std::filesystem::path& directory);

struct LaunchSpec {
  std::vector<std::string> argv;
  std::map<std::string, std::string> environment;
};

// Applies `variables` to the run. PYTHONPATH is special: `probe_dir` is prepended to the
// value already in effect. When the command itself sets variables through `env` (e.g.
// `env PYTHONPATH=src python -m app`), those tokens win over the environment, so the merge
// happens inside the token; with `env -i` every variable is passed as a token.
LaunchSpec inject(std::vector<std::string> argv, std::map<std::string, std::string> environment,
                  const std::map<std::string, std::string>& variables, const std::string& probe_dir);

}  // namespace wcp::instrument
