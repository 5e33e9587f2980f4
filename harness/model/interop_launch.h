#pragma once
// One launch as the original Python probe lists it in its top-level `launches`: one object per
// launch, in order, no count. Its `compare` checks the workload on exactly these fields, so a
// report of this tool that carries them can be read by it (docs/report-schema.md).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wcp {

struct InteropLaunch {
  std::string kernel;
  std::string module;  // "" when the kernel had none (written as null)
  std::vector<std::int64_t> dim;
  std::string device;               // "" when unknown (written as null)
  std::vector<std::string> dtypes;  // only the arguments that carry a dtype, as the original lists them
  std::optional<int> block_dim;     // null when the launch left it to Warp
  bool adjoint = false;
  bool operator==(const InteropLaunch&) const = default;
};

}  // namespace wcp
