#pragma once
// Which levers apply to a measured program (`levers`, issue 30): the standing levers every
// program is offered (backward off at the entry point, the CPU precompiled header flipped, lineinfo off,
// release mode where a build was debug), and one for each finding whose fix the instrumentation can apply from outside
// the code (CS-10 per module, a late or unarrived option applied at module creation, CS-9's constant-made kernels out
// of module="unique", CS-2's cache clears made no-ops, CS-12, CS-11, CS-7, CS-13, and fast_math with --numerics).
// Levers this Warp or this run cannot use are kept, not run, with the reason.
#include <optional>
#include <string>
#include <vector>

#include "analysis/finding.h"
#include "model/lever_outcome.h"
#include "model/report.h"

namespace wcp::levers {

struct ChoiceOptions {
  bool numerics = false;  // also offer levers that change results (fast_math)
  int workers = 4;        // load_module_max_workers for CS-13: the measuring machine's cores
};

// A lever before it runs: what it is and what is known of it from the baseline alone.
struct ChosenLever {
  // lever, scope, owner, behaviour, prediction and take_it set; status not_applicable with the
  // reason when it cannot run here; otherwise status is decided by the judgement.
  LeverOutcome outcome;
  bool runnable() const {
    return outcome.status != LeverStatus::not_applicable && outcome.status != LeverStatus::skipped;
  }
};

// A scheduling lever changes when builds run, not what they build: it is judged on compile
// elapsed and proved by loads that overlapped.
bool is_scheduling(const Lever& lever);

// Whether `warp_version` ("1.9.1", "1.19.0") has warp.config.<name>; the options Warp added
// after 1.9 (load_module_max_workers, use_precompiled_headers, enable_mathdx_gemm) are the ones
// that differ between the versions this tool supports.
bool warp_has_config(const std::string& warp_version, const std::string& name);

std::vector<ChosenLever> choose_levers(const Report& baseline, const analysis::Diagnosis& diagnosis,
                                       const ChoiceOptions& options = {});

// --only / --skip: levers not named (or named) become skipped. An id matches itself;
// "family:*" names every lever of a family ("backward-off:*" matches "backward-off:wp_x").
void apply_selection(std::vector<ChosenLever>& levers, const std::vector<std::string>& only,
                     const std::vector<std::string>& skip);

}  // namespace wcp::levers
