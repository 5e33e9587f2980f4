#include "render/diagnosis_text.h"

#include <fmt/format.h>

#include <ostream>

namespace wcp::render {
namespace {

void render_finding(const analysis::Finding& finding, std::ostream& out) {
  out << fmt::format("\n[{}] {}\n", finding.id, finding.title);
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
  out << "    see: " << finding.doc << '\n';
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
  if (!diagnosis.facts.empty()) {
    out << "\nFacts\n";
    for (const auto& fact : diagnosis.facts) out << "  " << fact << '\n';
  }
  if (!diagnosis.ruled_out.empty()) {
    out << "\nChecked and ruled out\n";
    for (const auto& entry : diagnosis.ruled_out) out << fmt::format("  {:<16} {}\n", entry.id, entry.signal);
  }
  if (!diagnosis.not_checked.empty()) {
    out << "\nNot checked in this run\n";
    for (const auto& entry : diagnosis.not_checked) out << fmt::format("  {:<16} {}\n", entry.id, entry.reason);
  }
}

nlohmann::json diagnosis_to_json(const analysis::Diagnosis& diagnosis) {
  using nlohmann::json;
  json findings = json::array();
  for (const auto& finding : diagnosis.findings) {
    json item{{"id", finding.id},         {"title", finding.title},
              {"module", finding.module}, {"evidence", finding.evidence},
              {"fix", finding.fix},       {"limits", finding.limits},
              {"doc", finding.doc},       {"cost_basis", finding.cost_basis}};
    item["cost_ms"] = finding.cost_ms ? json(*finding.cost_ms) : json(nullptr);
    findings.push_back(std::move(item));
  }
  json ruled_out = json::array();
  for (const auto& entry : diagnosis.ruled_out) ruled_out.push_back({{"id", entry.id}, {"signal", entry.signal}});
  json not_checked = json::array();
  for (const auto& entry : diagnosis.not_checked) not_checked.push_back({{"id", entry.id}, {"reason", entry.reason}});
  return json{{"bottleneck", diagnosis.bottleneck},
              {"compile_is_bottleneck", diagnosis.compile_is_bottleneck},
              {"findings", findings},
              {"ruled_out", ruled_out},
              {"not_checked", not_checked},
              {"facts", diagnosis.facts}};
}

}  // namespace wcp::render
