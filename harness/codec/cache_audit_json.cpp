#include "codec/cache_audit_json.h"

#include "codec/json_codec.h"

namespace wcp {
namespace {

json totals_to_json(const CacheAuditTotals& totals) {
  return json{{"dir_entries", totals.dir_entries},       {"dir_bytes", totals.dir_bytes},
              {"used_entries", totals.used_entries},     {"used_bytes", totals.used_bytes},
              {"unused_entries", totals.unused_entries}, {"unused_bytes", totals.unused_bytes},
              {"needed_entries", totals.needed_entries}, {"needed_bytes", totals.needed_bytes},
              {"hashless_used", totals.hashless_used},   {"not_audited_bytes", totals.not_audited_bytes}};
}

}  // namespace

json cache_audit_to_json(const CacheAudit& audit) {
  json entries = json::array();
  for (const auto& item : audit.entries) {
    entries.push_back({{"group", item.entry.group},
                       {"name", item.entry.name},
                       {"bytes", item.entry.bytes},
                       {"files", item.entry.files},
                       {"hashless", item.entry.hashless},
                       {"in_dir", item.in_dir},
                       {"read", item.read},
                       {"written", item.written},
                       {"after_bytes", item.after_bytes},
                       {"needed", item.needed()}});
  }
  json modules = json::array();
  for (const auto& module : audit.modules) {
    modules.push_back({{"name", module.identity.name},
                       {"hash", module.identity.hash},
                       {"device", module.identity.device},
                       {"block_dim", or_null(module.identity.block_dim)},
                       {"served", to_string(module.served)},
                       {"entry", module.entry},
                       {"hashless", module.hashless}});
  }
  json others = json::array();
  for (const auto& item : audit.not_audited) others.push_back({{"path", item.path}, {"bytes", item.bytes}});
  return json{{"dir", audit.dir},
              {"run_group", audit.run_group},
              {"copy",
               {{"strategy", audit.copy.strategy},
                {"files", audit.copy.files},
                {"bytes", audit.copy.bytes},
                {"reflinked_files", audit.copy.reflinked_files},
                {"ms", audit.copy.ms}}},
              {"pass_ok", audit.pass_ok},
              {"pass_failure", audit.pass_failure},
              {"pass_wall_ms", audit.pass_wall_ms},
              {"loads_observed", audit.loads_observed},
              {"unavailable", audit.unavailable},
              {"entries", entries},
              {"modules", modules},
              {"not_audited", others},
              {"prune_list", or_null(audit.prune_list)},
              // Missing is not zero: no totals from a pass that measured nothing.
              {"totals", audit.measured() ? totals_to_json(totals_of(audit)) : json(nullptr)}};
}

CacheAudit cache_audit_from_json(const json& in) {
  CacheAudit audit;
  audit.dir = get<std::string>(in, "dir", "");
  audit.run_group = get<std::string>(in, "run_group", "");
  if (const auto copy = in.find("copy"); copy != in.end() && copy->is_object()) {
    audit.copy.strategy = get<std::string>(*copy, "strategy", "");
    audit.copy.files = get<std::uint64_t>(*copy, "files", 0);
    audit.copy.bytes = get<std::uint64_t>(*copy, "bytes", 0);
    audit.copy.reflinked_files = get<std::uint64_t>(*copy, "reflinked_files", 0);
    audit.copy.ms = get<double>(*copy, "ms", 0.0);
  }
  audit.pass_ok = get<bool>(in, "pass_ok", false);
  audit.pass_failure = get<std::string>(in, "pass_failure", "");
  audit.pass_wall_ms = get<double>(in, "pass_wall_ms", 0.0);
  audit.loads_observed = get<bool>(in, "loads_observed", false);
  audit.unavailable = get<std::string>(in, "unavailable", "");
  json_fields::each(in, "entries", [&](const json& item, std::size_t) {
    AuditedEntry entry;
    entry.entry = {get<std::string>(item, "group", ""), get<std::string>(item, "name", ""),
                   get<std::uint64_t>(item, "bytes", 0), get<std::uint64_t>(item, "files", 0),
                   get<bool>(item, "hashless", false)};
    entry.in_dir = get<bool>(item, "in_dir", false);
    entry.read = get<bool>(item, "read", false);
    entry.written = get<bool>(item, "written", false);
    entry.after_bytes = get<std::uint64_t>(item, "after_bytes", 0);
    audit.entries.push_back(std::move(entry));
  });
  json_fields::each(in, "modules", [&](const json& item, std::size_t) {
    ServedModule module;
    module.identity = {get<std::string>(item, "name", ""), get<std::string>(item, "hash", ""),
                       get<std::string>(item, "device", ""), get_optional<int>(item, "block_dim")};
    const std::string served = get<std::string>(item, "served", "compiled");
    const auto parsed = served_by_from_string(served);
    if (!parsed) throw FieldError("unknown value of 'served': '" + served + "'");
    module.served = *parsed;
    module.entry = get<std::string>(item, "entry", "");
    module.hashless = get<bool>(item, "hashless", false);
    audit.modules.push_back(std::move(module));
  });
  json_fields::each(in, "not_audited", [&](const json& item, std::size_t) {
    audit.not_audited.push_back({get<std::string>(item, "path", ""), get<std::uint64_t>(item, "bytes", 0)});
  });
  audit.prune_list = get_optional<std::string>(in, "prune_list");
  return audit;
}

}  // namespace wcp
