#pragma once
// A comparison (verdict::Judgement) as text: the workload check, both clocks with medians,
// MADs, sample counts, deltas in ms and percent and the noise band, the structure counts, the
// module hash table with changed rows marked, then the verdict, its reason and the notes.
#include <iosfwd>

#include "verdict/judge.h"

namespace wcp::render {

void render_judgement_text(const verdict::Judgement& judgement, std::ostream& out);

}  // namespace wcp::render
