#pragma once
// The CUDA build of a program, measured without a GPU (`measure --cuda-arch`, issue 64): each
// module identity a process loaded, compiled after the program's own work through Warp's
// ahead-of-time path (wp.compile_aot_module's Module._compile) with the NVRTC Warp ships, for each
// asked architecture, in a private folder. NVRTC's device time trace (`compile_time_trace`) gives
// the phases and the cost per kernel; docs/cuda-build.md says how each figure is read.
//
// Missing is not zero: a phase or a kernel the trace did not time is std::nullopt (null in JSON)
// with the reason in `trace_unavailable`, never 0.
#include <optional>
#include <string>
#include <vector>

namespace wcp {

// NVRTC's phases for one module, from its trace (milliseconds of the compiling thread; NVRTC
// compiles one module on one thread).
struct CudaPhases {
  std::optional<double> front_end_ms;  // "CUDA C++ Front-End": parsing, of which headers:
  std::optional<double> headers_ms;    // top-level "Processing Header File" inside the front end
  std::optional<double> optimizer_ms;  // "NVVM Optimizer"
  std::optional<double> codegen_ms;    // "NVVM CodeGen"
  std::optional<double> ptxas_ms;      // "Total PTXAS Time" (absent when the output is PTX)
  std::optional<double> total_ms;      // first event's start to last event's end
  bool operator==(const CudaPhases&) const = default;
};

// One kernel's share of its module's NVRTC time, forward and backward apart: the optimizer's
// and codegen's per-function entries (`OptFunction` inside each phase) and PTXAS's per-function
// unit, for "<mangled>_cuda_kernel_forward" / "_backward".
struct CudaKernelCost {
  std::string kernel;   // the Python kernel key ("" when the trace named a function no kernel owns)
  std::string mangled;  // "<key>_<8 hex>", or the bare key with strip_hash
  std::optional<double> forward_optimizer_ms;
  std::optional<double> forward_codegen_ms;
  std::optional<double> forward_ptxas_ms;
  std::optional<double> backward_optimizer_ms;  // absent when the module has no backward code
  std::optional<double> backward_codegen_ms;
  std::optional<double> backward_ptxas_ms;
  // Sums of the present figures above (a kernel with none has no total).
  std::optional<double> forward_ms() const;
  std::optional<double> backward_ms() const;
  std::optional<double> total_ms() const;
  bool operator==(const CudaKernelCost&) const = default;
};

// One module identity compiled for one architecture.
struct CudaModuleBuild {
  int pid = 0;
  std::string module;  // Warp's module name
  std::string hash;    // the identity's hash (hex, as Warp names its cache folder: 7 digits)
  int arch = 0;        // 86 for sm_86
  int block_dim = 0;
  std::string output_kind;  // "cubin" or "ptx", as Warp chose for this arch and toolkit
  // Time of the compiling thread for the whole build (Warp's code generation and NVRTC), and its
  // wall; absent when the build did not run.
  std::optional<double> cpu_ms;
  std::optional<double> wall_ms;
  std::optional<long long> output_bytes;
  CudaPhases phases;
  std::vector<CudaKernelCost> kernels;  // costliest first
  std::string trace_unavailable;        // why phases and kernels are absent, "" when read
  std::string error;                    // the build's error, "" when it built
  bool operator==(const CudaModuleBuild&) const = default;
};

// What one cold run's processes compiled for CUDA after their own work.
struct CudaBuildRun {
  std::vector<int> archs;               // as asked, e.g. {86, 90}
  std::string unavailable;              // why nothing was compiled (no compile_aot_module, no NVRTC), "" otherwise
  int workers = 0;                      // builds run at once (the largest any process used)
  std::optional<double> added_wall_ms;  // the exit-time window the builds took, summed over processes
  std::vector<CudaModuleBuild> modules;
  // Sum of the modules' cpu_ms for one arch; absent when none of them was timed.
  std::optional<double> cpu_ms_for(int arch) const;
  bool operator==(const CudaBuildRun&) const = default;
};

}  // namespace wcp
