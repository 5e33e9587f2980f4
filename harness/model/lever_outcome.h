#pragma once
// What `levers` found for one lever, and the ledger of a whole run: the measured counterpart of
// the ledger a user writes by hand (results/ledger.h). Produced by levers/, rendered by render/.
#include <optional>
#include <string>
#include <vector>

#include "model/lever.h"

namespace wcp {

enum class LeverStatus {
  measured,           // it arrived, the program behaved the same, and its effect was judged
  needed_by_program,  // applying it made the program fail, launch something else, or change its output
  did_not_arrive,     // applied, but nothing in the run shows it reached a module build or a call
  not_applicable,     // this Warp lacks the option, or the run cannot use it (CUDA-only on a CPU run)
  skipped,            // left out by --only, --skip or --max-minutes
};

enum class LeverWorkload { same, changed, program_failed, not_run };

// One clock of one lever arm against the shared baseline arm.
struct LeverClock {
  std::optional<double> before_ms;  // baseline median; absent when not measured
  std::optional<double> after_ms;   // lever arm median
  std::string verdict;  // the judge's verdict name for this clock ("IMPROVED", "INCONCLUSIVE", ...); "" when not judged
  std::string detail;   // the judge's reason in one line
  // The judge's own numbers (verdict::ClockComparison): after - before (the median paired delta
  // when paired) and the noise band max(1 %, 2 x MAD); absent when not judged. The ledger's
  // "saves 120 ms ± 8" is -delta_ms ± band_ms, not a difference of the two medians.
  std::optional<double> delta_ms;
  std::optional<double> band_ms;
  bool operator==(const LeverClock&) const = default;
};

struct LeverOutcome {
  Lever lever;
  LeverStatus status = LeverStatus::not_applicable;
  std::string reason;          // why not applicable / skipped / did not arrive / needed, in one line
  std::string scope;           // what it reaches, in words: "every module created after `import warp`"
  std::string owner;           // whose code the target is: "yours", "Warp's (warp.fem)", "the whole program"
  std::string arrival;         // how arrival was proved ("the hashes of 3 target modules moved"); "" when it did not
  LeverClock cold_module;      // cold module work
  LeverClock compile_elapsed;  // cold wall - warm wall (scheduling levers are judged on this)
  std::string judged_on;       // "cold module work" or "compile elapsed": the clock whose verdict counts
  std::string behaviour;       // what taking it changes: "nothing", "numerics", "gradients", "runtime speed"
  LeverWorkload workload = LeverWorkload::not_run;
  std::vector<std::string> behaviour_evidence;  // first differing launch, exit status, output diff, --verify
  std::optional<double> predicted_saving_ms;    // what `diagnose` predicted for the finding it tests
  bool prediction_estimated = false;
  std::string take_it;  // the exact line to take it (file:line or module option), or why not to
  // `--pairs auto`: how its pairs were decided ("decided after 3 pairs: …", "10 pairs: …"); "" with fixed pairs.
  std::string decided_by;
  bool operator==(const LeverOutcome&) const = default;
};

struct LeverLedger {
  std::vector<std::string> command;
  std::string cwd;
  std::string warp_version;
  std::string device;            // "cpu", "cuda:0", ... as the baseline ran
  int pairs = 0;                 // rounds taken (the baseline arm's samples)
  bool pairs_automatic = false;  // --pairs auto: each lever's arm stopped when its pairs decided
  std::string baseline_source;   // "measured" or the --baseline report's path
  int runs_planned = 0;
  double wall_s = 0.0;  // what the whole levers run took
  std::vector<LeverOutcome> outcomes;
  bool operator==(const LeverLedger&) const = default;
};

}  // namespace wcp
