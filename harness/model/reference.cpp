#include "model/reference.h"

#include <cmath>

#include "io/name_table.h"

namespace wcp {

namespace {

constexpr NameTable<ReferenceKind, 2> kReferenceKindNames{
    {{ReferenceKind::warp_cpu, "warp_cpu"}, {ReferenceKind::nvrtc, "nvrtc"}}};

}  // namespace

std::string_view to_string(ReferenceKind kind) {
  return name_of(kReferenceKindNames, kind);
}

std::optional<ReferenceKind> reference_kind_from_string(std::string_view text) {
  return value_named(kReferenceKindNames, text);
}

std::optional<double> sample_cost(const ReferenceSample& sample) {
  if (sample.builds_ms.empty()) return std::nullopt;
  double total = 0.0;
  for (double build : sample.builds_ms) total += build;
  return total;
}

std::optional<Summary> reference_cost(const std::vector<ReferenceSample>& samples) {
  std::vector<double> costs;
  for (const auto& sample : samples) {
    if (const auto cost = sample_cost(sample)) costs.push_back(*cost);
  }
  return summarize(std::move(costs));
}

double reference_drift(double run_ms, double stored_ms) {
  return run_ms / stored_ms - 1.0;
}

bool drift_worth_a_warning(double drift) {
  return std::fabs(drift) >= kReferenceDriftWarning;
}

}  // namespace wcp
