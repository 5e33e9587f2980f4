#include "codec/test_attribution_json.h"

#include "codec/json_codec.h"

namespace wcp {
namespace {

json tested_identity_to_json(const ModuleIdentity& identity) {
  return json{{"name", identity.name},
              {"hash", identity.hash},
              {"device", identity.device},
              {"block_dim", or_null(identity.block_dim)}};
}

ModuleIdentity tested_identity_from_json(const json& in) {
  return {get<std::string>(in, "name", ""), get<std::string>(in, "hash", ""), get<std::string>(in, "device", ""),
          get_optional<int>(in, "block_dim")};
}

json suite_phase_to_json(const std::optional<TestPhase>& phase) {
  return phase ? json(to_string(*phase)) : json(nullptr);
}

std::optional<TestPhase> suite_phase_from_json(const json& in, const char* field) {
  const auto text = get_optional<std::string>(in, field);
  if (!text) return std::nullopt;
  const auto phase = test_phase_from_string(*text);
  if (!phase) throw FieldError(std::string("unknown value of '") + field + "': '" + *text + "'");
  return phase;
}

}  // namespace

json test_attribution_to_json(const std::optional<std::vector<TestCompileCost>>& tests) {
  if (!tests) return json(nullptr);
  json out = json::array();
  for (const auto& row : *tests) {
    json first_built = json::array();
    for (const auto& identity : row.first_built) first_built.push_back(tested_identity_to_json(identity));
    json rebuilt = json::array();
    for (const auto& rebuild : row.rebuilt) {
      rebuilt.push_back({{"identity", tested_identity_to_json(rebuild.identity)},
                         {"earlier", tested_identity_to_json(rebuild.earlier)},
                         {"earlier_test", rebuild.earlier_test},
                         {"earlier_suite_phase", suite_phase_to_json(rebuild.earlier_suite_phase)}});
    }
    out.push_back({{"id", row.id},
                   {"suite_phase", suite_phase_to_json(row.suite_phase)},
                   {"builds", row.builds},
                   {"cold_module_ms", row.cold_module_ms},
                   {"first_built", first_built},
                   {"rebuilt", rebuilt}});
  }
  return out;
}

std::optional<std::vector<TestCompileCost>> test_attribution_from_json(const json& document) {
  const auto found = document.find("tests");
  if (found == document.end() || found->is_null()) return std::nullopt;  // null, or a report before schema 11
  if (!found->is_array()) throw FieldError("'tests' is not an array");
  std::vector<TestCompileCost> tests;
  json_fields::each(document, "tests", [&](const json& item, std::size_t) {
    TestCompileCost row;
    row.id = get<std::string>(item, "id", "");
    row.suite_phase = suite_phase_from_json(item, "suite_phase");
    row.builds = get<int>(item, "builds", 0);
    row.cold_module_ms = get<double>(item, "cold_module_ms", 0.0);
    json_fields::each(item, "first_built", [&](const json& identity, std::size_t) {
      row.first_built.push_back(tested_identity_from_json(identity));
    });
    json_fields::each(item, "rebuilt", [&](const json& rebuild, std::size_t) {
      TestRebuild entry;
      if (const auto identity = rebuild.find("identity"); identity != rebuild.end() && identity->is_object())
        entry.identity = tested_identity_from_json(*identity);
      if (const auto earlier = rebuild.find("earlier"); earlier != rebuild.end() && earlier->is_object())
        entry.earlier = tested_identity_from_json(*earlier);
      entry.earlier_test = get<std::string>(rebuild, "earlier_test", "");
      entry.earlier_suite_phase = suite_phase_from_json(rebuild, "earlier_suite_phase");
      row.rebuilt.push_back(std::move(entry));
    });
    tests.push_back(std::move(row));
  });
  return tests;
}

}  // namespace wcp
