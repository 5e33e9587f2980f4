#pragma once
// The original probe's flat `launches` list, rebuilt from the main process's launch record so
// that the original probe (and anything written for its reports) can check the workload of a
// report of this tool.
#include <cstdint>
#include <vector>

#include "model/interop_launch.h"
#include "model/launch_record.h"
#include "model/report.h"

namespace wcp::measure {

// A flat list costs one object per launch where the launch record stays small however long the
// program runs; above this many launches the list is left out (and a note says so).
inline constexpr std::uint64_t kInteropLaunchLimit = 10'000;

// One launch of `signature` in the original probe's shape: arguments without a dtype dropped,
// block_dim 0 (left to Warp) as null, the entry point not kept.
InteropLaunch interop_launch(const LaunchSignature& signature);

// Sets report.interop_launches from the main process's launch record when it has at most
// `limit` launches; above that, adds a note instead. Without a main process or a launch record
// of it, the list stays absent (not recorded is not "no launches"; other notes say why).
void add_interop_launches(Report& report, std::uint64_t limit = kInteropLaunchLimit);

}  // namespace wcp::measure
