#pragma once
// A runner class: machines that are interchangeable for compile cost, so a team's history may
// pool their noise, baselines and steps. By default a stable fingerprint of what decides
// compile speed: CPU model, logical cores, memory (whole GiB) and GPU model, e.g.
// "Intel Xeon Gold 6338 · 4 cores · 16 GiB · no GPU". Host names are left out on purpose:
// ephemeral CI runners get a new one every job. A team names its own classes with
// --machine-class or WCP_MACHINE_CLASS (e.g. "gh-ubuntu-4core").
#include <cstdint>
#include <optional>
#include <string>

#include "io/environment.h"

namespace wcp::history {

struct MachineTraits {
  std::string cpu_model;
  int cpu_cores = 0;
  std::optional<std::uint64_t> memory_bytes;  // absent when /proc/meminfo does not say
  std::string gpu;                            // "" without one
};

std::string fingerprint_class(const MachineTraits& traits);

// The class to record: `option` (--machine-class) wins, then WCP_MACHINE_CLASS, then the
// fingerprint.
std::string choose_machine_class(const std::string& option, const EnvironmentLookup& environment,
                                 const MachineTraits& traits);

// MemTotal of /proc/meminfo, in bytes; absent where there is none.
std::optional<std::uint64_t> total_memory_bytes();

}  // namespace wcp::history
