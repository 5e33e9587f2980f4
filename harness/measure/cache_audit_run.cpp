// The run half of measure/cache_audit.h: copy DIR, run one warm pass on the copy, classify.
#include <fmt/format.h>

#include <iterator>
#include <set>

#include "measure/cache_audit.h"
#include "measure/cache_copy.h"
#include "measure/cache_miss_explanation.h"
#include "measure/load_events.h"
#include "measure/sample_runner.h"
#include "run/interrupt_watch.h"
#include "run/scratch_dir.h"

namespace wcp::measure {
namespace {

namespace fs = std::filesystem;

std::string failure_of(const RunOutcome& run) {
  if (run.timed_out) return "the pass timed out and was stopped";
  if (run.signal) return fmt::format("the pass was killed by signal {}", *run.signal);
  return fmt::format("the pass exited with status {}", run.exit_code);
}

// Every kernel cache folder the pass's processes said Warp used (at each load and at exit).
std::set<std::string> cache_folders(const instrument::InstrumentationEvents& events) {
  std::set<std::string> folders;
  for (const auto& load : events.loads) {
    if (const auto found = load.cache.find("kernel_cache_dir");
        found != load.cache.end() && !found->second.empty() && found->second != "None") {
      folders.insert(found->second);
    }
  }
  for (const auto& process : events.processes) {
    // "None": the process imported Warp but never initialised it (no cache was chosen).
    if (process.exit && process.exit->kernel_cache_dir && !process.exit->kernel_cache_dir->empty() &&
        *process.exit->kernel_cache_dir != "None") {
      folders.insert(*process.exit->kernel_cache_dir);
    }
  }
  return folders;
}

// The group of the copy a kernel cache folder is: "" for the copy itself, "1.19.0" for its
// version folder; nullopt when it lies anywhere else.
std::optional<std::string> group_of(const fs::path& folder, const fs::path& copy) {
  std::error_code error;
  const auto relative = fs::weakly_canonical(folder, error).lexically_relative(fs::weakly_canonical(copy, error));
  if (relative.empty()) return std::nullopt;
  if (relative == ".") return std::string();
  const auto first = *relative.begin();
  if (first == ".." || std::distance(relative.begin(), relative.end()) != 1) return std::nullopt;
  return first.string();
}

}  // namespace

CacheAudit audit_warm_cache(const MeasureOptions& options, const fs::path& dir, InterruptWatch& interrupts,
                            ProgressListener& progress) {
  CacheAudit audit;
  audit.dir = fs::absolute(dir).lexically_normal().string();
  ScratchDir scratch("warp-compile-probe-audit-");
  const auto copy = scratch.path() / "warp-cache";
  audit.copy = copy_cache_tree(dir, copy);
  const CacheListing before = list_cache(copy);

  progress.plan(1);
  progress.arm("--warm-cache");
  progress.pass_started(1, 1, Pass::warm);
  const PassRecord record = run_pass_against(options, copy, interrupts);
  progress.pass_finished(1, 1, Pass::warm, record.run.wall_ms, record.run.succeeded());
  progress.arm("");
  interrupts.throw_if_interrupted();
  audit.pass_ok = record.run.succeeded();
  audit.pass_wall_ms = record.run.wall_ms;
  if (!audit.pass_ok) audit.pass_failure = failure_of(record.run);

  const ObservedLoads loads = observe_loads(record);
  audit.loads_observed = loads.observed;
  if (!loads.observed) audit.unavailable = "its module loads were not observed: " + loads.unobserved;
  std::string run_group;
  for (const auto& folder : cache_folders(record.instrumentation)) {
    const auto group = group_of(folder, copy);
    if (!group) {
      audit.unavailable = "the program pointed Warp's kernel cache at " + folder +
                          ", not at WARP_CACHE_PATH, so the pass did not read the copy of DIR";
      break;
    }
    run_group = *group;
  }
  audit.run_group = run_group;
  classify_entries(audit, before, list_cache(copy), loads.events, run_group);
  // Before the scratch copy goes: the fresh builds' generated source lies only there.
  if (audit.measured()) explain_misses(audit, dir, copy, loads.events);
  return audit;
}

}  // namespace wcp::measure
