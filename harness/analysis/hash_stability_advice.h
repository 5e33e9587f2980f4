#pragma once
// CS-2's cause when the hash experiments ran (measure/hash_experiments.h, Report::hash_stability):
// how it was confirmed, what it cost to confirm, and that cause's fix. Pure: reads the report.
#include <string>
#include <vector>

#include "model/report.h"

namespace wcp::analysis {

struct HashAdvice {
  std::vector<std::string> evidence;  // per moved module, then the experiments and their cost
  std::vector<std::string> fixes;     // one per cause, in the order the causes appear
  bool behaviour_changes = false;     // a fix upgrades Warp: the kernels built change with it
  // The first moved module, its cause and that the experiment confirmed it, in one short line
  // (Finding::headline), and the causes' fixes in one short line each (Finding::short_fix).
  std::string headline;
  std::string short_fix;
};

// Empty when no experiment moved a module.
HashAdvice hash_advice(const HashStability& stability);

// "4 passes (seed 0, seed 0 again, seed 1, relocated) in 6.2 s": what confirming cost.
std::string experiments_text(const HashStability& stability);

// The cold builds of the moved modules in the report's first sample: paid again by every process
// or checkout that should have reused them.
double moved_modules_cold_ms(const Report& report, const HashStability& stability);

}  // namespace wcp::analysis
