#pragma once
// `check`'s workflow: each selected entry of a budget file measured, judged on its budgets,
// sampled until its budgets are decided (samples: auto), its baseline re-accepted on request.
// What lives on higher floors (the machine reference measured beside a command, the history's
// noise and branch baselines, recording, printing) comes in through CheckSteps, which
// cli/check_command.cpp wires; this file decides the order and the policy, and prints nothing.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "budget/budget_file.h"
#include "budget/budget_result.h"
#include "budget/evaluate.h"
#include "measure/ab.h"
#include "measure/measure.h"
#include "model/report.h"
#include "stats/noise.h"

namespace wcp::budget {

// The noise an entry is weighed against when its own samples are too few, on each clock.
struct EarlierNoise {
  std::optional<Noise> wall;
  std::optional<Noise> cpu;
};

class CheckSteps {
 public:
  virtual ~CheckSteps() = default;
  // Measures `entry`, stopping early once `stop` says the runs so far decide. `baseline` is the
  // entry's baseline file, for the first estimate of how long a run takes.
  virtual Report measure(const CommandEntry& entry, const std::optional<Report>& baseline,
                         const measure::StopSampling& stop) = 0;
  virtual EarlierNoise earlier_noise(const Report& report) = 0;
  // `--against-branch`: the entry's baseline from a branch's runs in the history, with
  // `options.history_baseline` set to say which (or why there is none). nullopt otherwise.
  virtual std::optional<Report> history_baseline(const CommandEntry& entry, const Report& so_far,
                                                 EvaluateOptions& options) = 0;
  // `--against-rev` / `baseline: {rev: REV}`: the entry measured in two arms interleaved, arm A
  // at `revision` and arm B in the working tree, at most `most_pairs` pairs and fewer once `stop`
  // says the pairs so far decide. `description` is set to what arm A is ("main (1a2b3c4)").
  virtual measure::AbReports measure_against_revision(const CommandEntry& entry, const std::string& revision,
                                                      int most_pairs, const measure::StopPairs& stop,
                                                      std::string& description) = 0;
  // Each entry once, in order, with its report (nullptr when it was not run) and its result.
  virtual void finished(const CommandEntry& entry, const Report* report, const CommandResult& result) = 0;
};

struct CheckPlan {
  std::vector<const CommandEntry*> selected;
  std::map<std::string, Report> baselines;  // the `baseline:` files, by entry name, read up front
  EvaluateOptions options;
  bool cuda_present = false;
  bool update_baseline = false;         // --update-baseline
  bool baselines_from_history = false;  // --against-branch: the files are not the baselines
  // --against-rev REV: every entry's baseline is REV measured beside it (else an entry's own
  // `baseline: {rev: REV}`); "" when not given.
  std::string against_rev;
};

CheckResult run_check_workflow(const CheckPlan& plan, CheckSteps& steps);

// The revision `entry` is judged against in the same job (--against-rev, else its `baseline:
// {rev: REV}`); nullopt when none, and under --against-branch.
std::optional<std::string> revision_of(const CheckPlan& plan, const CommandEntry& entry);

// The entries of `file` that `--only` names (all when empty); UsageError naming the file's
// entries when none matches.
std::vector<const CommandEntry*> select_entries(const BudgetFile& file, const std::string& only);

// The words a history keeps for an entry's outcome: "not measured", "fail", "improved", "not judged", "pass".
std::string outcome_word(const CommandResult& result);

}  // namespace wcp::budget
