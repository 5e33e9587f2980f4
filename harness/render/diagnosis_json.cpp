#include "render/diagnosis_json.h"

#include <array>

#include "codec/report_json.h"
#include "io/json_fields.h"
#include "render/finding_text.h"

namespace wcp::render {
namespace {

using json_fields::or_null;
using nlohmann::json;

json identity_json(const ModuleIdentity& identity) {
  return json{{"module", identity.name},
              {"hash", identity.hash},
              {"device", identity.device},
              {"block_dim", or_null(identity.block_dim)}};
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
                      {"by", or_null(miss.by)},
                      {"created_at", or_null(miss.created_at)},
                      {"elsewhere", miss.elsewhere},
                      {"kernels", miss.kernels},
                      {"registered_kernels", miss.registered_kernels},
                      {"dependency", miss.dependency}});
  }
  return json{{"write", receipt.write},
              {"repeats", receipt.repeats},
              {"outcome", std::string(to_string(receipt.outcome))},
              {"reached", reached},
              {"missed", missed},
              {"finding", receipt.finding ? json(std::string(code(*receipt.finding))) : json(nullptr)}};
}

json owner_to_json(const ModuleOwnership& owner) {
  json out{{"owner", std::string(to_string(owner.owner))},
           {"describe", owner.describe()},
           {"yours_to_change", owner.users_to_change()},
           {"from_snapshot", owner.from_snapshot},
           {"generated", owner.generated},
           {"generated_by", owner.generated_by},
           {"python_module", owner.python_module},
           {"package", nullptr}};
  if (owner.package) out["package"] = json{{"name", owner.package->name}, {"version", owner.package->version}};
  if (owner.generator) out["generator"] = std::string(to_string(*owner.generator));
  return out;
}

json usage_to_json(const ModuleUse& module) {
  json kernels = json::array();
  for (const auto& kernel : module.kernels) {
    kernels.push_back({{"key", kernel.key},
                       {"file", kernel.file},
                       {"line", kernel.line},
                       {"launched", kernel.launched},
                       {"launched_adjoint", kernel.launched_adjoint},
                       {"backward_generated", kernel.backward_generated},
                       {"forward_bytes", or_null(kernel.forward_bytes)},
                       {"backward_bytes", or_null(kernel.backward_bytes)}});
  }
  return {{"module", module.name},
          {"device", module.device},
          {"builds", module.builds},
          {"build_ms", module.build_ms},
          {"built_pch", module.built_pch},
          {"kernels_compiled", module.kernels.size()},
          {"kernels_launched", module.launched()},
          {"kernels_launched_adjoint", module.launched_adjoint()},
          {"kernels_never_launched", module.never_launched()},
          {"source_bytes", or_null(module.source_bytes)},
          {"never_launched_source_share", or_null(module.unlaunched_share)},
          {"never_launched_ms_estimate", or_null(module.unlaunched_ms)},
          {"kernels", kernels}};
}

json boundaries_to_json(const analysis::BoundaryProposal& proposal) {
  json modules = json::array();
  for (const auto& module : proposal.modules) {
    modules.push_back({{"name", module.name},
                       {"launched", module.launched},
                       {"distinct_options", module.distinct_options},
                       {"devices", module.devices},
                       {"block_dim", or_null(module.block_dim)},
                       {"varying_block_dim", module.varying_block_dim},
                       {"kernels", module.kernels},
                       {"from_modules", module.from_modules},
                       {"builds", module.builds},
                       {"estimated_ms", or_null(module.estimated_ms)}});
  }
  json unmovable = json::array();
  for (const auto& module : proposal.unmovable) {
    unmovable.push_back({{"module", module.module}, {"owner", module.owner}, {"reason", module.reason}});
  }
  return {{"changes", proposal.changes},
          {"current_modules", proposal.current_modules},
          {"current_builds", proposal.current_builds},
          {"current_ms", proposal.current_ms},
          {"proposed_modules", modules},
          {"proposed_builds", proposal.proposed_builds},
          {"proposed_ms_estimate", or_null(proposal.proposed_ms)},
          {"builds_removed", proposal.builds_removed()},
          {"ms_removed_estimate", or_null(proposal.ms_removed())},
          {"unmovable", unmovable},
          {"basis", proposal.basis},
          {"notes", proposal.notes}};
}

