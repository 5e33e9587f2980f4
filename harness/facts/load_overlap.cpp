#include "facts/load_overlap.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace wcp {

std::vector<LoadOverlap> overlapping_loads(const std::vector<ModuleEvent>& events) {
  std::map<std::pair<Pass, int>, std::vector<std::size_t>> by_process;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const auto& detail = events[i].detail;
    if (!detail || !detail->thread || detail->start_s <= 0.0 || detail->end_s < detail->start_s) continue;
    by_process[{events[i].pass, detail->pid}].push_back(i);
  }
  std::vector<LoadOverlap> out;
  for (auto& [key, indexes] : by_process) {
    std::stable_sort(indexes.begin(), indexes.end(), [&](std::size_t a, std::size_t b) {
      return events[a].detail->start_s < events[b].detail->start_s;
    });
    LoadOverlap group;
    std::set<long long> threads;
    const auto close = [&] {
      if (group.events.size() >= 2 && threads.size() >= 2) {
        group.threads = threads.size();
        out.push_back(group);
      }
    };
    for (const std::size_t index : indexes) {
      const auto& detail = *events[index].detail;
      if (group.events.empty() || detail.start_s >= group.end_s) {
        close();
        group = LoadOverlap{key.first, key.second, {}, 0, detail.start_s, detail.end_s};
        threads.clear();
      }
      group.events.push_back(index);
      group.end_s = std::max(group.end_s, detail.end_s);
      threads.insert(*detail.thread);
    }
    close();
  }
  return out;
}

}  // namespace wcp
