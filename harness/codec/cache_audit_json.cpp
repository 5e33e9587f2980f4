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

json strings_to_json(const std::vector<std::string>& values) {
  json out = json::array();
  for (const auto& value : values) out.push_back(value);
  return out;
}

std::vector<std::string> strings_from_json(const json& in, const char* field) {
  std::vector<std::string> values;
  json_fields::each(in, field, [&](const json& item, std::size_t) {
    if (!item.is_string()) throw FieldError(std::string("'") + field + "' holds a value that is not a string");
    values.push_back(item.get<std::string>());
  });
  return values;
}

json miss_to_json(const CacheMiss& miss) {
  json closest = json::array();
  for (const auto& difference : miss.closest) {
    json options = json::array();
    for (const auto& change : difference.options) {
      options.push_back({{"option", change.option}, {"entry", change.entry}, {"build", change.build}});
    }
    closest.push_back({{"entry", difference.entry},
                       {"kernels_changed", strings_to_json(difference.kernels_changed)},
                       {"kernels_added", strings_to_json(difference.kernels_added)},
                       {"kernels_removed", strings_to_json(difference.kernels_removed)},
                       {"kernels_identical", strings_to_json(difference.kernels_identical)},
                       {"functions_changed", strings_to_json(difference.functions_changed)},
                       {"shared_code_differs", difference.shared_code_differs},
                       {"options", options},
                       {"unreadable", difference.unreadable}});
  }
  return json{{"cause", to_string(miss.cause)},
              {"build_entry", miss.build_entry},
              {"same_name_entries", miss.same_name_entries},
              {"other_version_entries", miss.other_version_entries},
              {"closest", closest},
              {"detail", miss.detail}};
}

CacheMiss miss_from_json(const json& in) {
  CacheMiss miss;
  const std::string cause = get<std::string>(in, "cause", "unexplained");
  const auto parsed = miss_cause_from_string(cause);
  if (!parsed) throw FieldError("unknown value of 'cause': '" + cause + "'");
  miss.cause = *parsed;
  miss.build_entry = get<std::string>(in, "build_entry", "");
  miss.same_name_entries = get<std::size_t>(in, "same_name_entries", 0);
  miss.other_version_entries = get<std::size_t>(in, "other_version_entries", 0);
  json_fields::each(in, "closest", [&](const json& item, std::size_t) {
    EntryDifference difference;
    difference.entry = get<std::string>(item, "entry", "");
    difference.kernels_changed = strings_from_json(item, "kernels_changed");
    difference.kernels_added = strings_from_json(item, "kernels_added");
    difference.kernels_removed = strings_from_json(item, "kernels_removed");
    difference.kernels_identical = strings_from_json(item, "kernels_identical");
    difference.functions_changed = strings_from_json(item, "functions_changed");
    difference.shared_code_differs = get<bool>(item, "shared_code_differs", false);
    json_fields::each(item, "options", [&](const json& option, std::size_t) {
      difference.options.push_back({get<std::string>(option, "option", ""), get<std::string>(option, "entry", ""),
                                    get<std::string>(option, "build", "")});
    });
    difference.unreadable = get<std::string>(item, "unreadable", "");
    miss.closest.push_back(std::move(difference));
  });
  miss.detail = get<std::string>(in, "detail", "");
  return miss;
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
                       {"hashless", module.hashless},
                       {"miss", module.miss ? miss_to_json(*module.miss) : json(nullptr)}});
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
    if (const auto miss = item.find("miss"); miss != item.end() && miss->is_object()) {
      module.miss = miss_from_json(*miss);
    }
    audit.modules.push_back(std::move(module));
  });
  json_fields::each(in, "not_audited", [&](const json& item, std::size_t) {
    audit.not_audited.push_back({get<std::string>(item, "path", ""), get<std::uint64_t>(item, "bytes", 0)});
  });
  audit.prune_list = get_optional<std::string>(in, "prune_list");
  return audit;
}

}  // namespace wcp
