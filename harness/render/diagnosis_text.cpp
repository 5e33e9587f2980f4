#include "render/diagnosis_text.h"

#include <fmt/format.h>

#include <ostream>

#include "render/option_receipts_text.h"

namespace wcp::render {
namespace {

void render_finding(const analysis::Finding& finding, std::ostream& out) {
  out << fmt::format("\n[{}] {}\n", code(finding.mechanism), info(finding.mechanism).title);
  for (const auto& line : finding.evidence) out << "    - " << line << '\n';
  if (finding.cost_ms) {
    out << fmt::format("    cost: {:.0f} ms", *finding.cost_ms);
    if (!finding.cost_basis.empty()) out << " (" << finding.cost_basis << ")";
    out << '\n';
  } else if (!finding.cost_basis.empty()) {
    out << "    cost: " << finding.cost_basis << '\n';
  }
  out << "    fix: " << finding.fix << '\n';
  if (!finding.limits.empty()) out << "    limits: " << finding.limits << '\n';
  out << "    see: " << doc_link(finding.mechanism) << '\n';
}

}  // namespace

void render_diagnosis_text(const analysis::Diagnosis& diagnosis, std::ostream& out) {
  out << "\nDiagnosis\n";
  out << "  " << diagnosis.bottleneck << '\n';
  if (diagnosis.findings.empty()) {
    out << "  No compile-cost mechanism found.\n";
  } else {
    out << fmt::format("  {} finding(s):\n", diagnosis.findings.size());
    for (const auto& finding : diagnosis.findings) render_finding(finding, out);
  }
  if (diagnosis.option_receipts) render_option_receipts_text(*diagnosis.option_receipts, out);
  if (!diagnosis.facts.empty()) {
    out << "\nFacts\n";
    for (const auto& fact : diagnosis.facts) out << "  " << fact << '\n';
  }
  if (!diagnosis.ruled_out.empty()) {
    out << "\nChecked and ruled out\n";
    for (const auto& entry : diagnosis.ruled_out) out << fmt::format("  {:<20} {}\n", code(entry.mechanism), entry.signal);
  }
  if (!diagnosis.not_checked.empty()) {
    out << "\nNot checked in this run\n";
    for (const auto& entry : diagnosis.not_checked) out << fmt::format("  {:<20} {}\n", code(entry.mechanism), entry.reason);
  }
}

}  // namespace wcp::render
