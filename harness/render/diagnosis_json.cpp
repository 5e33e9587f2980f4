#include "render/diagnosis_json.h"

#include "io/json_fields.h"
#include "model/report_json.h"

namespace wcp::render {

namespace {

using nlohmann::json;

json identity_json(const ModuleIdentity& identity) {
  return json{{"module", identity.name},
              {"hash", identity.hash},
              {"device", identity.device},
              {"block_dim", json_fields::or_null(identity.block_dim)}};
}

json receipt_json(const OptionReceipt& receipt) {
  json reached = json::array();
  for (const auto& build : receipt.reached) {
    json item = identity_json(build.identity);
    item["rebuild"] = build.rebuild;
    reached.push_back(std::move(item));
  }
  json missed = json::array();
  for (const auto& miss : receipt.missed) {
    missed.push_back({{"module", miss.module},
                      {"reason", std::string(to_string(miss.reason))},
                      {"build", miss.build ? identity_json(*miss.build) : json(nullptr)},
                      {"held", miss.held},
                      {"by", json_fields::or_null(miss.by)},
                      {"created_at", json_fields::or_null(miss.created_at)},
                      {"elsewhere", miss.elsewhere},
                      {"kernels", miss.kernels},
                      {"dependency", miss.dependency}});
  }
  return json{{"write", receipt.write},
              {"repeats", receipt.repeats},
              {"outcome", std::string(to_string(receipt.outcome))},
              {"reached", reached},
              {"missed", missed},
              {"finding", receipt.finding ? json(std::string(code(*receipt.finding))) : json(nullptr)}};
}

}  // namespace

nlohmann::json diagnosis_to_json(const analysis::Diagnosis& diagnosis) {
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
  // null when the report has no option record: not recorded is not "no writes".
  json receipts = nullptr;
  if (diagnosis.option_receipts) {
    receipts = json::array();
    for (const auto& receipt : *diagnosis.option_receipts) receipts.push_back(receipt_json(receipt));
  }
  return json{{"bottleneck", diagnosis.bottleneck},
              {"compile_is_bottleneck", diagnosis.compile_is_bottleneck},
              {"findings", findings},
              {"ruled_out", ruled_out},
              {"not_checked", not_checked},
              {"facts", diagnosis.facts},
              {"option_receipts", receipts}};
}

}  // namespace wcp::render
