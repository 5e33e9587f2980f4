// Programs with several processes (multiprocessing pools, test runners under pytest-xdist,
// launchers): what is compiled more than once *because* there are several processes, with a
// healthy cache. Two mechanisms, both told apart from CS-2 (a cache that is not reused):
//   parallel-cold-misses  the same identity compiled in several processes whose builds
//                         overlapped in time: each started before any had written the cache;
//   main-script-twice     the same hash under `__main__` in the parent and `__mp_main__` in
//                         spawn workers: one script, two module names, two cache entries.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "analysis/diagnose_support.h"
#include "facts/queries.h"

namespace wcp::analysis {
namespace {

struct Build {
  const ModuleEvent* event;
  const ProcessRecord* process;  // null when the report does not know it
};

std::string who(const Build& build) {
  if (build.process == nullptr) return fmt::format("pid {}", build.event->detail->pid);
  return fmt::format("pid {} ({})", build.process->pid, to_string(build.process->role));
}

std::string span_of(const Build& build) {
  return fmt::format("{:.1f}–{:.1f} s", build.event->detail->start_s, build.event->detail->end_s);
}

bool overlap(const ModuleEvent& a, const ModuleEvent& b) {
  return a.detail->start_s < b.detail->end_s && b.detail->start_s < a.detail->end_s;
}

void check_parallel_builds(const Report& report, Diagnosis& out) {
  std::map<ModuleIdentity, std::vector<Build>> builds;
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    if (!event->detail || event->detail->pid == 0 || event->detail->end_s <= 0.0) continue;
    builds[identity_of(*event)].push_back({event, process_of(report, event->detail->pid)});
  }
  Finding finding = make_finding(Mechanism::parallel_cold_misses);
  double redundant = 0.0;
  for (const auto& [identity, list] : builds) {
    // Builds of this identity in other processes that ran at the same time.
    std::vector<Build> concurrent;
    for (std::size_t i = 0; i < list.size(); ++i) {
      for (std::size_t j = 0; j < list.size(); ++j) {
        if (i == j || list[i].event->detail->pid == list[j].event->detail->pid) continue;
        if (overlap(*list[i].event, *list[j].event)) {
          concurrent.push_back(list[i]);
          break;
        }
      }
    }
    if (concurrent.size() < 2) continue;
    std::vector<std::string> where;
    double total = 0.0, largest = 0.0;
    for (const auto& build : concurrent) {
      where.push_back(fmt::format("{} {}", who(build), span_of(build)));
      total += build.event->ms;
      largest = std::max(largest, build.event->ms);
    }
    // About the program's processes (what starts before the cache is filled), so a whole-program
    // finding without an owner: the identities built at once are listed, not its subject.
    if (std::find(finding.modules.begin(), finding.modules.end(), identity.name) == finding.modules.end())
      finding.modules.push_back(identity.name);
    finding.facts.event = EventKind::compiled_at_once;
    finding.facts.identities.push_back({identity.name, identity.hash, identity.device, concurrent.size()});
    if (finding.trigger.empty()) {
      finding.trigger = fmt::format(
          "the load intervals of {} {} on {} overlap in {} processes (per-load pid, start and "
          "end recorded by the instrumentation)",
          identity.name, identity.hash, identity.device, concurrent.size());
    }
    finding.evidence.push_back(fmt::format("{} {} on {} compiled at once in {} processes: {}", identity.name,
                                           identity.hash, identity.device, concurrent.size(), fmt::join(where, "; ")));
    redundant += total - largest;
  }
  if (finding.evidence.empty()) {
    const bool several = report.processes.size() > 1;
    if (several) {
      rule_out(out, Mechanism::parallel_cold_misses, "no identity was compiled in two processes at the same time");
    } else {
      not_checked(out, Mechanism::parallel_cold_misses, "one process imported Warp");
    }
    return;
  }
  if (warm_near_zero(report) == true) {
    finding.evidence.push_back(
        "the warm run compiled nothing: the cache works, the processes only started before it "
        "was filled (so this is not CS-2)");
  }
  finding.cost_ms = redundant;
  finding.cost_basis = "every concurrent build of an identity but the longest: work a build before fanning out avoids";
  out.findings.push_back(std::move(finding));
}

void check_main_script(const Report& report, Diagnosis& out) {
  std::map<std::pair<std::string, std::string>, std::map<std::string, const ModuleEvent*>>
      by_hash;  // (hash, device) -> name
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    if (event->hash.empty()) continue;
    if (event->name == "__main__" || event->name == "__mp_main__")
      by_hash[{event->hash, event->device}][event->name] = event;
  }
  Finding finding = make_finding(Mechanism::main_script_twice);
  double cost = 0.0;
  for (const auto& [key, names] : by_hash) {
    if (names.size() < 2) continue;
    const ModuleEvent* worker = names.at("__mp_main__");
    finding.facts.event = EventKind::main_script_compiled_twice;
    finding.facts.identities.push_back({"__mp_main__", key.first, key.second, 0});
    if (finding.trigger.empty()) {
      finding.trigger =
          fmt::format("Warp's log: hash {} on {} compiled under __main__ and under __mp_main__", key.first, key.second);
    }
    finding.evidence.push_back(fmt::format(
        "hash {} on {} compiled as __main__ ({:.0f} ms) and again as __mp_main__ ({:.0f} ms): spawn workers import the "
        "main script under another module name, which is another cache entry",
        key.first, key.second, names.at("__main__")->ms, worker->ms));
    cost += worker->ms;
  }
  if (finding.evidence.empty()) {
    rule_out(out, Mechanism::main_script_twice, "no hash was compiled under both __main__ and __mp_main__");
    return;
  }
  finding.module = "__mp_main__";
  // The main script's kernels: the program's own code.
  assign_owner(finding, CodeOwnership(report).of_module(finding.module));
  finding.cost_ms = cost;
  finding.cost_basis = "the __mp_main__ builds: with the kernels in an importable module the workers load the parent's";
  out.findings.push_back(std::move(finding));
}

}  // namespace

void check_processes(const Report& report, Diagnosis& out) {
  check_parallel_builds(report, out);
  check_main_script(report, out);
}

}  // namespace wcp::analysis
