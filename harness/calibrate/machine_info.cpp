#include "calibrate/machine_info.h"

#include <sched.h>
#include <unistd.h>

#include <fstream>
#include <thread>

namespace wcp::calibrate {
namespace {

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto start = line.find_first_not_of(" \t", colon + 1);
    if (start != std::string::npos) return line.substr(start);
  }
  return "unknown";
}

int usable_cores() {
  // The affinity mask, not the machine's total: containers and taskset limit what a compile
  // can actually use.
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof(set), &set) == 0) return CPU_COUNT(&set);
  return static_cast<int>(std::thread::hardware_concurrency());
}

}  // namespace

std::string current_hostname() {
  char name[256] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0 || name[0] == '\0') return "localhost";
  return name;
}

MachineInfo current_machine() {
  return MachineInfo{current_hostname(), cpu_model(), usable_cores()};
}

}  // namespace wcp::calibrate