json text_or_null(const std::string& text) {
  return text.empty() ? json(nullptr) : json(text);
}

json site_json(const std::optional<analysis::SourceSite>& site) {
  if (!site) return nullptr;
  return {{"file", site->file}, {"line", site->line}, {"function", text_or_null(site->function)}};
}

json kernels_json(const std::vector<analysis::KernelFact>& kernels) {
  json out = json::array();
  for (const auto& kernel : kernels) out.push_back({{"name", kernel.name}, {"site", site_json(kernel.site)}});
  return out;
}

json options_json(const std::vector<analysis::OptionChange>& options) {
  json out = json::array();
  for (const auto& option : options) {
    out.push_back({{"option", option.option},
                   {"before", or_null(option.before)},
                   {"after", or_null(option.after)},
                   {"site", site_json(option.site)}});
  }
  return out;
}

json identity_facts_json(const std::vector<analysis::IdentityFact>& identities) {
  json out = json::array();
  for (const auto& identity : identities) {
    out.push_back({{"module", identity.module},
                   {"hash", identity.hash},
                   {"device", identity.device},
                   {"processes", identity.processes > 0 ? json(identity.processes) : json(nullptr)}});
  }
  return out;
}

json deadline_json(const analysis::SettingDeadline& deadline) {
  static constexpr std::array<std::string_view, 3> kKinds{"entry-script-line", "kernel-definition", "runner-session"};
  return {{"kind", kKinds.at(static_cast<std::size_t>(deadline.kind))},
          {"before", {{"file", deadline.before.file}, {"line", deadline.before.line}}},
          {"module", deadline.module},
          {"users_code", deadline.users_code},
          {"session_setup", or_null(deadline.session_setup)},
          {"test_file", or_null(deadline.test_file)}};
}

json fix_json(const analysis::FixAction& fix) {
  json settings = json::array();
  for (const auto& setting : fix.settings) {
    settings.push_back(
        {{"key", setting.key},
         {"value", setting.value},
         {"deadline",
          fix.kind == analysis::FixKind::set_before_deadline ? deadline_json(setting.deadline) : json(nullptr)}});
  }
  return {{"action", std::string(to_string(fix.kind))},
          {"kernels", kernels_json(fix.kernels)},
          {"options", options_json(fix.options)},
          {"names", fix.names},
          {"site", site_json(fix.site)},
          {"python_module", text_or_null(fix.python_module)},
          {"package", text_or_null(fix.package)},
          {"settings", settings}};
}

// The finding's typed facts (analysis/finding_facts.h): what a program reads instead of the text.
json facts_json(const analysis::Finding& finding) {
  const analysis::FindingFacts& facts = finding.facts;
  const analysis::FixAction& fix = facts.fix;
  const analysis::CostFact cost = finding.cost();
  return {{"event", std::string(to_string(facts.event))},
          {"kernels", kernels_json(facts.kernels)},
          {"options", options_json(facts.options)},
          {"names", facts.names},
          {"block_dims", facts.block_dims},
          {"modules", facts.modules},
          {"identities", identity_facts_json(facts.identities)},
          {"more_rebuilds", facts.more_rebuilds},
          {"cause", std::string(to_string(finding.cause))},
          {"cost", {{"kind", std::string(to_string(cost.kind))}, {"ms", or_null(cost.ms)}, {"basis", cost.basis}}},
          {"fix", fix_json(fix)}};
}

json group_to_json(const analysis::FindingGroup& group, const std::vector<analysis::Finding>& findings) {
  const GroupText text = finding_group_text(group, findings);
  json members = json::array();
  for (const auto& member : group.members) {
    members.push_back({{"finding", member.finding},
                       {"module", member.module},
                       {"cost_ms", or_null(member.cost_ms)},
                       {"cost_is_estimate", member.cost_estimated},
                       {"fix_values", member.fix_values},
                       {"modules", member.modules},
                       {"headline", headline_text(findings.at(member.finding))},
                       {"short_fix", short_fix_text(findings.at(member.finding))}});
  }
  return {{"id", std::string(code(group.mechanism))},
          {"title", std::string(info(group.mechanism).title)},
          {"owner", group.owner ? owner_to_json(*group.owner) : json(nullptr)},
          {"yours", group.yours()},
          {"fix", group.fix},
          {"fixes_agree", group.fixes_agree},
          {"headline", text.headline},
          {"short_fix", text.short_fix},
          {"cause", std::string(to_string(group.cause))},
          {"members", members},
          {"total_cost_ms", or_null(group.total_cost_ms)},
          {"costs_unknown", group.costs_unknown},
          {"cost_is_estimate", group.cost_estimated},
          {"cost_basis", group.cost_basis}};
}

