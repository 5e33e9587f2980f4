#pragma once
// What decides a build's bytes beside its module hash (model/report.h: BuildEnvironment), read
// once after the runs: Warp's version and toolkit from the report, its CPU compiler library from
// Warp's folder, the host CPU from /proc/cpuinfo. Never inside the measured program.
#include <optional>
#include <string>
#include <tuple>

#include "model/report.h"

namespace wcp::measure {

BuildEnvironment build_environment_of(const Report& report);

// The same, read once per measurement: a report is built after every sample (to ask whether to
// stop), and the compiler library's CRC costs ~150 ms a read. Kept for as long as the report's
// Warp folder, version and toolkit stay the same; owned by whoever measures, never global.
class BuildEnvironmentReader {
 public:
  BuildEnvironment read(const Report& report);

 private:
  std::optional<std::tuple<std::string, std::string, std::string>> key_;
  BuildEnvironment environment_;
};

}  // namespace wcp::measure
