#pragma once
// The host CPU as /proc/cpuinfo describes it: what a calibration is keyed by, and what Warp's
// CPU builds target (its LLVM tunes object code to the host's features).
#include <string>
#include <vector>

namespace wcp {

struct CpuInfo {
  std::string model;               // the first "model name"; "" where absent
  std::vector<std::string> flags;  // the first "flags" (x86) or "Features" (Arm) line, as listed
};

CpuInfo read_cpu_info();  // empty fields where /proc/cpuinfo is unreadable

}  // namespace wcp
