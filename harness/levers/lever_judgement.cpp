#include "levers/lever_judgement.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "facts/load_overlap.h"
#include "facts/option_receipts.h"
#include "facts/queries.h"
#include "levers/lever_choice.h"
#include "levers/python_value.h"
#include "measure/output_check.h"
#include "verdict/workload.h"

namespace wcp::levers {
namespace {

using Hashes = std::map<std::string, std::set<std::string>>;

Hashes hashes_by_module(const Report& report) {
  Hashes out;
  for (const ModuleEvent* event : cold_compiled_events(report)) out[event->name].insert(event->hash);
  return out;
}

// One module across two runs: by name, or for module="unique" by kernel key (its name carries a
// hash that the lever itself moves).
bool same_module(const std::string& a, const std::string& b) {
  if (a == b) return true;
  const auto key = unique_module_kernel(a);
  return key && key == unique_module_kernel(b);
}

bool targets(const Lever& lever, const std::string& module) {
  if (lever.kind == LeverKind::config) return true;
  return std::any_of(lever.modules.begin(), lever.modules.end(),
                     [&](const std::string& target) { return target == "*" || same_module(target, module); });
}

// The arm's hashes of `module`, or nullptr when the arm did not build it.
const std::set<std::string>* arm_hashes(const Hashes& after, const std::string& module) {
  if (const auto found = after.find(module); found != after.end()) return &found->second;
  for (const auto& [name, hashes] : after) {
    if (same_module(module, name)) return &hashes;
  }
  return nullptr;
}

const LeverArrival* arrival_of(const Report& report, const std::string& id) {
  for (const auto& arrival : report.lever_arrivals) {
    if (arrival.id == id) return &arrival;
  }
  return nullptr;
}

std::string option_arrival(const Lever& lever, const Report& baseline, const Report& arm) {
  const Hashes before = hashes_by_module(baseline);
  const Hashes after = hashes_by_module(arm);
  std::vector<std::string> moved;
  for (const auto& [module, hashes] : before) {
    if (!targets(lever, module)) continue;
    const std::set<std::string>* now = arm_hashes(after, module);
    if (now != nullptr && *now != hashes) {
      moved.push_back(fmt::format("{} ({} -> {})", module, fmt::join(hashes, "/"), fmt::join(*now, "/")));
    }
  }
  if (!moved.empty()) {
    return fmt::format("the hash of {} target module(s) moved: {}", moved.size(), fmt::join(moved, ", "));
  }
  // The hash does not cover every option (use_precompiled_headers is a build flag): the
  // receipts then say it, when the probe applied it and the builds carry the value.
  const LeverArrival* arrival = arrival_of(arm, lever.id);
  const auto repr = python_repr(lever.value_json);
  if (arrival == nullptr || arrival->status != "applied" || !repr) return "";
  std::set<std::string> had;
  for (const ModuleEvent* event : cold_compiled_events(baseline)) {
    if (event->detail && targets(lever, event->name) && effective_option(*event->detail, lever.name) != *repr)
      had.insert(event->name);
  }
  std::vector<std::string> carried;
  for (const ModuleEvent* event : cold_compiled_events(arm)) {
    const bool had_other =
        std::any_of(had.begin(), had.end(), [&](const std::string& name) { return same_module(name, event->name); });
    if (event->detail && had_other && effective_option(*event->detail, lever.name) == *repr)
      carried.push_back(event->name);
  }
  if (!carried.empty()) {
    return fmt::format("the builds of {} target module(s) carry {} = {} (the baseline's did not): {}", carried.size(),
                       lever.name, *repr, fmt::join(carried, ", "));
  }
  if (lever.name == "use_precompiled_headers") {
    const auto built_pch = [](const Report& report) {
      const auto events = cold_compiled_events(report);
      return std::count_if(events.begin(), events.end(), [](const ModuleEvent* event) { return event->built_pch; });
    };
    const auto was = built_pch(baseline), is = built_pch(arm);
    if (was != is) return fmt::format("the precompiled header was built {} time(s), {} in the baseline", is, was);
  }
  return "";
}

std::string unique_arrival(const Lever& lever, const Report& baseline, const Report& arm) {
  const auto count = [&](const Report& report) {
    std::set<std::string> names;
    for (const ModuleEvent* event : cold_compiled_events(report)) {
      if (!unique_module_kernel(event->name) || !event->detail) continue;
      for (const auto& kernel : event->detail->kernels) {
        if (std::any_of(lever.kernels.begin(), lever.kernels.end(), [&](const KernelRef& ref) {
              return ref.qualname == kernel.qualname && ref.file == kernel.file;
            }))
          names.insert(event->name);
      }
    }
    return names.size();
  };
  const auto was = count(baseline), is = count(arm);
  if (is >= was) return "";
  return fmt::format("the target kernels were built in {} module=\"unique\" module(s), {} in the baseline", is, was);
}

}  // namespace

std::string proven_arrival(const Lever& lever, const Report& baseline, const Report& arm) {
  if (is_scheduling(lever)) {
    std::size_t groups = 0, threads = 0;
    for (const auto& overlap : overlapping_loads(arm.module_events)) {
      if (overlap.pass != Pass::cold) continue;
      ++groups;
      threads = std::max(threads, overlap.threads);
    }
    return groups == 0 ? "" : fmt::format("{} group(s) of cold loads overlapped, on up to {} threads", groups, threads);
  }
  switch (lever.kind) {
    case LeverKind::config:
    case LeverKind::module_option:
      return option_arrival(lever, baseline, arm);
    case LeverKind::drop_unique:
      return unique_arrival(lever, baseline, arm);
    case LeverKind::noop_call: {
      const LeverArrival* arrival = arrival_of(arm, lever.id);
      if (arrival == nullptr || arrival->calls_intercepted <= 0) return "";
      return fmt::format("{} call(s) of wp.{}() made no-ops", arrival->calls_intercepted, lever.name);
    }
  }
  return "";
}

namespace {

std::string quoted(const std::optional<std::string>& line, bool ended) {
  if (ended) return "(end of output)";
  return line ? fmt::format("`{}`", *line) : std::string("(past the lines kept)");
}

// Behaviour evidence; empty when the lever's run behaved as the baseline's.
struct Behaviour {
  std::vector<std::string> failures;  // each one makes the lever needed
  std::vector<std::string> notes;
  LeverWorkload workload = LeverWorkload::not_run;
};

Behaviour check_behaviour(const ArmResult& baseline, const ArmResult& arm) {
  Behaviour out;
  const Report& base = baseline.report;
  const Report& lever = arm.report;
  bool failed = false;
  for (std::size_t i = 0; i < lever.sample_results.size(); ++i) {
    const SampleResult& sample = lever.sample_results[i];
    const int expected = i < base.sample_results.size() ? base.sample_results[i].exit_code : 0;
    if (sample.timed_out) {
      out.failures.push_back(fmt::format("sample {}: timed out (the baseline's did not)", sample.index));
      failed = true;
    } else if (sample.exit_code != expected) {
      out.failures.push_back(
          fmt::format("sample {}: exit status {} (the baseline's: {})", sample.index, sample.exit_code, expected));
      failed = true;
    }
    if (failed) break;  // the first failing sample is the evidence
  }
  if (!failed && !lever.measured()) {
    out.failures.push_back("no sample of the lever's arm ran to the end");
    failed = true;
  }
  if (failed) out.workload = LeverWorkload::program_failed;

  if (baseline.first && arm.first && baseline.first->cold.output && arm.first->cold.output) {
    const OutputCheck check = measure::check_output(*baseline.first, {*arm.first}, {});
    if (!check.passes.empty()) {
      const PassOutputCheck& cold = check.passes.front();
      if (!cold.stream_same(cold.stdout_difference)) {
        const OutputDifference& difference = *cold.stdout_difference;
        out.failures.push_back(fmt::format("stdout line {}: baseline {}, with the lever {}", difference.line,
                                           quoted(difference.expected, difference.expected_ended),
                                           quoted(difference.actual, difference.actual_ended)));
      }
    }
  }

  if (!failed) {
    const verdict::WorkloadCheck workload = verdict::check_workload(base, lever);
    switch (workload.status) {
      case verdict::WorkloadStatus::equivalent:
        out.workload = LeverWorkload::same;
        break;
      case verdict::WorkloadStatus::different: {
        out.workload = LeverWorkload::changed;
        if (workload.first_divergence) {
          const auto& divergence = *workload.first_divergence;
          out.failures.push_back(fmt::format("launch #{}{}: baseline `{}`, with the lever `{}`", divergence.index + 1,
                                             divergence.process.empty() ? "" : " of " + divergence.process,
                                             divergence.baseline, divergence.candidate));
        } else {
          out.failures.push_back("the launches differ: " + workload.reason);
        }
        break;
      }
      case verdict::WorkloadStatus::unverified:
        out.notes.push_back("workload not verified: " + workload.reason);
        break;
    }
  }

  for (const VerifyResult& result : arm.verify) {
    if (result.passed()) continue;
    const bool baseline_too = std::any_of(
        baseline.verify.begin(), baseline.verify.end(),
        [&](const VerifyResult& base_result) { return base_result.sample == result.sample && !base_result.passed(); });
    if (baseline_too) {
      out.notes.push_back(
          fmt::format("--verify failed after sample {} of the baseline too: it tells nothing here", result.sample));
      continue;
    }
    std::string tail = result.output_tail;
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.pop_back();
    if (const auto cut = tail.rfind('\n'); cut != std::string::npos) tail = tail.substr(cut + 1);
    out.failures.push_back(fmt::format("--verify exited {} after sample {}{}", result.exit_code, result.sample,
                                       tail.empty() ? "" : ": " + tail));
    break;
  }
  return out;
}

std::string verdict_of(verdict::Direction direction) {
  switch (direction) {
    case verdict::Direction::improved:
      return "IMPROVED";
    case verdict::Direction::regressed:
      return "REGRESSION";
    case verdict::Direction::within_band:
      return "INCONCLUSIVE";
    case verdict::Direction::unavailable:
      return "UNAVAILABLE";
  }
  return "UNAVAILABLE";
}

LeverClock clock_of(const verdict::ClockComparison& comparison) {
  LeverClock clock;
  if (comparison.baseline) clock.before_ms = comparison.baseline->median;
  if (comparison.candidate) clock.after_ms = comparison.candidate->median;
  clock.delta_ms = comparison.delta_ms;
  clock.band_ms = comparison.band_ms;
  clock.verdict = verdict_of(comparison.direction);
  if (!comparison.delta_ms || !comparison.band_ms) {
    clock.detail = "unavailable: a side did not measure this clock";
    return clock;
  }
  clock.detail = fmt::format("{:+.0f} ms{}, band ±{:.0f} ms", *comparison.delta_ms,
                             comparison.delta_percent ? fmt::format(" ({:+.1f} %)", *comparison.delta_percent) : "",
                             *comparison.band_ms);
  if (comparison.paired) {
    clock.detail +=
        fmt::format(", {} pair(s), sign test p={:.3g}", comparison.paired->pairs, comparison.paired->sign_test_p);
    if (comparison.paired->too_few_to_tell) clock.detail += " (too few pairs to tell)";
  }
  clock.detail += "; " + comparison.noise.summary();  // where the band's noise came from, as compare says
  return clock;
}

// Why a lever needs no more pairs whatever its clocks would say.
std::string_view settled_status_words(LeverStatus status) {
  switch (status) {
    case LeverStatus::needed_by_program:
      return "the program needs what it turns off";
    case LeverStatus::did_not_arrive:
      return "it did not arrive";
    case LeverStatus::not_applicable:
      return "not applicable";
    case LeverStatus::skipped:
      return "skipped";
    case LeverStatus::measured:
      break;
  }
  return "measured";
}

}  // namespace

void judge_lever(const ArmResult& baseline, const ArmResult& arm, LeverOutcome& outcome,
                 const std::optional<verdict::Verdict>& forced_verdict) {
  const Lever& lever = outcome.lever;
  const LeverArrival* said = arrival_of(arm.report, lever.id);
  if (said != nullptr && said->status == "not_applicable") {
    outcome.status = LeverStatus::not_applicable;
    outcome.reason = said->detail.empty() ? "the probe says this Warp cannot apply it" : said->detail;
    return;
  }
  const Behaviour behaviour = check_behaviour(baseline, arm);
  outcome.workload = behaviour.workload;
  outcome.behaviour_evidence = behaviour.failures;
  outcome.behaviour_evidence.insert(outcome.behaviour_evidence.end(), behaviour.notes.begin(), behaviour.notes.end());
  outcome.arrival = proven_arrival(lever, baseline.report, arm.report);
  if (!behaviour.failures.empty()) {
    outcome.status = LeverStatus::needed_by_program;
    outcome.reason = "with this lever the program " + behaviour.failures.front();
    outcome.take_it = "do not take it: this program needs what it turns off (" + behaviour.failures.front() + ")";
    return;
  }
  if (outcome.arrival.empty()) {
    outcome.status = LeverStatus::did_not_arrive;
    if (said == nullptr) {
      outcome.reason = "the probe did not report the lever (it did not attach, or no process imported Warp)";
    } else if (said->status == "failed") {
      outcome.reason = "the probe could not apply it: " + said->detail;
    } else {
      outcome.reason =
          "applied, but no target module's hash moved, no build carries the value and no call was "
          "intercepted: nothing it was meant for was built after it was set";
      if (!said->modules_replaced.empty()) {
        outcome.reason = fmt::format(
            "set at the creation of {}, but code after that replaced or rewrote its options, so the "
            "build never saw it (warp.fem, for one, assigns `module.options` to each module it generates, from the "
            "module it generates them from): no setting narrower than that module's reaches it",
            fmt::join(said->modules_replaced, ", "));
      } else if (!said->detail.empty()) {
        outcome.reason += " (" + said->detail + ")";
      }
    }
    return;
  }
  verdict::JudgeOptions options;
  options.paired = true;
  options.forced_verdict = forced_verdict;
  const verdict::Judgement judgement = verdict::judge(baseline.report, arm.report, options);
  outcome.cold_module = clock_of(judgement.module_work);
  outcome.compile_elapsed = clock_of(judgement.compile_elapsed);
  outcome.status = LeverStatus::measured;
  const LeverClock& decides = is_scheduling(lever) ? outcome.compile_elapsed : outcome.cold_module;
  outcome.reason = fmt::format("{} on {}: {}", decides.verdict, outcome.judged_on, decides.detail);
  if (forced_verdict)
    outcome.reason += fmt::format(" (the judge said {}: {})", verdict::to_string(judgement.verdict), judgement.reason);
}

verdict::PairsDecision lever_decision(const ArmResult& baseline, const ArmResult& arm, const Lever& lever) {
  LeverOutcome outcome;
  outcome.lever = lever;
  judge_lever(baseline, arm, outcome);
  const bool scheduling = is_scheduling(lever);
  const auto clock =
      scheduling ? verdict::PairedClock::compile_elapsed : verdict::module_work_clock(baseline.report, arm.report);
  const auto ratios = verdict::pair_ratios(baseline.report, arm.report, clock);
  if (outcome.status != LeverStatus::measured) {
    // Counted by the arm's samples: a program that fails under the lever measures no ratio.
    const std::size_t pairs = arm.report.sample_results.size();
    return {true, fmt::format("decided after {} pair{}: {}", pairs, pairs == 1 ? "" : "s",
                              settled_status_words(outcome.status))};
  }
  const LeverClock& decides = scheduling ? outcome.compile_elapsed : outcome.cold_module;
  verdict::Verdict so_far = verdict::Verdict::inconclusive;
  if (decides.verdict == "IMPROVED") so_far = verdict::Verdict::improved;
  if (decides.verdict == "REGRESSION") so_far = verdict::Verdict::regression;
  return verdict::decide_pair_ratios(so_far, ratios);
}

}  // namespace wcp::levers
