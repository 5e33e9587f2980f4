#include "calibrate/machine_info.h"

#include "io/cpu_info.h"

#include <sched.h>
#include <unistd.h>

#include <thread>

namespace wcp::calibrate {
namespace {

std::string cpu_model() {
  std::string model = read_cpu_info().model;
  return model.empty() ? "unknown" : model;
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
