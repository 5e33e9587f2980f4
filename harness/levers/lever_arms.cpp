#include "levers/lever_arms.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "errors.h"
#include "io/environment.h"
#include "levers/lever_protocol.h"
#include "measure/arm_progress.h"
#include "measure/measure.h"
#include "measure/report_builder.h"
#include "run/interrupt_watch.h"
#include "run/process_runner.h"

namespace wcp::levers {
namespace {

VerifyResult run_verify(const std::string& command, const std::filesystem::path& cwd, int sample,
                        std::chrono::milliseconds timeout, InterruptWatch& interrupts) {
  RunRequest request;
  request.argv = {"/bin/sh", "-c", command};
  request.environment = current_environment();
  request.cwd = cwd;
  request.timeout = timeout;
  const RunOutcome outcome = run_process(
      request, [](OutputStream, std::string_view) {}, interrupts);
  VerifyResult result;
  result.sample = sample;
  result.exit_code = outcome.timed_out ? 124 : outcome.exit_code;
  result.output_tail = outcome.output_tail;
  return result;
}

}  // namespace

std::vector<int> round_order(int round, int arms) {
  std::vector<int> order(static_cast<std::size_t>(std::max(arms, 0)));
  std::iota(order.begin(), order.end(), 0);
  if (arms <= 1) return order;
  std::rotate(order.begin(), order.begin() + (round / 2) % arms, order.end());
  if (round % 2 == 1) std::reverse(order.begin(), order.end());
  return order;
}

LeverArms measure_lever_arms(const measure::MeasureOptions& command, const std::vector<Lever>& levers,
                             const ArmsOptions& options, InterruptWatch& interrupts,
                             measure::ProgressListener& progress) {
  if (options.pairs < 1) throw UsageError("--pairs must be at least 1");
  std::vector<measure::MeasureOptions> arms;
  arms.push_back(command);
  arms.back().label = "baseline";
  // An empty variable is no lever at all, whatever the caller's own environment holds.
  arms.back().extra_environment[kLeversVariable] = "";
  for (const Lever& lever : levers) {
    arms.push_back(command);
    arms.back().label = lever.id;
    arms.back().extra_environment[kLeversVariable] = probe_levers_json({lever});
  }
  for (auto& arm : arms) {
    arm.check_output = true;  // the behaviour check compares each lever's first sample with the baseline's
    measure::validate(arm);
  }

  const int count = static_cast<int>(arms.size());
  std::vector<std::vector<measure::SampleRecord>> samples(arms.size());
  std::vector<ArmResult> results(arms.size());
  // Which arms still take samples: the baseline (arm 0) while any lever does.
  std::vector<bool> open(arms.size(), true);
  const auto assemble = [&](std::vector<ArmResult> from) {
    for (std::size_t arm = 0; arm < arms.size(); ++arm) {
      from[arm].report = measure::build_report(arms[arm], samples[arm]);
      if (!samples[arm].empty()) from[arm].first = samples[arm].front();
    }
    LeverArms out;
    out.baseline = std::move(from.front());
    for (std::size_t arm = 1; arm < from.size(); ++arm) out.levers.push_back(std::move(from[arm]));
    return out;
  };
  measure::ArmProgress arms_progress(progress, count * options.pairs);
  int taken = 0;
  int rounds = 0;
  for (int round = 0; round < options.pairs; ++round) {
    for (const int arm : round_order(round, count)) {
      if (!open[static_cast<std::size_t>(arm)]) continue;
      const auto& arm_options = arms[static_cast<std::size_t>(arm)];
      arms_progress.start(arm_options.label, ++taken);
      auto& into = samples[static_cast<std::size_t>(arm)];
      into.push_back(measure::run_sample(arm_options, round + 1, interrupts, arms_progress));
      interrupts.throw_if_interrupted();
      if (!options.verify.empty()) {
        results[static_cast<std::size_t>(arm)].verify.push_back(
            run_verify(options.verify, arm_options.cwd, round + 1, arm_options.timeout, interrupts));
        interrupts.throw_if_interrupted();
      }
    }
    rounds = round + 1;
    if (!options.open_levers || rounds == options.pairs) continue;
    const std::vector<bool> still = options.open_levers(assemble(results));
    bool any = false;
    for (std::size_t lever = 0; lever < still.size() && lever + 1 < open.size(); ++lever) {
      open[lever + 1] = open[lever + 1] && still[lever];
      any = any || open[lever + 1];
    }
    if (!any) break;
  }
  arms_progress.done();

  LeverArms out = assemble(std::move(results));
  out.runs = taken;
  out.rounds = rounds;
  return out;
}

}  // namespace wcp::levers
