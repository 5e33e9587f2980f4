#pragma once
// The diagnosis as `measure` prints it under its report by default, so the two fit one screen
// together: the bottleneck, then what this user can do (Diagnosis::actions): the entry-point
// settings with their saving and the `levers` command that measures them, keeping the kernel
// cache with the warm run's figure, and each of their own finding groups in one line with its
// specific fact (the analysis's headline) and its short fix, or each member's where no one holds
// for all (a few members, the rest counted); then one line per package for the findings in code
// they do not own, how many mechanisms were ruled out and not checked, and where the rest is
// (`diagnose`, `--verbose`). Every line is at most render::kScreenColumns wide, wrapped
// between words: a name, a number or a path is never cut.
#include <iosfwd>
#include <string_view>

#include "analysis/finding.h"

namespace wcp::render {

// `saved_report`: where the command wrote the report (`--json`), so the pointer can name the
// `diagnose` call that shows more; empty when it wrote none.
void render_diagnosis_brief_text(const analysis::Diagnosis& diagnosis, std::string_view saved_report,
                                 std::ostream& out);

}  // namespace wcp::render
