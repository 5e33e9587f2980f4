#include "render/bisect_json.h"

#include "io/name_table.h"

namespace wcp::render {
namespace {

using nlohmann::json;

// The words of the JSON's "result"; an aborted bisection writes no JSON.
constexpr NameTable<bisect::BisectEnding, 5> kEndingWords{{
    {bisect::BisectEnding::first_bad, "first_bad"},
    {bisect::BisectEnding::only_skipped, "only_skipped"},
    {bisect::BisectEnding::bad_is_not_bad, "bad_is_not_bad"},
    {bisect::BisectEnding::good_is_not_good, "good_is_not_good"},
    {bisect::BisectEnding::aborted, "aborted"},
}};

std::string ending_word(bisect::BisectEnding ending) {
  return std::string(name_of(kEndingWords, ending));
}

json entry_structure_json(const bisect::EntryStructure& structure) {
  json counts = json::array();
  for (const auto& count : structure.judgement.counts) {
    counts.push_back({{"count", std::string(verdict::to_string(count.count))},
                      {"parent", count.baseline ? json(*count.baseline) : json(nullptr)},
                      {"first_bad", count.candidate ? json(*count.candidate) : json(nullptr)}});
  }
  json modules = json::array();
  for (const auto& row : structure.judgement.modules) {
    modules.push_back({{"module", row.module},
                       {"parent_hashes", row.baseline_hashes},
                       {"first_bad_hashes", row.candidate_hashes},
                       {"changed", row.changed}});
  }
  return {{"entry", structure.entry}, {"counts", counts}, {"modules", modules}};
}

}  // namespace

json bisect_to_json(const bisect::BisectResult& result) {
  json out = json::object();
  out["result"] = ending_word(result.ending);
  out["reason"] = result.reason;
  if (result.first_bad) out["first_bad"] = {{"sha", result.first_bad->sha}, {"subject", result.first_bad->line}};
  if (result.ending == bisect::BisectEnding::first_bad && result.parent) {
    out["parent"] = {{"sha", result.parent->sha}, {"subject", result.parent->line}, {"outcome", result.parent_outcome}};
    out["structure"] = json::array();
    for (const auto& structure : result.structure) out["structure"].push_back(entry_structure_json(structure));
  }
  if (result.ending == bisect::BisectEnding::only_skipped) out["candidates"] = result.candidates;
  out["skipped"] = json::array();
  out["visited"] = json::array();
  for (const auto& line : result.visits) {
    const auto& visit = line.visit;
    if (!line.after_bisection && visit.outcome == bisect::StepOutcome::skip)
      out["skipped"].push_back({{"sha", visit.sha}, {"reason", visit.reason}});
    out["visited"].push_back({{"sha", visit.sha},
                              {"outcome", std::string(bisect::to_string(visit.outcome))},
                              {"reason", visit.reason},
                              {"after_bisection", line.after_bisection}});
  }
  out["good"] = result.good;
  out["bad"] = result.bad;
  out["budget"] = result.budget;
  return out;
}

}  // namespace wcp::render
