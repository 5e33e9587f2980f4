#pragma once
// One sample: a cold run of the command in a fresh private cache, then (if it succeeded) a
// warm run against the same cache. The scratch directory is gone when this returns or throws.
#include <optional>

#include "instrument/instrumentation_events.h"
#include "measure/measure_options.h"
#include "measure/progress.h"
#include "model/report.h"
#include "parse/log_scanner.h"
#include "run/output_digest.h"
#include "run/process_runner.h"

namespace wcp {
class InterruptWatch;
class ScratchDir;
}  // namespace wcp

namespace wcp::measure {

// What a run printed, masked and folded (run/output_digest.h), kept when the output is compared.
struct CapturedOutput {
  OutputDigest out;
  OutputDigest err;
};

struct PassRecord {
  RunOutcome run;
  parse::LogFacts log;
  instrument::InstrumentationEvents instrumentation;
  std::optional<CapturedOutput> output;  // with MeasureOptions::check_output
};

struct SampleRecord {
  int index = 0;
  PassRecord cold;
  std::optional<PassRecord> warm;
  CacheInventory inventory;
  std::string private_cache_dir;  // where WARP_CACHE_PATH pointed (gone by now)
};

// One run of the command under the instrumentation, with the isolation every sample has: the
// kernel cache `cache_dir`, a CUDA cache and event files under `scratch` (which holds the
// "cuda-cache" folder), the instrumentation from `instrumentation_dir`. For runs outside a
// sample (measure/hash_experiments.h).
PassRecord run_instrumented_pass(const MeasureOptions& options, const ScratchDir& scratch,
                                 const std::filesystem::path& cache_dir,
                                 const std::filesystem::path& instrumentation_dir, InterruptWatch& interrupts);

SampleRecord run_sample(const MeasureOptions& options, int index, InterruptWatch& interrupts,
                        ProgressListener& progress);

// One warm pass with the probe against `cache_dir`, a cache the caller prepared (the private
// copy of `measure --warm-cache DIR`), with its own scratch for events and the CUDA cache.
PassRecord run_pass_against(const MeasureOptions& options, const std::filesystem::path& cache_dir,
                            InterruptWatch& interrupts);

// The command as it runs without the probe: no instrumentation, nothing on PYTHONPATH, but the
// same private caches and variables otherwise; cold, then warm on the same cache. Its output is
// captured; its log and events are not read.
SampleRecord run_without_probe(const MeasureOptions& options, InterruptWatch& interrupts, ProgressListener& progress);

}  // namespace wcp::measure
