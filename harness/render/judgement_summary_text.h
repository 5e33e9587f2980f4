#pragma once
// A comparison on one screen (`compare`'s default): the verdict and its reason first, both
// clocks on a line each, the workload, the counts that changed, how many module hashes and
// options differ; the tables, each option write and the notes stay in the full text (--verbose).
#include <iosfwd>

#include "verdict/judge.h"

namespace wcp::render {

void render_judgement_summary_text(const verdict::Judgement& judgement, std::ostream& out);

}  // namespace wcp::render
