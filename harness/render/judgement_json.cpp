#include "render/judgement_json.h"

#include "codec/report_json.h"
#include "io/json_fields.h"

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
  // The flat fields of schema 1, kept for readers of it: null when unavailable.
  out["baseline_median_ms"] = clock.baseline ? json(clock.baseline->median) : json(nullptr);
  out["baseline_mad_ms"] = clock.baseline ? or_null(clock.baseline->mad) : json(nullptr);
  out["candidate_median_ms"] = clock.candidate ? json(clock.candidate->median) : json(nullptr);
  return out;
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

}  // namespace

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
  workload_json["first_divergence"] = workload.first_divergence
                                          ? json{{"index", workload.first_divergence->index},
                                                 {"launch_number", workload.first_divergence->index + 1},
                                                 {"process", workload.first_divergence->process},
                                                 {"baseline", workload.first_divergence->baseline},
                                                 {"candidate", workload.first_divergence->candidate}}
                                          : json(nullptr);
  return json{{"verdict", std::string(verdict::to_string(judgement.verdict))},
              {"exit_code", judgement.exit_code},
              {"reason", judgement.reason},
              {"notes", judgement.notes},
              {"warnings", judgement.warnings},
              {"same_work", judgement.same_work},
              {"less_work", judgement.less_work},
              {"workload", workload_json},
              {"cold_module_work", clock_json(judgement.module_work)},
              {"compile_elapsed", clock_json(judgement.compile_elapsed)},
              {"counts", counts},
              {"modules", modules},
              {"options", options_json(judgement.options)},
              {"baseline", side_json(judgement.baseline)},
              {"candidate", side_json(judgement.candidate)}};
}

}  // namespace wcp::render
