#pragma once
// The words for why module identities moved between two runs (verdict/identity_changes.h), shared
// by every output that says it: compare's and ab's text (short and --verbose), their JSON's
// per-module summaries, and a `baseline:` budget's failure context in text, Markdown and CTest.
#include <cstddef>
#include <string>
#include <vector>

#include "verdict/identity_changes.h"

namespace wcp::render {

// "__main__@cpu: kernel integrate changed (content hash 1a2b3c4d -> 5e6f7a8b); first built by
// tests/test_solver.py::test_step": one module's change on one line.
std::string module_identity_change_text(const verdict::ModuleIdentityChange& module);

// One line per changed module, then the new modules grouped by who first built them, then the
// gone ones; at most `max_lines`, the last saying how many more there are. Empty when nothing moved.
std::vector<std::string> identity_change_lines(const verdict::IdentityChanges& changes, std::size_t max_lines);

// The whole delta in one line, for a budget failure's context: "+1 identity: solver@cpu (kernel
// integrate changed), first built by test_solver.py::test_step; new: 4 modules first built by ...".
std::string identity_changes_brief(const verdict::IdentityChanges& changes);

}  // namespace wcp::render
