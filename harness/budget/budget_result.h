#pragma once
// What checking a budget file found: one outcome per budget per command. Renderers read this
// and never compute; every number a renderer shows is already here.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "budget/budget_file.h"
#include "facts/rebuilds.h"
#include "model/mechanism.h"
#include "model/reference.h"
#include "verdict/judge.h"

namespace wcp::budget {

enum class Verdict {
  pass,
  fail,
  improved,  // passes, but beat the baseline beyond its noise band: suggest --update-baseline
  accepted,  // a baseline budget under --update-baseline: the new run becomes the baseline
  // A baseline budget with no baseline to judge by (`--against-branch` with too few matching
  // runs): says why, and neither passes nor fails.
  not_judged,
};

enum class Unit { count, seconds, bytes, units };

// A module a failing budget points at, and what explains it.
struct Offender {
  std::string module;  // "" for an offender that is a test (test budgets)
  // The test an offender is (test budgets), or the test that first built its module; "" when
  // the run carries no test context.
  std::string test;
  std::string detail;                   // e.g. "3 builds, 1.20 s, hashes a1b2c3d e4f5a6b 0c0ffee"
  std::optional<RebuildCause> rebuild;  // set when the module was built more than once
  std::optional<Mechanism> mechanism;   // the mechanism that explains it, when one does
  std::string explanation;              // plain words
  std::string fix;                      // the diagnosis finding's fix, when one matched
};

// The machine reference a cold_units budget divided by, and what came of it.
struct ReferenceUse {
  ReferenceKind kind = ReferenceKind::warp_cpu;
  std::string name;
  std::string description;
  bool same_run = true;     // measured beside the command in this run; else a stored calibration's
  std::string source;       // "this run", or the calibration file and its date
  Summary cost_ms;          // the reference's median and MAD
  Summary units;            // cold units, one value per sample (per pair when same_run)
  double band_units = 0.0;  // the units' noise band (facts/reference_units.h)
  // The calibration's stored reference of the same name, and this run's distance from it
  // (run / stored − 1); absent when there is nothing to cross-check against.
  std::optional<double> stored_ms;
  std::optional<double> drift;
};

struct BudgetOutcome {
  std::string budget;  // the YAML key, e.g. "max_builds_per_module"
  Verdict verdict = Verdict::pass;
  std::optional<double> measured;  // absent when the run did not measure it
  std::optional<double> limit;
  Unit unit = Unit::count;
  std::string note;  // one line of context: how the limit was derived, what changed
  std::vector<Offender> offenders;
  std::optional<verdict::Judgement> judgement;  // the `baseline` budget: compare's judgement, unchanged
  std::optional<ReferenceUse> reference;        // the `cold_units` budget
  // How the runs taken decide it (budget/auto_sampling.h): "exact after 1 run", "margin 98 %
  // beyond the gross-change bound", "sequential test: …"; "" when not assessed.
  std::string decided_by;
  bool decided = true;  // false: the runs taken left it within noise of its limit
};

// How many runs an entry took and why it stopped there.
struct Sampling {
  bool automatic = false;  // `samples: auto`
  int runs = 0;            // cold+warm runs taken
  int max_runs = 0;
  std::string summary;  // "decided after 1 run: …", "not decided after 5 runs: …", "3 samples (fixed)"
};

struct CommandResult {
  std::string name;
  int line = 0;
  DeviceRequirement device = DeviceRequirement::any;
  std::optional<std::string> not_run;      // why it was skipped (no CUDA device); never a pass
  std::optional<std::string> run_failure;  // every sample failed: nothing to evaluate
  std::vector<std::string> notes;          // partial failures and measurement caveats
  std::vector<BudgetOutcome> outcomes;
  // The entry has a baseline: how its module identities moved since then. Shown beside every
  // failure as context (which kernel, option or block_dim changed; which test first built it);
  // it never decides a verdict.
  std::optional<verdict::IdentityChanges> since_baseline;
  std::optional<Sampling> sampling;                       // absent when nothing ran
  std::optional<std::filesystem::path> baseline_written;  // set by --update-baseline
  std::optional<std::string> baseline_not_written;        // and why it did not happen

  bool failed() const;
  bool improved() const;
  bool not_judged() const;  // some budget could not be judged (and none failed): never a silent pass
};

struct CheckResult {
  std::filesystem::path file;
  std::vector<CommandResult> commands;

  bool failed() const;
  bool all_not_run() const;
  int not_judged() const;  // commands with a budget not judged and none failed
};

std::string to_string(Verdict verdict);

}  // namespace wcp::budget
