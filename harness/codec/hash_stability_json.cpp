#include "codec/hash_stability_json.h"

#include "codec/json_codec.h"

namespace wcp {

json hash_stability_to_json(const HashStability& stability) {
  json passes = json::array();
  for (const auto& pass : stability.passes) {
    passes.push_back({{"name", pass.name},
                      {"seed", pass.seed},
                      {"relocated", pass.relocated},
                      {"ok", pass.ok},
                      {"wall_ms", pass.wall_ms},
                      {"failure", pass.failure},
                      {"identities", or_null(pass.identities)}});
  }
  json modules = json::array();
  for (const auto& module : stability.modules) {
    modules.push_back({{"module", module.module},
                       {"cause", to_string(module.cause)},
                       {"evidence", module.evidence},
                       {"fixed_in_warp", module.fixed_in_warp.empty() ? json(nullptr) : json(module.fixed_in_warp)}});
  }
  return json{
      {"trigger", stability.trigger},
      {"varied", stability.varied},
      {"stable", or_null(stability.stable)},
      {"cost_ms", stability.cost_ms},
      {"passes", passes},
      {"relocated_to", stability.relocated_to.empty() ? json(nullptr) : json(stability.relocated_to)},
      {"relocation_skipped", stability.relocation_skipped.empty() ? json(nullptr) : json(stability.relocation_skipped)},
      {"copied_bytes", or_null(stability.copied_bytes)},
      {"original_path_files", stability.original_path_files},
      {"modules", modules}};
}

HashStability hash_stability_from_json(const json& in) {
  HashStability stability;
  stability.trigger = get<std::string>(in, "trigger", "");
  stability.varied = get<std::vector<std::string>>(in, "varied", {});
  stability.stable = get_optional<bool>(in, "stable");
  stability.cost_ms = get<double>(in, "cost_ms", 0.0);
  stability.relocated_to = get<std::string>(in, "relocated_to", "");
  stability.relocation_skipped = get<std::string>(in, "relocation_skipped", "");
  stability.copied_bytes = get_optional<double>(in, "copied_bytes");
  stability.original_path_files = get<std::vector<std::string>>(in, "original_path_files", {});
  json_fields::each(in, "passes", [&](const json& item, std::size_t) {
    HashExperimentPass pass;
    pass.name = get<std::string>(item, "name", "");
    pass.seed = get<std::string>(item, "seed", "");
    pass.relocated = get<bool>(item, "relocated", false);
    pass.ok = get<bool>(item, "ok", false);
    pass.wall_ms = get<double>(item, "wall_ms", 0.0);
    pass.failure = get<std::string>(item, "failure", "");
    pass.identities = get_optional<std::vector<std::string>>(item, "identities");
    stability.passes.push_back(std::move(pass));
  });
  json_fields::each(in, "modules", [&](const json& item, std::size_t) {
    ModuleHashStability module;
    module.module = get<std::string>(item, "module", "");
    const std::string cause = get<std::string>(item, "cause", "stable");
    const auto parsed = hash_cause_from_string(cause);
    if (!parsed) throw FieldError("unknown hash cause '" + cause + "'");
    module.cause = *parsed;
    module.evidence = get<std::vector<std::string>>(item, "evidence", {});
    module.fixed_in_warp = get<std::string>(item, "fixed_in_warp", "");
    stability.modules.push_back(std::move(module));
  });
  return stability;
}

}  // namespace wcp
