#include "render/diagnosis_json.h"

#include "io/json_fields.h"

namespace wcp::render {

nlohmann::json diagnosis_to_json(const analysis::Diagnosis& diagnosis) {
  using nlohmann::json;
  json findings = json::array();
  for (const auto& finding : diagnosis.findings) {
    findings.push_back({{"id", std::string(code(finding.mechanism))},
                        {"title", std::string(info(finding.mechanism).title)},
                        {"module", finding.module},
                        {"evidence", finding.evidence},
                        {"fix", finding.fix},
                        {"limits", finding.limits},
                        {"doc", doc_link(finding.mechanism)},
                        {"cost_basis", finding.cost_basis},
                        {"cost_ms", json_fields::or_null(finding.cost_ms)}});
  }
  json ruled_out = json::array();
  for (const auto& entry : diagnosis.ruled_out) {
    ruled_out.push_back({{"id", std::string(code(entry.mechanism))}, {"signal", entry.signal}});
  }
  json not_checked = json::array();
  for (const auto& entry : diagnosis.not_checked) {
    not_checked.push_back({{"id", std::string(code(entry.mechanism))}, {"reason", entry.reason}});
  }
  return json{{"bottleneck", diagnosis.bottleneck},
              {"compile_is_bottleneck", diagnosis.compile_is_bottleneck},
              {"findings", findings},
              {"ruled_out", ruled_out},
              {"not_checked", not_checked},
              {"facts", diagnosis.facts}};
}

}  // namespace wcp::render
