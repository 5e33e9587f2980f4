#include "measure/lever_arrivals.h"

#include <algorithm>
#include <map>
#include <string_view>

namespace wcp::measure {
namespace {

int severity(std::string_view status) {
  if (status == "failed") return 2;
  if (status == "not_applicable") return 1;
  return 0;
}

void add_module(LeverArrival& arrival, const std::string& module) {
  if (module.empty()) return;
  auto& reached = arrival.modules_reached;
  if (std::find(reached.begin(), reached.end(), module) == reached.end()) reached.push_back(module);
}

void add_detail(LeverArrival& arrival, const std::string& detail) {
  if (detail.empty() || arrival.detail.find(detail) != std::string::npos) return;
  arrival.detail = arrival.detail.empty() ? detail : arrival.detail + "; " + detail;
}

}  // namespace

std::vector<LeverArrival> lever_arrivals_of(const PassRecord& pass) {
  std::vector<LeverArrival> arrivals;
  std::map<std::string, std::size_t> index;
  const auto arrival_for = [&](const std::string& id) -> LeverArrival& {
    const auto [found, inserted] = index.try_emplace(id, arrivals.size());
    if (inserted) arrivals.push_back(LeverArrival{id, "", "", {}, 0, {}});
    return arrivals[found->second];
  };
  for (const auto& process : pass.instrumentation.processes) {
    // Per lever in this process: what its records reached, and its tally at exit, which names
    // modules as they were named then (Warp renames a module="unique" module after creating it)
    // and counts past the bounded records. A process killed before its tally has the records.
    struct Seen {
      int calls = 0;
      std::vector<std::string> modules;
      const instrument::LeverEvent* tally = nullptr;
    };
    std::map<std::string, Seen> seen;
    for (const auto& event : process.levers) {
      LeverArrival& arrival = arrival_for(event.id);
      if (!event.status.empty() && (arrival.status.empty() || severity(event.status) > severity(arrival.status))) {
        arrival.status = event.status;
        if (severity(event.status) > 0) arrival.detail.clear();  // a worse status brings its own reason first
      }
      add_detail(arrival, event.detail);
      Seen& mine = seen[event.id];
      if (!event.module.empty()) mine.modules.push_back(event.module);
      if (!event.call.empty()) ++mine.calls;
      if (event.final) mine.tally = &event;
    }
    for (const auto& [id, mine] : seen) {
      LeverArrival& arrival = arrival_for(id);
      const auto& modules = mine.tally != nullptr ? mine.tally->modules : mine.modules;
      for (const auto& module : modules) add_module(arrival, module);
      if (mine.tally != nullptr) {
        for (const auto& module : mine.tally->replaced) {
          auto& replaced = arrival.modules_replaced;
          if (std::find(replaced.begin(), replaced.end(), module) == replaced.end()) replaced.push_back(module);
        }
      }
      arrival.calls_intercepted += std::max(mine.calls, mine.tally != nullptr ? mine.tally->calls : 0);
    }
  }
  // A lever only ever seen through what it reached (a fork child's file) was applied there.
  for (auto& arrival : arrivals) {
    if (arrival.status.empty()) arrival.status = "applied";
  }
  return arrivals;
}

}  // namespace wcp::measure
