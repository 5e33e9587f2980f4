#pragma once
// One sample: a cold run of the command in a fresh private cache, then (if it succeeded) a
// warm run against the same cache. The scratch directory is gone when this returns or throws.
#include <optional>

#include "instrument/instrumentation_events.h"
#include "measure/measure_options.h"
#include "measure/progress.h"
#include "parse/log_scanner.h"
#include "model/report.h"
#include "run/process_runner.h"

namespace wcp {
class InterruptWatch;
}

namespace wcp::measure {

struct PassRecord {
  RunOutcome run;
  parse::LogFacts log;
  instrument::InstrumentationEvents instrumentation;
};

struct SampleRecord {
  int index = 0;
  PassRecord cold;
  std::optional<PassRecord> warm;
  CacheInventory inventory;
  std::string private_cache_dir;  // where WARP_CACHE_PATH pointed (gone by now)
};

SampleRecord run_sample(const MeasureOptions& options, int index, InterruptWatch& interrupts,
                        ProgressListener& progress);

}  // namespace wcp::measure
