#pragma once
// A baseline taken from a branch's recent runs in the history instead of a committed baseline
// file (`check --against-branch main`, issue 51): Conbench's "lookback" for a pull request.
//
// The runs that count: recorded on that branch, for the same command entry, on the same runner
// class and toolchain (GPU driver, Warp, CUDA, this tool's version), measured, and carrying
// their report (history layout 6). From the newest back, while their structure (identities per
// module, builds per module, warm compiles, LTO artifacts: history/structure.h) stays the
// newest's: a step on the branch ends the window, since older runs measured other work. At
// most `window` runs; fewer than `minimum` is "not enough", said with the count and never
// judged.
//
// The baseline is the newest run's report with its samples pooled with the others': its
// clocks summarise every sample of those runs, so their level is the branch's recent level and
// their spread is the spread between runs, not within one. Its launch record, identities and
// option record are the newest run's, so the workload is checked against it as against a file.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "history/history_result.h"
#include "model/report.h"

namespace wcp::history {

struct BranchQuery {
  std::string branch;
  std::string name;  // the budget entry's name, as check records it
  Machine machine;   // this runner, with its class; warp_version and cuda_toolkit from the run
  std::string tool_version;
  std::size_t window = 5;
  std::size_t minimum = 3;
};

struct BranchBaseline {
  std::optional<Report> baseline;   // absent when too few runs matched
  std::vector<const Result*> runs;  // the runs it pools, newest first
  std::string description;          // "the last 5 runs of main on <class> (abc1234..def5678)"
  std::string not_enough;           // why there is no baseline, with the count and what it needs; "" when there is one
};

// The query for a run measured by `report` on `machine` (this runner: its class; the report
// fills in Warp's and the toolkit's versions and the tool's).
BranchQuery branch_query_for(const Report& report, const Machine& machine, std::string branch, std::string name,
                             std::size_t window);

// `results` must outlive the answer (runs point into it). Throws UsageError when a run's stored
// report cannot be read.
BranchBaseline branch_baseline(const std::vector<Result>& results, const BranchQuery& query);

// The newest report with the clocks of all of them pooled sample by sample (in the order given).
Report pooled_report(const std::vector<Report>& reports);

}  // namespace wcp::history
