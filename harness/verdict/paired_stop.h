#pragma once
// `ab --samples auto` (docs/measurement.md#samples-auto): after each pair, do the pairs so far
// decide? They do when the paired judgement is a verdict (INVALID, REGRESSION, IMPROVED,
// UNVERIFIED), or when the sequential test on the pairs' ratios rules out a change of
// kSmallestRegression or more either way. Pure: the CLI stops measuring on it.
#include <string>

#include "model/report.h"
#include "verdict/judge.h"

namespace wcp::verdict {

struct PairsDecision {
  bool decided = false;
  std::string how;  // "decided after 5 pairs: IMPROVED …", "3 pairs: no change of 10 % …"
};

PairsDecision decide_pairs(const Judgement& judgement, const Report& baseline, const Report& candidate);

}  // namespace wcp::verdict
