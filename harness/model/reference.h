#pragma once
// The machine reference a measurement was normalised by: a small fixed compile of the same
// backend, measured in the same run as the command, one reference sample after each command
// sample, so both see the same machine under the same load (docs/calibration.md#the-reference).
// Cold units are the command's cold module work divided by the reference cost of its own pair.
//
// Missing is not zero: a reference sample that failed has no cost, a command sample without a
// reference partner has no units, and a run without any has no units at all.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stats/summary.h"

namespace wcp {

enum class ReferenceKind {
  warp_cpu,  // generated Warp modules built by Warp's CPU backend (clang), for CPU workloads
  nvrtc,     // Warp-shaped CUDA modules compiled by NVRTC, for CUDA workloads (runs on the CPU)
};
std::string_view to_string(ReferenceKind kind);
std::optional<ReferenceKind> reference_kind_from_string(std::string_view text);

// One reference sample, taken right after command sample `after_sample`: the builds of one
// fixed piece of compile work, in order. Its cost is their sum — the whole piece, header build
// included, because compiles of different sizes slow down by different factors on a busy
// machine and a mix like a real program's tracks real programs best
// (docs/calibration.md#the-experiment-that-chose-it).
struct ReferenceSample {
  int after_sample = 0;
  std::vector<double> builds_ms;
  std::string failure;  // why it measured nothing (builds_ms is then empty)
  bool operator==(const ReferenceSample&) const = default;
};
std::optional<double> sample_cost(const ReferenceSample& sample);

struct MachineReference {
  ReferenceKind kind = ReferenceKind::warp_cpu;
  // Which reference build this is, e.g. "warp-cpu/pch/4x2-kernel-modules/v1": units are only
  // ever compared between references of the same name.
  std::string name;
  std::string description;  // plain words
  std::vector<ReferenceSample> samples;
  std::optional<Summary> cost_ms;     // over the samples' costs
  std::optional<Summary> cold_units;  // per sample pair: cold module work / that pair's reference cost
  std::string unavailable;            // why no reference was measured at all
  bool operator==(const MachineReference&) const = default;
};

// Median and MAD of the samples' costs; nullopt when none measured anything.
std::optional<Summary> reference_cost(const std::vector<ReferenceSample>& samples);

// How far this run's reference sits from a stored one: run / stored − 1 (0.4 = 40 % slower
// now). At or beyond kReferenceDriftWarning either way, the machine is busier or different
// from when it was calibrated, and the tool says so.
inline constexpr double kReferenceDriftWarning = 0.25;
double reference_drift(double run_ms, double stored_ms);
bool drift_worth_a_warning(double drift);

}  // namespace wcp
