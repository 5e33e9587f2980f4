#pragma once
// Roles: the process the tool started is main; multiprocessing children are workers; any other
// Python process is a child (also the Python a shell or launcher started: then there is no
// main, which is the truth, and the child keeps one stable name between runs).
#include <string>
#include <vector>

#include "measure/sample_runner.h"
#include "model/report.h"

namespace wcp::measure {

// The pass's processes that imported Warp, main first; programs are shown relative to `cwd`.
std::vector<ProcessRecord> processes_of(const PassRecord& pass, const std::string& cwd);

}  // namespace wcp::measure
