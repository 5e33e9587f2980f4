#include "verdict/judge_notes.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <utility>

namespace wcp::verdict {
namespace {

using Notes = std::vector<std::string>;

// Counts that fell or rose (generated source bytes are left out of these notes).
void work_count_notes(const Judgement& judgement, Notes& notes) {
  if (judgement.verdict == Verdict::invalid) return;
  std::vector<std::string> fewer, more;
  for (const auto& count : judgement.counts) {
    if (count.count == Count::generated_source_bytes || !count.baseline || !count.candidate) continue;
    const std::string change = fmt::format("{} {} → {}", to_string(count.count), *count.baseline, *count.candidate);
    if (*count.candidate < *count.baseline) fewer.push_back(change);
    if (*count.candidate > *count.baseline) more.push_back(change);
  }
  if (!fewer.empty() && judgement.verdict != Verdict::improved) {
    notes.push_back(fmt::format("{}: less work, not yet measurable against the noise — take 5 or more samples per side",
                                fmt::join(fewer, ", ")));
  } else if (!fewer.empty()) {
    notes.push_back(fmt::format("{}: less work compiled", fmt::join(fewer, ", ")));
  }
  if (!more.empty()) notes.push_back(fmt::format("{}: more work compiled", fmt::join(more, ", ")));
}

// Elapsed rose while module work did not, and no rule made that the verdict.
void elapsed_only_rise_note(const Judgement& judgement, Notes& notes) {
  const auto& elapsed = judgement.compile_elapsed;
  if (elapsed.direction != Direction::regressed || judgement.module_work.direction == Direction::regressed ||
      judgement.rule == Rule::regressed) {
    return;
  }
  notes.push_back(
      fmt::format("compile elapsed rose beyond its noise band ({}) while module work did not", signed_change(elapsed)));
}

// A paired clock whose median left the band but whose pairs chance could have produced.
void sign_test_notes(const Judgement& judgement, Notes& notes) {
  for (const ClockComparison* clock : shown_clocks(judgement)) {
    if (!clock->paired || !clock->paired->too_few_to_tell) continue;
    const auto& pairs = *clock->paired;
    notes.push_back(fmt::format(
        "{}: the median paired delta ({:+.1f} ms) is outside its band, but the candidate was faster in {} and slower "
        "in {} of {} pairs, which chance produces too often (sign test p = {:.3f} > {:.2f}): judged within noise; "
        "take more pairs",
        to_string(clock->clock), pairs.median_delta, pairs.faster, pairs.slower, pairs.pairs, pairs.sign_test_p,
        kSignTestAlpha));
  }
}

auto sides_of(const Judgement& judgement) {
  return std::array{std::pair{"baseline", &judgement.baseline}, std::pair{"candidate", &judgement.candidate}};
}

void elapsed_left_out_notes(const Judgement& judgement, Notes& notes) {
  for (const auto& [side, facts] : sides_of(judgement)) {
    if (facts->elapsed_left_out.empty()) continue;
    notes.push_back(fmt::format(
        "compile elapsed of the {} leaves out {}: a warm run not faster than its cold run measured no compile time "
        "(docs/measurement.md); the clock is judged on the samples that remain",
        side, fmt::join(facts->elapsed_left_out, "; ")));
  }
}

void elapsed_unavailable_note(const Judgement& judgement, Notes& notes) {
  const auto& elapsed = judgement.compile_elapsed;
  if (elapsed.direction != Direction::unavailable || judgement.verdict == Verdict::invalid) return;
  notes.push_back(
      fmt::format("compile elapsed is unavailable ({}): it needs a successful warm run on both sides, faster than "
                  "its cold run, and a failed warm run credits nothing",
                  !elapsed.baseline && !elapsed.candidate ? "both sides"
                  : !elapsed.baseline                     ? "baseline"
                                                          : "candidate"));
}

// How each side was measured: failed warm runs, overlapped builds, nothing compiled, failed
// baseline samples (a failed candidate is the verdict's business, not a note's).
void measurement_notes(const Judgement& judgement, Notes& notes) {
  for (const auto& [side, facts] : sides_of(judgement)) {
    if (facts->failed_warm_runs > 0) {
      notes.push_back(
          fmt::format("{} of the {}'s warm runs failed: those samples add nothing to its warm "
                      "figures or compile elapsed",
                      facts->failed_warm_runs, side));
    }
    if (facts->builds_overlapped) {
      notes.push_back(fmt::format(
          "BUILDS OVERLAPPED in the {} (overlap factor {:.2f}): summed module timers count concurrent builds more than "
          "once; judge this change on compile elapsed",
          side, *facts->overlap_factor));
    }
    if (facts->compiled_nothing) {
      notes.push_back(fmt::format(
          "NO MODULES COMPILED in the {}: the command did not reach Warp, or everything came from a cache it should "
          "not have seen",
          side));
    }
    if (facts->failed_samples > 0 && facts != &judgement.candidate && facts->failed_samples < facts->samples) {
      notes.push_back(fmt::format("{} of {} baseline samples failed and are left out of its statistics",
                                  facts->failed_samples, facts->samples));
    }
  }
}

// What the identities decided, or why they could not, and what the clocks read beside it.
void sameness_notes(const Judgement& judgement, Notes& notes) {
  const CompileSameness& sameness = judgement.sameness;
  const auto& work = judgement.module_work;
  switch (sameness.sameness) {
    case Sameness::same:
      if (work.direction == Direction::regressed || work.direction == Direction::improved) {
        notes.push_back(fmt::format(
            "the runner, not the change: {} moved {} on the same compiled code (outside its band ±{:.1f} ms), which "
            "is the machine's speed or load between the runs",
            to_string(work.clock), signed_change(work), *work.band_ms));
      }
      return;
    case Sameness::environment_differs:
      notes.push_back("judged on time, not by identity: " + sameness.detail);
      return;
    case Sameness::bytes_differ:
      notes.push_back("judged on time, not by identity: " + sameness.detail);
      return;
    case Sameness::not_recorded:
      if (judgement.verdict != Verdict::invalid) {
        notes.push_back("not decided by identity, judged on time as before: " + sameness.detail);
      }
      return;
    case Sameness::identities_differ:
      if (const auto& bytes = sameness.changed_bytes;
          bytes && (bytes->baseline_modules + bytes->candidate_modules) > 0) {
        std::string text = fmt::format(
            "what changed, exactly: {} module build(s) only the baseline made and {} only the candidate made; their "
            "generated source {} → {} bytes",
            bytes->baseline_modules, bytes->candidate_modules, bytes->baseline_source, bytes->candidate_source);
        if (bytes->baseline_output && bytes->candidate_output) {
          text += fmt::format(", native output {} → {} bytes", *bytes->baseline_output, *bytes->candidate_output);
        }
        notes.push_back(std::move(text));
      }
      return;
  }
}

// The candidate's module work was scaled to the baseline's speed (verdict/runner_speed.h).
void runner_speed_note(const Judgement& judgement, Notes& notes) {
  const auto& speed = judgement.runner_speed;
  if (!speed) return;
  notes.push_back(fmt::format(
      "the runner's speed, read on the {} module identit{} both sides built identically ({:.0f} → {:.0f} ms {}, "
      "×{:.3f}): the candidate's module work is judged at the baseline's speed, so only the changed modules move it",
      speed->unchanged_identities, speed->unchanged_identities == 1 ? "y" : "ies", speed->unchanged_baseline_ms,
      speed->unchanged_candidate_ms, speed->cpu_clock ? "CPU" : "wall", speed->ratio));
}

}  // namespace

std::vector<std::string> notes_of(const Judgement& judgement) {
  Notes notes;
  sameness_notes(judgement, notes);
  runner_speed_note(judgement, notes);
  work_count_notes(judgement, notes);
  elapsed_only_rise_note(judgement, notes);
  sign_test_notes(judgement, notes);
  elapsed_left_out_notes(judgement, notes);
  elapsed_unavailable_note(judgement, notes);
  measurement_notes(judgement, notes);
  return notes;
}

}  // namespace wcp::verdict
