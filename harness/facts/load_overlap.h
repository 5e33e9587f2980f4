#pragma once
// Loads that ran at the same time: in one process and pass, on different threads, with spans
// that overlap (a `wp.force_load(..., max_workers=N)` preload, or threads calling
// `wp.load_module`). Derived from each load's span and thread (schema 4), so a report and its
// trace say which builds ran in parallel rather than leaving it to the overlap factor.
#include <cstddef>
#include <vector>

#include "model/module_event.h"

namespace wcp {

struct LoadOverlap {
  Pass pass = Pass::cold;
  int pid = 0;
  std::vector<std::size_t> events;  // indexes into the events given, by start time
  std::size_t threads = 0;          // distinct threads among them (2 or more)
  double start_s = 0.0;             // the first start and the last end, on the run's clock
  double end_s = 0.0;
};

// Groups of two or more loads whose spans chain into one interval and that ran on two or more
// threads. Loads without a span or a thread (older reports, Warp's log alone) are left out.
std::vector<LoadOverlap> overlapping_loads(const std::vector<ModuleEvent>& events);

}  // namespace wcp
