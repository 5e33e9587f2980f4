#pragma once
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wcp::measure {

struct MeasureOptions {
  std::vector<std::string> command;  // run as an argv, never through a shell
  std::filesystem::path cwd;         // absolute
  int samples = 3;
  std::chrono::milliseconds timeout{900'000};  // per run
  std::string label;
  std::map<std::string, std::string> extra_environment;  // e.g. a budget entry's `env`
  // Skip the warm run: for runs whose only product is their cold module timings (the Warp CPU
  // reference and calibration apps), where the warm run would be wasted time.
  bool cold_only = false;
  // Also run the command without the probe (cold and warm, in a private cache of their own) and
  // compare its output and exit status with the first sample's (`--check-output`).
  bool check_output = false;
  std::vector<std::string> ignore_output;  // --ignore-output: regexes of lines left out of that comparison
  // Run the hash experiments (measure/hash_experiments.h) even when no hash varied
  // (`--stable-hashes`, budget `stable_hashes`); they always run when one did.
  bool stable_hashes = false;
  // `--warm-cache DIR`: after the samples, one more warm pass against a private copy of DIR, and
  // the audit of what it used (measure/cache_audit.h). DIR is only read.
  std::optional<std::filesystem::path> warm_cache;
  // `--cuda-arch`: after each cold run's own work, every module identity its processes loaded is
  // compiled for these architectures with Warp's NVRTC (docs/cuda-build.md); never in warm runs.
  std::vector<int> cuda_archs;
};

}  // namespace wcp::measure