// What the user can do (analysis/user_actions.h); an unknown saving is null, never 0.
json actions_to_json(const analysis::UserActions& actions) {
  json settings = json::array();
  for (const auto& setting : actions.settings) {
    settings.push_back({{"lever", setting.lever},
                        {"setting", setting.setting},
                        {"advice", fix_action_text(setting.advice)},
                        {"advice_facts", fix_json(setting.advice)},
                        {"modules", setting.modules},
                        {"saving_ms", or_null(setting.saving_ms)},
                        {"saving_is_estimate", setting.saving_estimated},
                        {"modules_priced", setting.modules_priced},
                        {"saving_basis", setting.saving_basis},
                        {"condition", setting.condition}});
  }
  json packages = json::array();
  for (const auto& package : actions.packages) {
    packages.push_back({{"package", package.package}, {"findings", package.findings}, {"groups", package.groups}});
  }
  json keep_cache = nullptr;
  if (actions.keep_cache) {
    keep_cache = {{"cold_wall_ms", actions.keep_cache->cold_wall_ms},
                  {"warm_wall_ms", actions.keep_cache->warm_wall_ms}};
  }
  return {{"things_to_do", actions.things_to_do()},
          {"entry_point_settings", settings},
          {"keep_cache", keep_cache},
          {"own_groups", actions.own_groups},
          {"packages", packages},
          {"levers_command", actions.levers_command}};
}

}  // namespace

nlohmann::json diagnosis_to_json(const analysis::Diagnosis& diagnosis) {
  json findings = json::array();
  for (const auto& finding : diagnosis.findings) {
    findings.push_back({{"id", std::string(code(finding.mechanism))},
                        {"title", std::string(info(finding.mechanism).title)},
                        {"module", finding.module},
                        {"modules", finding.modules},
                        {"owner", finding.owner ? owner_to_json(*finding.owner) : json(nullptr)},
                        {"yours", finding.yours()},
                        {"trigger", finding.trigger},
                        {"evidence", finding.evidence},
                        {"fix", fix_text(finding)},
                        {"headline", headline_text(finding)},
                        {"short_fix", short_fix_text(finding)},
                        {"facts", facts_json(finding)},
                        {"cause", std::string(to_string(finding.cause))},
                        {"fix_changes_behaviour", finding.fix_effect == FixEffect::changes_behaviour},
                        {"fix_behaviour", finding.behaviour},
                        {"limits", finding.limits},
                        {"doc", doc_link(finding.mechanism)},
                        {"cost_basis", finding.cost_basis},
                        {"cost_ms", or_null(finding.cost_ms)},
                        {"cost_is_estimate", finding.cost_estimated}});
  }
  json groups = json::array();
  for (const auto& group : diagnosis.finding_groups) groups.push_back(group_to_json(group, diagnosis.findings));
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
  json usage = json::array();
  for (const auto& module : diagnosis.kernel_usage) usage.push_back(usage_to_json(module));
  return json{{"schema_version", kDiagnosisSchemaVersion},
              {"bottleneck", diagnosis.bottleneck},
              {"compile_is_bottleneck", diagnosis.compile_is_bottleneck},
              {"findings", findings},
              {"finding_groups", groups},
              {"ruled_out", ruled_out},
              {"not_checked", not_checked},
              {"facts", diagnosis.facts},
              {"option_receipts", receipts},
              {"kernel_usage", usage},
              {"boundaries", diagnosis.boundaries ? boundaries_to_json(*diagnosis.boundaries) : json(nullptr)},
              {"actions", actions_to_json(diagnosis.actions)}};
}

}  // namespace wcp::render
