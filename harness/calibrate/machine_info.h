#pragma once
// Which machine a calibration belongs to. Compile cost is a property of the CPU it ran on, so
// a calibration is keyed by hostname and carries enough to tell two machines apart.
#include <string>

namespace wcp::calibrate {

struct MachineInfo {
  std::string hostname;
  std::string cpu_model;  // "model name" from /proc/cpuinfo; "unknown" when absent
  int cpu_cores = 0;      // logical CPUs this process may use
};

MachineInfo current_machine();
std::string current_hostname();  // "localhost" when gethostname fails

}  // namespace wcp::calibrate
