#pragma once
// Whether this machine has a CUDA device, for `device: cuda` entries. The rule (documented in
// docs/budgets.md): WCP_CUDA_DEVICE=1 or 0 in the environment decides outright (CI runners
// and tests set it); otherwise a device node /dev/nvidia0, /dev/nvidia1, ... must exist.
// Device nodes are what the driver creates per GPU, and checking them costs nothing, unlike
// importing warp or running nvidia-smi for every test registration.
#include "io/environment.h"

namespace wcp::budget {

bool cuda_device_present(const EnvironmentLookup& environment);

}  // namespace wcp::budget
