#pragma once
// Test only: WCP_JUDGE_FAULT=<verdict> (invalid, regression, improved, inconclusive,
// unverified) makes every judgement of `compare` and `ab` give that verdict and its exit code,
// so the integration tests can prove that a judge which never credits a fix fails them
// (tests/integration/test_processes.py). Like the instrumentation's WCP_PROBE_FAULT it exists
// for tests alone; the CLI reads it once, at its boundary (cli/main.cpp).
#include <optional>

#include "io/environment.h"
#include "verdict/judge.h"

namespace wcp::verdict {

inline constexpr const char* kJudgeFaultVariable = "WCP_JUDGE_FAULT";

// nullopt when the variable is unset or empty; a value that names no verdict is a UsageError.
std::optional<Verdict> judge_fault(const EnvironmentLookup& environment);

}  // namespace wcp::verdict
