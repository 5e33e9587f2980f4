#pragma once
// NVRTC's device time trace (`-time=<file>`, Warp's `compile_time_trace` option): Chrome's Trace
// Event JSON, read into a module's phases and each kernel's share of them (docs/cuda-build.md).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/cuda_build.h"

namespace wcp::parse {

struct NvrtcTrace {
  CudaPhases phases;
  // Per kernel mangled name (the function name minus its "_cuda_kernel_forward" /
  // "_cuda_kernel_backward" suffix), its costs; `kernel` is left empty (the caller maps mangled
  // names to Python keys). A kernel function that no phase timed is left out.
  std::vector<CudaKernelCost> kernels;  // costliest first (by total_ms, ties by mangled name)
};

// Parses NVRTC's Trace Event JSON text ({"traceEvents":[...], "otherData":{...}}). Returns nullopt
// and sets `why` (one plain sentence) when the text is not such a trace (not JSON, no traceEvents
// array, no NVRTC phase events); `why` is left as it is otherwise. A malformed event is skipped,
// never fatal.
std::optional<NvrtcTrace> read_nvrtc_trace(std::string_view text, std::string& why);

}  // namespace wcp::parse
