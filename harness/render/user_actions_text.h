#pragma once
// What this user can do (analysis/user_actions.h) as text: each entry-point setting with its
// saving (an estimate says so) and the `levers` command that measures it, keeping the kernel
// cache with this run's warm figure, and one line per package for the findings in code the user
// does not own. The brief (`measure`'s screen) and the full diagnosis print these same lines.
// Every line is at most kScreenColumns wide, wrapped between words.
#include <iosfwd>

#include "analysis/user_actions.h"

namespace wcp::render {

// The settings and the cache, one item each ("  - ..."); nothing when there is neither. `full`
// adds each setting's modules and how its saving was estimated (the full diagnosis).
void render_entry_points_and_cache(const analysis::UserActions& actions, std::ostream& out, bool full = false);

// One line per package: "simlib 0.3.0: 3 findings for its maintainers; `diagnose` lists them".
void render_package_lines(const analysis::UserActions& actions, std::ostream& out);

}  // namespace wcp::render
