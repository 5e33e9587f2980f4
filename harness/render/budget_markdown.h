#pragma once
// `check --markdown`: a summary for a CI step summary or a PR comment. One table of every
// budget, failures first, then the offending modules of each failure.
#include <string>

#include "budget/budget_result.h"

namespace wcp::render {

std::string render_budget_markdown(const budget::CheckResult& result);

}  // namespace wcp::render
