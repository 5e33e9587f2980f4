#pragma once
// The runs of `levers`: one shared baseline arm and one arm per lever (the same command, with
// that lever alone in WCP_PROBE_LEVERS), taken in interleaved rounds. In round k every arm takes
// its sample k, in an order that rotates from round to round (and reverses every other round),
// so each arm is as often early as late; sample k of the baseline and of a lever form a pair the
// judge differences, as `ab` does. Each sample is isolated exactly as in `measure`.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "measure/measure_options.h"
#include "measure/progress.h"
#include "measure/sample_runner.h"
#include "model/lever.h"
#include "model/report.h"

namespace wcp {
class InterruptWatch;
}

namespace wcp::levers {

struct LeverArms;

// `levers --pairs auto`: called after each round but the last with the arms so far; returns, per
// lever (in the order given), whether it still needs pairs. A lever that needs none takes no
// more samples; the rounds end when none does.
using OpenLevers = std::function<std::vector<bool>(const LeverArms& so_far)>;

struct ArmsOptions {
  int pairs = 3;           // rounds: the most with open_levers
  std::string verify;      // --verify: a shell command run in the command's cwd after each sample; "" for none
  OpenLevers open_levers;  // empty: every lever takes `pairs` samples
};

// What the user's --verify said after one sample.
struct VerifyResult {
  int sample = 0;
  int exit_code = 0;
  std::string output_tail;
  bool passed() const { return exit_code == 0; }
};

struct ArmResult {
  Report report;
  std::optional<measure::SampleRecord> first;  // the first sample, its output captured, for the behaviour check
  std::vector<VerifyResult> verify;            // one per sample when --verify was given
};

struct LeverArms {
  ArmResult baseline;
  std::vector<ArmResult> levers;  // in the order of the levers given
  int runs = 0;                   // samples taken, all arms
  int rounds = 0;                 // rounds taken (the baseline's samples)
};

// The order of the arms in round `round` (0-based) of `arms` arms (arm 0 is the baseline).
std::vector<int> round_order(int round, int arms);

// Throws UsageError (nothing run) when the command cannot work.
LeverArms measure_lever_arms(const measure::MeasureOptions& command, const std::vector<Lever>& levers,
                             const ArmsOptions& options, InterruptWatch& interrupts,
                             measure::ProgressListener& progress);

}  // namespace wcp::levers
