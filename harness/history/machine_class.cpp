#include "history/machine_class.h"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <sstream>

namespace wcp::history {

std::string fingerprint_class(const MachineTraits& traits) {
  std::string text = traits.cpu_model.empty() ? "unknown CPU" : traits.cpu_model;
  text += fmt::format(" · {} cores", traits.cpu_cores);
  if (traits.memory_bytes) {
    // Whole GiB, rounded: two runners of one type report MemTotal a few MiB apart (firmware and
    // kernel reservations), which must not split them into two classes.
    const double gib = static_cast<double>(*traits.memory_bytes) / (1024.0 * 1024.0 * 1024.0);
    text += fmt::format(" · {} GiB", static_cast<long long>(std::llround(gib)));
  } else {
    text += " · memory unknown";
  }
  text += " · " + (traits.gpu.empty() ? std::string("no GPU") : traits.gpu);
  return text;
}

std::string choose_machine_class(const std::string& option, const EnvironmentLookup& environment,
                                 const MachineTraits& traits) {
  if (!option.empty()) return option;
  if (auto named = environment("WCP_MACHINE_CLASS"); named && !named->empty()) return *named;
  return fingerprint_class(traits);
}

std::optional<std::uint64_t> total_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    if (!line.starts_with("MemTotal:")) continue;
    std::istringstream fields(line.substr(9));
    std::uint64_t kib = 0;
    if (fields >> kib) return kib * 1024;
  }
  return std::nullopt;
}

}  // namespace wcp::history
