#pragma once
// The CUDA builds one cold run's processes made at exit (`measure --cuda-arch`), gathered from
// their records into the report's shape, and the exit-time window they took: the measured cold
// wall includes that window, the program's cold wall does not.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "instrument/instrumentation_events.h"
#include "model/cuda_build.h"

namespace wcp::measure {

// The variable that asks the probe for the builds ("86,90"); set on cold passes only.
inline constexpr const char* kCudaArchsVariable = "WCP_CUDA_ARCHS";

// "sm_86" or "86" → 86; nullopt for anything else (the CLI and budgets report it).
std::optional<int> parse_cuda_arch(const std::string& text);
std::string cuda_archs_variable_value(const std::vector<int>& archs);

// Reads each build's NVRTC trace into its phases and kernels while the run's event folder
// still exists (the sample runner calls it right after reading the events).
void read_cuda_build_traces(instrument::InstrumentationEvents& events);

// Absent when no process recorded a build window (none was asked for, or no process reached exit).
std::optional<CudaBuildRun> cuda_build_run_of(const instrument::InstrumentationEvents& events);

// The length of the union of the processes' build windows, in ms: builds of nested processes
// that overlap are not counted twice.
double cuda_build_window_ms(const std::vector<instrument::CudaBuildWindow>& windows);

// Per arch, the summed CPU time of the modules that built (no trace is read); an arch with no
// timed build is left out.
std::map<int, double> cuda_compile_cpu_by_arch(const instrument::InstrumentationEvents& events);

}  // namespace wcp::measure
