#include "history/machine.h"

#include <sstream>

#include "calibrate/machine_info.h"
#include "errors.h"
#include "history/capture.h"
#include "history/machine_class.h"

namespace wcp::history {

Machine current_machine(InterruptWatch& interrupts, const std::string& machine_class,
                        const EnvironmentLookup& environment) {
  const auto info = calibrate::current_machine();
  Machine machine;
  machine.host = info.hostname;
  machine.cpu_model = info.cpu_model;
  // "NVIDIA H200, 570.86.15": the first GPU is the one a default run uses.
  const auto gpus =
      capture_output({"nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"}, {}, interrupts);
  if (gpus) {
    std::istringstream lines(*gpus);
    std::string first;
    std::getline(lines, first);
    const auto comma = first.find(',');
    if (comma != std::string::npos) {
      machine.gpu = first.substr(0, comma);
      const auto driver_start = first.find_first_not_of(' ', comma + 1);
      if (driver_start != std::string::npos) machine.driver = first.substr(driver_start);
    }
  }
  const MachineTraits traits{info.cpu_model, info.cpu_cores, total_memory_bytes(), machine.gpu};
  machine.machine_class = choose_machine_class(machine_class, environment, traits);
  return machine;
}

}  // namespace wcp::history
