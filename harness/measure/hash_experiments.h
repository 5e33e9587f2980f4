#pragma once
// The experiments that tell why a module hash varies (issue 31): two runs with one fixed
// PYTHONHASHSEED and one with another (Python's salted hash() makes the same-seed runs agree and
// the other differ), then a run from a copy of the working directory at another path (a hash
// that depends on where the checkout lives). What still varies with seed and path fixed comes
// from data, time or randomness in the program. The runs share one private kernel cache of
// their own, never the user's or a sample's: a pass whose identities are stable then loads them
// from the cache the first pass filled, so the experiments cost about one cold run plus what
// moved, and a hit there is the CI question itself (does another process reuse it?).
#include <string>
#include <vector>

#include "measure/measure_options.h"
#include "measure/progress.h"
#include "measure/sample_runner.h"
#include "model/hash_stability.h"

namespace wcp {
class InterruptWatch;
}

namespace wcp::measure {

// What varied in these samples, one line each: a warm pass that built an identity its cold pass
// had not, or samples whose cold passes loaded other identities. Empty when nothing did.
std::vector<std::string> varied_hashes(const std::vector<SampleRecord>& samples);

// Runs the experiment passes and compares them. `varied` is the trigger (empty: asked for);
// `warp_version` (e.g. "1.9.1") tells whether Warp still named functions from hash().
HashStability run_hash_experiments(const MeasureOptions& options, const std::vector<std::string>& varied,
                                   const std::string& warp_version, InterruptWatch& interrupts,
                                   ProgressListener& progress);

// The experiment passes' records compared (pure; what run_hash_experiments does after running).
// `passes` are seed 0, seed 0 again, another seed, relocated; a missing or failed one decides
// nothing. `original_cwd` tells the files the relocated pass still read from the original path.
struct ExperimentRecord {
  HashExperimentPass pass;
  std::vector<ModuleEvent> events;        // its observed loads
  std::vector<std::string> loaded_files;  // the kernels' source files it loaded
};
void compare_experiments(const std::vector<ExperimentRecord>& passes, const std::string& original_cwd,
                         const std::string& warp_version, HashStability& out);

}  // namespace wcp::measure
