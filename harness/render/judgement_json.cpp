#include "render/judgement_json.h"

#include "codec/report_json.h"
#include "io/json_fields.h"
#include "render/identity_changes_text.h"

namespace wcp::render {
namespace {

using json_fields::or_null;
using nlohmann::json;

json summary_json(const std::optional<Summary>& summary) {
  if (!summary) return nullptr;
  // n is unknown (null) for a median kept without its values (the original probe's warm medians).
  return json{{"median_ms", summary->median},
              {"mad_ms", or_null(summary->mad)},
              {"n", summary->count > 0 ? json(summary->count) : json(nullptr)}};
}

json noise_json(const Noise& noise) {
  return json{{"source", std::string(to_string(noise.source))},
              {"relative_mad", or_null(noise.relative_mad)},
              {"runs", noise.measured() ? json(noise.runs) : json(nullptr)},
              // Schema 13: the values a history's spread pooled (its band's Student-t); null when unknown.
              {"values", noise.measured() && noise.values > 0 ? json(noise.values) : json(nullptr)},
              {"band_quantile", noise.measured() ? json(band_quantile(noise.values)) : json(nullptr)},
              {"gross_change_bound", noise.measured() ? json(nullptr) : json(kGrossChangeBound)},
              {"summary", noise.summary()}};
}

json clock_json(const verdict::ClockComparison& clock) {
  json out{{"baseline", summary_json(clock.baseline)}, {"candidate", summary_json(clock.candidate)},
           {"delta_ms", or_null(clock.delta_ms)},      {"delta_percent", or_null(clock.delta_percent)},
           {"band_ms", or_null(clock.band_ms)},        {"direction", std::string(to_string(clock.direction))}};
  if (clock.paired) {
    out["paired"] = json{{"pairs", clock.paired->pairs},
                         {"median_delta_ms", clock.paired->median_delta},
                         {"mad_delta_ms", clock.paired->mad_delta},
                         {"faster", clock.paired->faster},
                         {"slower", clock.paired->slower},
                         {"equal", clock.paired->equal}};
  }
  out["noise"] = noise_json(clock.noise);
  out["samples_to_decide"] = or_null(clock.samples_to_decide);
  // Version 2: the smallest change this clock could have judged, and the runs behind it.
  out["detectable_percent"] = or_null(clock.detectable_percent);
  out["runs"] = clock.detectable_percent ? json{{"baseline", clock.baseline_runs}, {"candidate", clock.candidate_runs}}
                                         : json(nullptr);
  // The flat fields of schema 1, kept for readers of it: null when unavailable.
  out["baseline_median_ms"] = clock.baseline ? json(clock.baseline->median) : json(nullptr);
  out["baseline_mad_ms"] = clock.baseline ? or_null(clock.baseline->mad) : json(nullptr);
  out["candidate_median_ms"] = clock.candidate ? json(clock.candidate->median) : json(nullptr);
  return out;
}

json sameness_json(const verdict::CompileSameness& sameness) {
  json out{{"decided", sameness.sameness == verdict::Sameness::same},
           {"sameness", std::string(verdict::to_string(sameness.sameness))},
           {"detail", sameness.detail},
           {"identities", sameness.identities},
           {"builds", sameness.builds},
           {"modules_checked", sameness.modules_checked},
           {"differences", sameness.differences}};
  if (const auto& bytes = sameness.changed_bytes) {
    out["changed_bytes"] = json{{"baseline_modules", bytes->baseline_modules},
                                {"candidate_modules", bytes->candidate_modules},
                                {"baseline_source_bytes", bytes->baseline_source},
                                {"candidate_source_bytes", bytes->candidate_source},
                                {"baseline_output_bytes", or_null(bytes->baseline_output)},
                                {"candidate_output_bytes", or_null(bytes->candidate_output)}};
  } else {
    out["changed_bytes"] = nullptr;
  }
  return out;
}

// Per arch both sides compiled for CUDA (`--cuda-arch`): its CPU clock, the output bytes and the
// kernel that moved most. Empty when either side has no CUDA build.
json cuda_json(const std::vector<verdict::CudaClock>& clocks) {
  json out = json::array();
  for (const auto& cuda : clocks) {
    json moved = nullptr;
    if (const auto& move = cuda.build.moved_most) {
      moved = json{{"kernel", move->kernel},
                   {"module", move->module},
                   {"baseline_ms", or_null(move->baseline_ms)},
                   {"candidate_ms", or_null(move->candidate_ms)},
                   {"delta_ms", move->delta_ms()}};
    }
    out.push_back({{"arch", cuda.build.arch},
                   {"cpu", clock_json(cuda.cpu)},
                   {"baseline_output_bytes", or_null(cuda.build.baseline_bytes)},
                   {"candidate_output_bytes", or_null(cuda.build.candidate_bytes)},
                   {"moved_most", std::move(moved)}});
  }
  return out;
}

json runner_speed_json(const std::optional<verdict::RunnerSpeed>& speed) {
  if (!speed) return nullptr;
  return json{{"clock", speed->cpu_clock ? "cpu" : "wall"},
              {"ratio", speed->ratio},
              {"unchanged_identities", speed->unchanged_identities},
              {"unchanged_baseline_ms", speed->unchanged_baseline_ms},
              {"unchanged_candidate_ms", speed->unchanged_candidate_ms},
              {"baseline_total_ms", speed->baseline_total_ms}};
}

json side_json(const verdict::SideFacts& facts) {
  return json{{"overlap_factor", or_null(facts.overlap_factor)}, {"builds_overlapped", facts.builds_overlapped},
              {"compiled_nothing", facts.compiled_nothing},      {"samples", facts.samples},
              {"failed_samples", facts.failed_samples},          {"failed_warm_runs", facts.failed_warm_runs},
              {"elapsed_left_out", facts.elapsed_left_out}};
}

json paired_json(const verdict::PairedModule& module) {
  return json{{"module", module.label},
              {"device", module.device},
              {"baseline_name", module.baseline_name},
              {"candidate_name", module.candidate_name},
              {"baseline_hashes", module.baseline_hashes},
              {"candidate_hashes", module.candidate_hashes},
              {"hash_moved", module.hash_moved()}};
}

json options_json(const verdict::OptionComparison& options) {
  json changes = json::array();
  for (const auto& change : options.changes) {
    json item = paired_json(change.module);
    item["key"] = change.key;
    item["baseline"] = change.baseline_value;
    item["candidate"] = change.candidate_value;
    changes.push_back(std::move(item));
  }
  json writes = json::array();
  for (const auto& written : options.writes) {
    json missed = json::array();
    for (const auto& miss : written.receipt.missed) {
      missed.push_back({{"module", miss.module},
                        {"reason", std::string(to_string(miss.reason))},
                        {"elsewhere", miss.elsewhere},
                        {"dependency", miss.dependency}});
    }
    json modules = json::array();
    for (const auto& module : written.modules) {
      json item = paired_json(module.module);
      item["baseline"] = or_null(module.baseline_value);
      item["candidate"] = or_null(module.candidate_value);
      item["value_changed"] = module.value_changed();
      modules.push_back(std::move(item));
    }
    writes.push_back({{"side", std::string(verdict::to_string(written.side))},
                      {"write", written.receipt.write},
                      {"repeats", written.receipt.repeats},
                      {"outcome", std::string(to_string(written.receipt.outcome))},
                      {"arrived", written.arrived()},
                      {"missed", missed},
                      {"modules", modules}});
  }
  return json{{"baseline_snapshots", options.baseline_snapshots},
              {"candidate_snapshots", options.candidate_snapshots},
              {"baseline_writes", options.baseline_writes},
              {"candidate_writes", options.candidate_writes},
              {"changes", changes},
              {"writes", writes}};
}

json builder_json(const verdict::FirstBuilder& builder) {
  json test = nullptr;
  if (builder.test) {
    test = json{{"id", builder.test->id}, {"phase", to_string(builder.test->phase)}, {"worker", builder.test->worker}};
  }
  json line = nullptr;
  if (builder.line)
    line = json{{"file", builder.line->file}, {"line", builder.line->line}, {"function", builder.line->function}};
  return json{{"test", test}, {"line", line}};
}

json identities_json(const std::vector<verdict::BuiltIdentity>& identities) {
  json out = json::array();
  for (const auto& identity : identities)
    out.push_back({{"hash", identity.hash}, {"block_dim", or_null(identity.block_dim)}});
  return out;
}

json value_changes_json(const std::vector<ValueChange>& changes) {
  json out = json::array();
  for (const auto& [name, old_value, new_value] : changes)
    out.push_back({{"name", name}, {"baseline", old_value}, {"candidate", new_value}});
  return out;
}

json kernel_json(const KernelInfo& kernel) {
  return json{{"key", kernel.key}, {"file", kernel.file}, {"line", kernel.line}, {"hash", kernel.hash}};
}

json instances_json(const std::vector<std::pair<std::string, std::string>>& instances) {
  json out = json::array();
  for (const auto& [kernel, instance] : instances) out.push_back({{"kernel", kernel}, {"instance", instance}});
  return out;
}

// "baseline"/"candidate" name the two sides of the diff even when both are the candidate's
// builds (`against` says which): the earlier one and the later one.
json snapshot_diff_json(const SnapshotDiff& diff) {
  json added = json::array(), removed = json::array(), changed = json::array();
  for (const auto& kernel : diff.added) added.push_back(kernel_json(kernel));
  for (const auto& kernel : diff.removed) removed.push_back(kernel_json(kernel));
  for (const auto& kernel : diff.changed) {
    json item = kernel_json(kernel.kernel);
    item["baseline_hash"] = kernel.old_hash;
    item["constants"] = kernel.constants_recorded ? value_changes_json(kernel.constants) : json(nullptr);
    changed.push_back(std::move(item));
  }
  json functions = json::array(), functions_removed = json::array();
  for (const auto& function : diff.functions) {
    functions.push_back({{"key", function.function.key},
                         {"file", function.function.file},
                         {"line", function.function.line},
                         {"hash", function.function.hash},
                         {"baseline_hash", function.old_hash},
                         {"added", function.added},
                         {"constants", value_changes_json(function.constants)}});
  }
  for (const auto& function : diff.functions_removed) {
    functions_removed.push_back(
        {{"key", function.key}, {"file", function.file}, {"line", function.line}, {"hash", function.hash}});
  }
  json block_dim = nullptr;
  if (diff.block_dim)
    block_dim = json{{"baseline", or_null(diff.block_dim->first)}, {"candidate", or_null(diff.block_dim->second)}};
  return json{{"kernels_added", added},
              {"kernels_removed", removed},
              {"kernels_changed", changed},
              {"functions_recorded", diff.functions_recorded},
              {"functions_changed", functions},
              {"functions_removed", functions_removed},
              {"instances_added", instances_json(diff.instances_added)},
              {"instances_removed", instances_json(diff.instances_removed)},
              {"options", value_changes_json(diff.options)},
              {"block_dim", block_dim}};
}

}  // namespace

json identity_changes_to_json(const verdict::IdentityChanges& changes) {
  json modules = json::array();
  for (const auto& module : changes.modules) {
    json explanations = json::array();
    for (const auto& explanation : module.explanations) {
      explanations.push_back({{"against", std::string(to_string(explanation.against))},
                              {"from", identities_json({explanation.from}).front()},
                              {"to", identities_json({explanation.to}).front()},
                              {"diff", explanation.diff ? snapshot_diff_json(*explanation.diff) : json(nullptr)},
                              {"not_recorded", explanation.not_recorded},
                              {"built_by", builder_json(explanation.built_by)}});
    }
    modules.push_back(
        {{"change", std::string(to_string(module.change))},
         {"module", module.module},
         {"device", module.device},
         {"baseline_name", module.baseline_name},
         {"candidate_name", module.candidate_name},
         {"baseline_identities", identities_json(module.baseline_identities)},
         {"candidate_identities", identities_json(module.candidate_identities)},
         {"identities_added", module.identities_added},
         {"identities_removed", module.identities_removed},
         {"explanations", explanations},
         {"no_longer_built", identities_json(module.no_longer_built)},
         {"first_built_by",
          module.change == verdict::ModuleChange::appeared ? builder_json(module.first_built_by) : json(nullptr)},
         {"summary", module_identity_change_text(module)}});
  }
  return json{{"unavailable", changes.unavailable}, {"modules", modules}};
}

json judgement_to_json(const verdict::Judgement& judgement) {
  json counts = json::object();
  for (const auto& count : judgement.counts) {
    counts[std::string(to_string(count.count))] = {{"baseline", or_null(count.baseline)},
                                                   {"candidate", or_null(count.candidate)}};
  }
  json modules = json::array();
  for (const auto& row : judgement.modules) {
    modules.push_back({{"module", row.module},
                       {"baseline_hashes", row.baseline_hashes},
                       {"candidate_hashes", row.candidate_hashes},
                       {"changed", row.changed}});
  }
  const auto& workload = judgement.workload;
  json differences = json::array();
  for (const auto& entry : workload.count_differences) {
    differences.push_back(
        {{"signature", entry.signature}, {"baseline", entry.baseline}, {"candidate", entry.candidate}});
  }
  json renames = json::array();
  for (const auto& rename : workload.renames)
    renames.push_back({{"baseline", rename.baseline}, {"candidate", rename.candidate}});
  json workload_json{{"status", verdict::to_string(workload.status)},
                     {"reason", workload.reason},
                     {"baseline_launches", or_null(workload.baseline_launches)},
                     {"candidate_launches", or_null(workload.candidate_launches)},
                     {"count_differences", differences},
                     {"renames", renames},
                     {"unordered", workload.unordered}};
  json launch_changes = json::array();
  if (workload.first_divergence) {
    for (const auto& change : workload.first_divergence->changes) {
      launch_changes.push_back(
          {{"field", change.field}, {"baseline", change.baseline}, {"candidate", change.candidate}});
    }
  }
  workload_json["first_divergence"] = workload.first_divergence
                                          ? json{{"index", workload.first_divergence->index},
                                                 {"launch_number", workload.first_divergence->index + 1},
                                                 {"process", workload.first_divergence->process},
                                                 {"baseline", workload.first_divergence->baseline},
                                                 {"candidate", workload.first_divergence->candidate},
                                                 {"kernel", workload.first_divergence->kernel},
                                                 {"changes", launch_changes}}
                                          : json(nullptr);
  return json{
      {"verdict", std::string(verdict::to_string(judgement.verdict))},
      {"exit_code", judgement.exit_code},
      {"reason", judgement.reason},
      {"notes", judgement.notes},
      {"warnings", judgement.warnings},
      {"same_work", judgement.same_work},
      {"less_work", judgement.less_work},
      {"workload", workload_json},
      // `cold_module_work` keeps its meaning, the wall clock (schema 13 adds the CPU's and
      // which of them the verdict judged).
      {"cold_module_work", clock_json(judgement.module_wall ? *judgement.module_wall : judgement.module_work)},
      {"cold_module_cpu",
       judgement.module_work.clock == verdict::Clock::module_cpu ? clock_json(judgement.module_work) : json(nullptr)},
      {"judged_on", std::string(verdict::to_string(judgement.module_work.clock))},
      // Where the verdict's band came from (the judged module clock's): issue 42.
      {"noise", noise_json(judgement.module_work.noise)},
      {"samples_to_decide", or_null(judgement.module_work.samples_to_decide)},
      {"detectable_percent", or_null(judgement.module_work.detectable_percent)},
      {"identity_decision", sameness_json(judgement.sameness)},
      {"runner_speed", runner_speed_json(judgement.runner_speed)},
      {"cuda", cuda_json(judgement.cuda)},
      {"compile_elapsed", clock_json(judgement.compile_elapsed)},
      {"counts", counts},
      {"modules", modules},
      {"options", options_json(judgement.options)},
      {"identity_changes", identity_changes_to_json(judgement.identity_changes)},
      {"baseline", side_json(judgement.baseline)},
      {"candidate", side_json(judgement.candidate)}};
}

}  // namespace wcp::render
