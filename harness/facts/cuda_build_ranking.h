#pragma once
// The CUDA build ranked per architecture, the answer first (ClangBuildAnalyzer's order): the
// costliest kernels across every module, forward and backward apart, then the costliest modules,
// then the fixed cost each module pays for Warp's headers. Rendering prints it, never ranks.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/report.h"

namespace wcp {

struct RankedCudaKernel {
  std::string kernel;  // the Python key, or the mangled name when no kernel owns it
  std::string module;
  std::optional<double> forward_ms;
  std::optional<double> backward_ms;
  double total_ms = 0.0;
};

struct CudaArchRanking {
  int arch = 0;
  std::optional<Summary> cpu_ms;  // every sample's (the report's summary); absent when not timed
  std::size_t modules_built = 0;
  std::size_t modules_failed = 0;
  std::vector<const CudaModuleBuild*> modules;  // costliest first
  std::vector<RankedCudaKernel> kernels;        // costliest first
  // Warp's headers, per module that had a trace: the mean top-level header time and how many
  // modules paid it. Absent without traces.
  std::optional<double> headers_ms_per_module;
  std::size_t modules_with_headers = 0;
  std::optional<long long> output_bytes;  // summed over the modules that wrote an output
  std::string kernels_unavailable;        // why no kernel is ranked, "" when some are
  // NVRTC's trace is its own wall clock: the largest ratio of a module's trace span to its
  // compiling thread's CPU time. Well above 1, the thread waited for a core (a busy machine, or
  // more builds than cores) and the phase and kernel times overstate the work; their shares hold.
  std::optional<double> trace_wall_over_cpu;
};

// Above this ratio of NVRTC's wall to the thread's CPU, the screen says the times are inflated.
inline constexpr double kContendedTraceRatio = 1.25;

struct CudaBuildRanking {
  std::vector<CudaArchRanking> archs;  // in the order asked
  std::string unavailable;
  int workers = 0;
  std::optional<double> added_wall_ms;
};

// Absent when the report has no CUDA build.
std::optional<CudaBuildRanking> rank_cuda_build(const Report& report);

// What a module's backward code cost its CUDA build, measured in NVRTC's trace for the first
// asked architecture that built it: the summed backward time of its kernels (optimizer, codegen,
// PTXAS), costliest kernels first. Absent without a CUDA build of it, or without a trace.
struct CudaBackwardCost {
  int arch = 0;
  double ms = 0.0;
  std::vector<std::pair<std::string, double>> kernels;  // (kernel, backward ms), costliest first
};
std::optional<CudaBackwardCost> cuda_backward_cost(const Report& report, const std::string& module);

// What a set of modules cost their CUDA build for the first asked architecture that built any of
// them (issue 64: a finding's CUDA evidence): their CPU time, Warp's headers as measured in their
// traces, the optimizer's time, and the kernels whose optimizer time is largest. Absent without a
// CUDA build of them.
struct CudaModulesCost {
  int arch = 0;
  std::size_t modules_built = 0;
  double cpu_ms = 0.0;
  std::size_t modules_with_headers = 0;  // NVRTC keeps a precompiled header per process: maybe 1
  double headers_ms = 0.0;
  std::optional<double> optimizer_ms;
  std::vector<std::pair<std::string, double>> optimizer_kernels;  // (kernel, forward + backward optimizer ms)
};
std::optional<CudaModulesCost> cuda_cost_of_modules(const Report& report, const std::vector<std::string>& modules);

}  // namespace wcp
