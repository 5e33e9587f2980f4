#pragma once
// One mapping of settings as written: `defaults` and each command entry are read into this,
// then merged key by key through the key table (budget/budget_keys.h). After the merge the
// budget keys are read from here by evaluation; absent means "not checked".
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wcp::budget {

// Where a command may run. `any` runs everywhere; `cuda` entries are not run (and said so)
// on a machine without a CUDA device.
enum class DeviceRequirement { any, cpu, cuda };

std::string to_string(DeviceRequirement device);

// `samples`: a fixed number of cold+warm runs, or `auto` (absent `fixed`): as few as decide every
// budget of the entry, at most kMaxAutoSamples (docs/budgets.md#samples-auto).
struct SampleCount {
  std::optional<int> fixed;
  bool operator==(const SampleCount&) const = default;
};

struct Settings {
  // How to run the command.
  std::optional<std::vector<std::string>> command;
  std::optional<std::string> cwd;
  std::map<std::string, std::string> env;
  std::optional<SampleCount> samples;
  std::optional<double> timeout;  // seconds per run
  std::optional<DeviceRequirement> device;
  // The budgets.
  std::optional<std::uint64_t> max_modules;
  std::optional<std::uint64_t> max_identities;
  std::optional<std::uint64_t> max_builds_per_module;
  std::map<std::string, std::string> allow_rebuilds;  // module name -> why it may rebuild
  std::optional<double> cold_seconds;
  std::optional<double> cold_cpu_seconds;  // on the CPU clock (issue 49)
  std::optional<double> cold_units;
  std::optional<double> compile_elapsed_seconds;
  std::optional<bool> warm_near_zero;
  std::optional<std::string> baseline;  // as written; CommandEntry::baseline_report is resolved
  // `baseline: {rev: REV}`: judged against REV measured in the same job (issue 63), as written.
  std::optional<std::string> baseline_rev;
  std::optional<double> baseline_tolerance_percent;
  // The smallest regression the baseline budget must be able to see, in % of the baseline: a
  // verdict whose noise could not see that much is NOT JUDGED (default
  // kDefaultBaselineThresholdPercent).
  std::optional<double> baseline_threshold_percent;
  std::optional<bool> gate_on_elapsed;
  std::optional<std::uint64_t> max_generated_source_bytes;
  std::optional<std::uint64_t> max_lto_artifacts;
  std::optional<bool> stable_hashes;  // the identities survive a reseeded process and a relocated checkout
  std::optional<std::uint64_t> max_cache_bytes;
  // Test budgets (budget/test_budgets.h): per test of a suite the command runs.
  std::optional<std::uint64_t> max_test_builds;
  std::optional<double> max_test_cold_seconds;
  std::optional<std::string> no_builds_after;  // a test id, or the phase `collection`/`import`
  // The CUDA build measured without a GPU (`measure --cuda-arch`, docs/budgets.md#cuda-build):
  // the architectures to build for (86 for sm_86), and the budgets on that build, valid only
  // together with them.
  std::optional<std::vector<int>> cuda_arch;
  std::optional<double> max_cuda_compile_seconds;         // per arch, median over samples of the summed CPU
  std::optional<double> max_module_cuda_compile_seconds;  // each module build's CPU (first sample)
  std::optional<double> max_kernel_cuda_compile_ms;       // each kernel's NVRTC time, forward + backward
  std::optional<std::uint64_t> max_cuda_output_bytes;     // per arch, the modules' summed output
};

}  // namespace wcp::budget
