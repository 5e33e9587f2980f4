#pragma once
// The --arch value: which GPU the fixtures are compiled for and therefore what NVRTC emits.
// sm_XX asks for a CUBIN (the full pipeline, including the PTX assembler, as Warp does when
// the driver supports the arch); compute_XX stops at PTX.
#include <string>
#include <vector>

namespace wcp::calibrate {

enum class OutputKind { kCubin, kPtx };

struct GpuTarget {
  std::string name;     // as given, e.g. "sm_90" or "compute_90a"
  int number = 0;       // 90
  OutputKind output = OutputKind::kCubin;

  std::string nvrtc_option() const { return "--gpu-architecture=" + name; }
  const char* output_name() const { return output == OutputKind::kCubin ? "cubin" : "ptx"; }
};

// Throws UsageError naming `arch` when it is not sm_XX / compute_XX (optionally with an a/f
// suffix), or when `supported` is non-empty and lacks its number.
GpuTarget parse_gpu_target(const std::string& arch, const std::vector<int>& supported);

}  // namespace wcp::calibrate
