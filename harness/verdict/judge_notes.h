#pragma once
// The notes a judgement carries beside its verdict: structure, the other clock, how each side
// was measured. They are read once the rules have decided, and none of them changes the verdict.
#include <string>
#include <vector>

#include "verdict/judge.h"

namespace wcp::verdict {

// Every note, in the order the texts print them: work counts, an elapsed-only rise, paired
// clocks the sign test held back, then how each side was measured.
std::vector<std::string> notes_of(const Judgement& judgement);

}  // namespace wcp::verdict
