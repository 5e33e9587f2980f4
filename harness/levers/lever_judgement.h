#pragma once
// One lever against the shared baseline arm (`levers`, issue 30), in the order that matters:
//   1. behaviour: the program must exit as the baseline did, launch the same workload (names
//      ignored, as `compare` judges it), print the same stdout (apart from --ignore-output lines)
//      and pass --verify; any failure -> needed_by_program, with the evidence;
//   2. arrival, proved from the run: an option lever by target modules whose hashes moved (or
//      whose builds carry the value, where the probe applied it), drop_unique by unique modules
//      that went away, a no-op lever by calls it intercepted, a scheduling lever by loads that
//      overlapped; none -> did_not_arrive, never a saving of 0;
//   3. the clocks, by the same judge as `ab` on paired samples (band max(1 %, 2 × MAD), sign
//      test): cold module work, and compile elapsed (which decides for scheduling levers).
#include <optional>
#include <string>

#include "levers/lever_arms.h"
#include "model/lever_outcome.h"
#include "verdict/judge.h"
#include "verdict/paired_stop.h"

namespace wcp::levers {

// How the run proves the lever reached something; "" when nothing shows it.
std::string proven_arrival(const Lever& lever, const Report& baseline, const Report& arm);

// Fills outcome.status, reason, arrival, workload, behaviour_evidence and the clocks.
void judge_lever(const ArmResult& baseline, const ArmResult& arm, LeverOutcome& outcome,
                 const std::optional<verdict::Verdict>& forced_verdict = std::nullopt);

// `levers --pairs auto`: do the pairs so far decide this lever? A lever that did not arrive, is
// not applicable or changed the program's behaviour is decided by its first pair (more samples
// would not change that); a measured one by the rule of `ab --samples auto`
// (verdict/paired_stop.h) on the clock it is judged on.
verdict::PairsDecision lever_decision(const ArmResult& baseline, const ArmResult& arm, const Lever& lever);

}  // namespace wcp::levers
