#pragma once
// The results report (the seed's step 6): what a reviewer needs to accept a compile-time change.
// Before/after medians of both clocks with MADs and sample counts, the reduction, the residual
// compile cost sized against the whole cold start, which mechanisms the change fixed, which
// remain, which were ruled out and which the measurement never reached, the verdict and its
// reason, the ledger of options measured and not taken, the levers `levers` measured, and the
// per-identity build times and cold-run timelines the charts draw. Computed here; renderers only
// lay it out.
#include <optional>
#include <string>
#include <vector>

#include "analysis/finding.h"
#include "facts/cuda_build_ranking.h"
#include "model/lever_outcome.h"
#include "model/report.h"
#include "results/ledger.h"
#include "verdict/judge.h"

namespace wcp::results {

struct MechanismLine {
  Mechanism mechanism;
  std::string detail;  // the first piece of evidence, the signal that ruled it out, or why it was not checked
};

// One compiled identity and what it cost on each side (absent on a side that did not build it).
struct IdentityBar {
  std::string module;
  std::string hash;
  std::string device;
  std::optional<int> block_dim;
  std::optional<double> baseline_ms;
  std::optional<double> candidate_ms;
  bool built_pch = false;  // on either side this build also made the precompiled header
};

// A module build on the process's time axis (ms since the process started).
struct BuildSpan {
  std::string module;
  std::string hash;
  double start_ms = 0.0;
  double end_ms = 0.0;
  bool built_pch = false;
};

struct Timeline {
  std::vector<BuildSpan> spans;  // in start order
  double wall_ms = 0.0;          // the cold run, spawn to exit
  bool overlapped = false;       // some build started before the previous one ended
  std::string unavailable;       // why there is no timeline ("" when there is one)
};

// What compiling still costs after the change (the candidate's medians).
struct Residual {
  std::optional<double> module_ms;
  std::optional<double> elapsed_ms;
  std::optional<double> cold_wall_ms;
  std::optional<double> share;  // module work (or elapsed, when builds overlapped) / cold wall
};

struct ResultsReport {
  std::string baseline_command;
  std::string candidate_command;
  verdict::Judgement judgement;
  Residual residual;
  std::vector<MechanismLine> fixed;      // found before, not after
  std::vector<MechanismLine> remaining;  // found after
  std::vector<MechanismLine> ruled_out;  // checked after the change and ruled out
  std::vector<MechanismLine> not_reached;
  Ledger ledger;
  // The levers `levers` measured for this program (`report --levers`); absent when none was given.
  std::optional<LeverLedger> levers;
  std::vector<IdentityBar> identities;  // slowest first
  Timeline baseline_timeline;
  Timeline candidate_timeline;
  // The candidate's CUDA build ranked per arch (`--cuda-arch`); absent when it has none.
  std::optional<CudaBuildRanking> cuda_after;
};

ResultsReport build_results_report(const Report& baseline, const Report& candidate, const verdict::Judgement& judgement,
                                   const analysis::Diagnosis& before, const analysis::Diagnosis& after, Ledger ledger);

// The cold run of a report's first successful sample as build spans (exposed for tests).
Timeline cold_timeline(const Report& report);

}  // namespace wcp::results
