#pragma once
// Judging in reference units, so a baseline recorded on one machine still means something on
// another. When both reports carry a reference measured in their own run, of the same name
// (model/reference.h), every successful sample's timings (module work, walls, hence compile
// elapsed) are divided by the reference cost of that sample's own pair and multiplied by the
// baseline's median reference cost: the figures become "milliseconds on the baseline's machine
// as it was", and judge() then runs unchanged. A constant factor changes no verdict, so this
// is the same as judging in units, with the bands and deltas still readable as milliseconds.
#include <optional>
#include <string>

#include "model/report.h"
#include "verdict/judge.h"

namespace wcp::verdict {

struct ReferenceScaling {
  Report baseline;
  Report candidate;
  double baseline_reference_ms = 0.0;   // the scale both sides are expressed in
  double candidate_reference_ms = 0.0;  // the candidate's median reference, for the reader
};

// nullopt, with `why_not`, when the two cannot be put on one scale: a side without a reference
// cost, different references, or a successful sample without a reference partner.
std::optional<ReferenceScaling> scale_to_baseline_reference(const Report& baseline, const Report& candidate,
                                                            std::string& why_not);

// judge() on the scaled reports when scaling is possible (a note says so and gives both
// references), else judge() on the reports as they are, with a note saying why not when either
// side had a reference at all.
Judgement judge_normalised(const Report& baseline, const Report& candidate, const JudgeOptions& options = {});

}  // namespace wcp::verdict
