#pragma once
// What decides a build's bytes beside its module hash (model/report.h: BuildEnvironment), read
// once after the runs: Warp's version and toolkit from the report, its CPU compiler library from
// Warp's folder, the host CPU from /proc/cpuinfo. Never inside the measured program.
#include "model/report.h"

namespace wcp::measure {

BuildEnvironment build_environment_of(const Report& report);

}  // namespace wcp::measure
