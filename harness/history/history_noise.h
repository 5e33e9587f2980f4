#pragma once
// How noisy one run of a command is, learnt from the history (docs/measurement.md#noise): the
// spread of earlier runs of the same command on the same machine. A verdict on one or two new
// samples has no spread of its own to weigh a change against; the runs before it do, as long as
// they timed the same thing — the same command, machine, Warp, toolkit and tool — and each is
// compared only with runs of the same compiled code, so a real change of level between commits
// is not taken for noise.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "history/history_location.h"
#include "history/history_result.h"
#include "model/report.h"
#include "stats/noise.h"

namespace wcp::history {

// Which earlier results speak for a command's noise.
struct NoiseQuery {
  std::vector<std::string> argv;  // the command, as results record it
  std::string cwd;
  Machine machine;           // this machine, with the report's warp_version / cuda_toolkit
  std::string tool_version;  // results with another (or an unknown) tool version are left out
  // Whose spread: the wall clock of cold module work, or its CPU clock (issue 49). Each clock's
  // noise comes from its own values only: load inflates the wall's, not the CPU's.
  bool cpu_clock = false;
};

// The query for the command `report` ran, on `machine` (history/machine.h's current_machine).
// Warp's version and the CUDA toolkit come from the report where `machine` does not know them.
NoiseQuery noise_query_for(const Report& report, const Machine& machine);

// The spread of one run's cold module work over earlier measured results of the same command
// (same argv and cwd), the same machine key (host, CPU, GPU, driver; Warp version and CUDA
// toolkit equal, unknown never matches) and the same known tool version.
//
// Results are grouped by identity set (the same compiled code; a result without one is a group
// of its own). Each group's values (a result's per-sample cold module work, or its median when
// the samples were not kept) are taken relative to the group's median, and the relative MAD of
// all those pooled ratios is the noise; a group with fewer than 2 values contributes nothing.
// nullopt unless at least kMinimumNoiseSamples results contribute.
std::optional<Noise> noise_from_history(const std::vector<Result>& results, const NoiseQuery& query);

// Opens the history read-only (never migrating it) and asks it. nullopt when the file does not
// exist yet or holds no results; a refused file throws HistoryError, as it does for recording.
std::optional<Noise> noise_from_history_at(const HistoryLocation& location, const NoiseQuery& query);

}  // namespace wcp::history
