#pragma once
// A comparison (verdict::Judgement) as text: the workload check, both clocks with medians,
// MADs, sample counts, deltas in ms and percent and the noise band, the structure counts, the
// module hash table with changed rows marked, then the verdict, its reason and the notes.
#include <iosfwd>

#include "verdict/judge.h"

namespace wcp::render {

void render_judgement_text(const verdict::Judgement& judgement, std::ostream& out);

// Only the structure part: the counts (baseline -> candidate) and the module hash table. Shared
// with `bisect`, which shows what changed between the first bad commit and its parent.
void render_structure(const verdict::Judgement& judgement, std::ostream& out);

// Per arch both sides compiled for CUDA: the output bytes and the kernel whose cost moved most.
void render_cuda_moves(const verdict::Judgement& judgement, std::ostream& out);

}  // namespace wcp::render
