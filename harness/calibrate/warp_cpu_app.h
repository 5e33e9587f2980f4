#pragma once
// Generated Warp apps for the CPU backend: Python modules of a chosen number of kernels (every
// kernel the same body size, constants differing so no two hash alike) and drivers that load
// them in a fixed order. The calibration and the machine reference both build these.
#include <filesystem>
#include <string>
#include <vector>

namespace wcp::calibrate {

// The source of one generated module named `name` holding `kernels` kernels, listed in KERNELS.
std::string warp_module_source(const std::string& name, int kernels);

// Writes one module file per entry of `modules` (Python module name, kernels) and driver.py,
// which sets use_precompiled_headers from argv[1] ("1" or "0"; Warp's default is on), imports
// every module, and launches each kernel once on the CPU in the listed order, so Warp builds
// the modules one after another in that order. Throws RunError when a file cannot be written.
struct GeneratedModule {
  std::string name;
  int kernels = 1;
};
void write_warp_cpu_driver(const std::filesystem::path& directory, const std::vector<GeneratedModule>& modules);

}  // namespace wcp::calibrate
