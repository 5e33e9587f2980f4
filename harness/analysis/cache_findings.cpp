// CS-2: the kernel cache is not reused. The warm pass runs in the cache the cold pass just
// filled; CS-2 fires only on evidence that it compiled anyway (facts/queries.h:
// warm_compile_evidence: a warm load Warp logged "(compiled)", or a counted warm compile).
// Warm milliseconds are the cost, never the trigger: on CUDA a cached first load can read
// hundreds of ms while compiling nothing. The finding names the cause from what was seen, and
// the fix is that cause's fix, with a way to keep a deliberate rebuild.
//
// CUDA_CACHE_DISABLE is the exception where a (cached) warm load still compiles: a module Warp
// wrote as PTX is JIT-compiled by the driver at every load, and the variable stops the driver
// keeping the result. That chain (the variable, the build's cuda_output 'ptx', a warm load of
// it) is the evidence; the warm load's milliseconds are its cost.
//
// A cache clear or cache setting seen without a warm compile is a finding only when the same
// run rebuilt what it removed (one identity built twice in one process); otherwise it changed
// nothing this run could see and is a fact (context). A cold-pass rebuild of the same identity
// with no named cause is not CS-2 either: parallel cold misses and `__mp_main__` do that with a
// healthy cache (process_findings.cpp).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "analysis/diagnose_support.h"
#include "analysis/hash_stability_advice.h"
#include "facts/option_receipts.h"
#include "facts/rebuilds.h"
#include "io/units.h"

namespace wcp::analysis {
namespace {

// What the application did to its cache, as the instrumentation (or the environment) saw it.
enum class CacheCause {
  clear_kernel_cache,
  clear_lto_cache,
  other_clear,
  cache_kernels_off,
  own_cache_dir,
  cuda_cache_disable
};

struct SeenCause {
  CacheCause cause;
  std::string seen;  // the observation, with its call site when known
};

std::string site_of(const CacheClear& clear) {
  return clear.site ? " at " + short_path(clear.site->file) + ":" + std::to_string(clear.site->line) : "";
}

std::vector<SeenCause> seen_causes(const Report& report, const DiagnoseInputs& inputs) {
  const auto& status = report.instrumentation;
  std::vector<SeenCause> causes;
  for (const auto& clear : status.cache_clears) {
    const CacheCause cause = clear.what == "clear_kernel_cache" ? CacheCause::clear_kernel_cache
                             : clear.what == "clear_lto_cache"  ? CacheCause::clear_lto_cache
                                                                : CacheCause::other_clear;
    causes.push_back({cause, "the application called " + clear.what + site_of(clear)});
  }
  if (status.cache_kernels_disabled)
    causes.push_back({CacheCause::cache_kernels_off, "warp.config.cache_kernels was False"});
  if (status.app_kernel_cache_dir) {
    causes.push_back({CacheCause::own_cache_dir,
                      "the application set warp.config.kernel_cache_dir = " + *status.app_kernel_cache_dir +
                          " (not the cache the tool provided; a temporary or per-run directory is never reused)"});
  }
  if (inputs.cuda_cache_disabled_env.value_or(false) || status.cuda_cache_disabled.value_or(false)) {
    causes.push_back({CacheCause::cuda_cache_disable,
                      "CUDA_CACHE_DISABLE is set in the measured processes' environment (disables the driver's cache "
                      "of JIT-compiled PTX)"});
  }
  return causes;
}

// Each cause's fix, with a way to keep a deliberate rebuild: clearing a cache is sometimes
// wanted (a benchmark of cold start, a suspected stale entry), so the advice moves it behind an
// explicit switch instead of deleting it.
std::string fix_for(CacheCause cause) {
  switch (cause) {
    case CacheCause::clear_kernel_cache:
      return "Remove the wp.clear_kernel_cache() call: it deletes every module the previous run built, so every run "
             "compiles from scratch. To keep a deliberate rebuild, call it only behind an explicit switch, e.g. `if "
             "args.rebuild: wp.clear_kernel_cache()` with a --rebuild flag.";
    case CacheCause::clear_lto_cache:
      return "Remove the wp.clear_lto_cache() call: it deletes the LTO artifacts tile/MathDx kernels link, so every "
             "run generates them again. To keep a deliberate rebuild, call it only behind an explicit switch (a "
             "--rebuild flag).";
    case CacheCause::other_clear:
      return "Remove the cache-clearing call from the application's normal path; to keep a deliberate rebuild, run "
             "it only behind an explicit switch (a --rebuild flag).";
    case CacheCause::cache_kernels_off:
      return "Remove warp.config.cache_kernels = False: with it Warp neither reads nor keeps compiled modules. To keep "
             "a deliberate rebuild, set it only behind an explicit switch (a --rebuild flag), or run once with "
             "WARP_CACHE_PATH pointing at an empty directory.";
    case CacheCause::own_cache_dir:
      return "Point warp.config.kernel_cache_dir at a stable directory (or leave it unset and choose the location with "
             "WARP_CACHE_PATH), never a temporary or per-run one (tempfile.mkdtemp(), a path with a pid or a time). "
             "To keep a deliberate rebuild, use a fresh directory only behind an explicit switch (a --rebuild flag).";
    case CacheCause::cuda_cache_disable:
      return "Unset CUDA_CACHE_DISABLE. It matters when Warp writes PTX (warp.config.cuda_output = \"ptx\", a driver "
             "at least as new as the toolkit, or an arch NVRTC cannot emit CUBIN for): the driver then JIT-compiles "
             "that PTX on every load and this variable stops it caching the result; where the arch allows, "
             "warp.config.cuda_output = \"cubin\" avoids the driver JIT. To keep a deliberate rebuild, set it only for "
             "that run (CUDA_CACHE_DISABLE=1 python app.py --rebuild).";
  }
  return "";
}

constexpr const char* kHashVariesFix =
    "Make the module hash stable between runs: something in the kernels' code, their captured constants or their "
    "options differs per run (a path, a time, a random value, id(), an unordered set). Compute it outside the kernel "
    "and pass it as a kernel argument. To keep a deliberate rebuild, clear the cache behind an explicit switch (a "
    "--rebuild flag) instead of letting the hash change.";

// Warm compiles of a hash the cold pass did not build: the hash itself changed between runs.
std::vector<std::string> hashes_not_built_cold(const Report& report, const WarmCompileEvidence& warm) {
  std::set<std::pair<std::string, std::string>> cold;
  for (const ModuleEvent* event : cold_compiled_events(report)) cold.insert({event->name, event->hash});
  std::vector<std::string> changed;
  for (const ModuleEvent* event : warm.compiled_events) {
    if (!cold.contains({event->name, event->hash})) {
      std::vector<std::string> cold_hashes;
      for (const auto& [name, hash] : cold) {
        if (name == event->name) cold_hashes.push_back(hash);
      }
      changed.push_back(
          fmt::format("{}: the warm pass built hash {}, the cold pass built {}", event->name, event->hash,
                      cold_hashes.empty() ? "no hash of it" : fmt::format("{}", fmt::join(cold_hashes, ","))));
    }
  }
  return changed;
}

// CS-2 from the hash experiments alone: the warm pass hit, but another process or checkout
// would not.
Finding moved_hash_finding(const Report& report, const HashStability& stability) {
  Finding finding = make_finding(Mechanism::cache_not_reused);
  std::vector<std::string> moved;
  for (const auto& module : stability.modules) moved.push_back(module.module + " (" + to_string(module.cause) + ")");
  finding.trigger = fmt::format(
      "the hash experiments gave {} another identity in another process or checkout: a kept "
      "cache misses there",
      fmt::join(moved, ", "));
  const HashAdvice advice = hash_advice(stability);
  finding.evidence = advice.evidence;
  finding.fix = fmt::format("{}", fmt::join(advice.fixes, " "));
  finding.headline = advice.headline;
  finding.short_fix = advice.short_fix;
  if (advice.behaviour_changes) {
    finding.fix_effect = FixEffect::changes_behaviour;
    finding.behaviour = "upgrading Warp changes the code it generates for every kernel: compare results";
  }
  finding.cost_ms = moved_modules_cold_ms(report, stability);
  finding.cost_basis =
      "the cold builds of the modules whose hash moves: paid again by every process or checkout "
      "that should have reused them";
  // A kept cache is the whole program's (owner absent): the modules whose hash moved are what it
  // misses, listed, not the code the finding is about (their hash's cause may be the user's lambda
  // in a module Warp generates).
  for (const auto& module : stability.modules) finding.modules.push_back(module.module);
  return finding;
}

// The warm pass's CUDA loads of modules Warp wrote as PTX (the cold build's cuda_output, its
// own or the warp.config value it read, was 'ptx'). Warp logs them (cached), yet the driver
// compiles that PTX to machine code at every load, and with CUDA_CACHE_DISABLE set it keeps
// nothing: every run pays that JIT again. A CUBIN load has no driver JIT, so only PTX counts.
std::vector<const ModuleEvent*> warm_driver_jit_loads(const Report& report) {
  std::set<std::pair<std::string, std::string>> written_as_ptx;  // (name, hash) of cold CUDA builds
  for (const auto& event : report.module_events) {
    if (event.pass != Pass::cold || event.status == LoadStatus::error || !event.device.starts_with("cuda")) continue;
    if (option_at_build(report, event, "cuda_output") == "'ptx'") written_as_ptx.insert({event.name, event.hash});
  }
  std::vector<const ModuleEvent*> loads;
  for (const auto& event : report.module_events) {
    if (event.pass == Pass::warm && event.status == LoadStatus::cached && event.device.starts_with("cuda") &&
        written_as_ptx.contains({event.name, event.hash}))
      loads.push_back(&event);
  }
  return loads;
}

// CS-2 with CUDA_CACHE_DISABLE and PTX: Warp's cache was reused, the driver's was not.
Finding driver_jit_finding(const std::vector<SeenCause>& causes, const std::vector<const ModuleEvent*>& loads) {
  Finding finding = make_finding(Mechanism::cache_not_reused);
  std::vector<std::string> names;
  double warm_ms = 0.0;
  for (const ModuleEvent* load : loads) {
    if (std::find(names.begin(), names.end(), load->name) == names.end()) names.push_back(load->name);
    warm_ms += load->ms;
  }
  finding.trigger = fmt::format(
      "the warm pass loaded {} module(s) Warp built as PTX (cuda_output 'ptx') from Warp's cache ({}), with "
      "CUDA_CACHE_DISABLE set: the driver JIT-compiles that PTX at every load and keeps nothing",
      names.size(), fmt::join(names, ", "));
  for (const ModuleEvent* load : loads) {
    finding.evidence.push_back(fmt::format("warm load of {} {} on {}: (cached) in Warp, {} including the driver's JIT",
                                           load->name, load->hash, load->device, milliseconds_text(load->ms)));
  }
  for (const auto& cause : causes) finding.evidence.push_back(cause.seen);
  finding.headline = "CUDA_CACHE_DISABLE with PTX output: the driver JIT-compiles every warm load again";
  finding.fix = fix_for(CacheCause::cuda_cache_disable);
  finding.cost_ms = warm_ms;
  finding.cost_basis =
      "the warm pass's loads of the PTX modules (Warp compiled nothing; the time is mostly the driver's JIT, paid "
      "again on every run)";
  finding.modules = names;
  return finding;
}

}  // namespace

void check_cache(const Report& report, const DiagnoseInputs& inputs, Diagnosis& out) {
  const auto causes = seen_causes(report, inputs);
  const WarmCompileEvidence warm = warm_compile_evidence(report);
  std::vector<std::string> rebuilt_same;  // the cold pass built one identity twice in one process
  for (const auto& rebuilt : rebuilt_modules(report)) {
    if (rebuilt.cause != RebuildCause::same_identity) continue;
    rebuilt_same.push_back(fmt::format("cold pass: {} ({}) on {} built {} times with the same hash", rebuilt.name,
                                       fmt::join(rebuilt.hashes, ","), rebuilt.device, rebuilt.builds));
  }
  const bool rebuilt_after_clear = !causes.empty() && !rebuilt_same.empty();

  // The warm pass runs in the same directory and often the same way as the cold one, so a hash
  // that moves only with another process or checkout shows in the hash experiments alone.
  if (warm.compiled != true && !rebuilt_after_clear && report.hash_stability &&
      report.hash_stability->stable == false) {
    out.findings.push_back(moved_hash_finding(report, *report.hash_stability));
    return;
  }
  const bool driver_cache_disabled = std::any_of(
      causes.begin(), causes.end(), [](const SeenCause& seen) { return seen.cause == CacheCause::cuda_cache_disable; });
  if (warm.compiled != true && !rebuilt_after_clear && driver_cache_disabled) {
    if (const auto loads = warm_driver_jit_loads(report); !loads.empty()) {
      out.findings.push_back(driver_jit_finding(causes, loads));
      return;
    }
  }
  if (warm.compiled != true && !rebuilt_after_clear) {
    // What the application did to its cache still matters to the reader, as context.
    for (const auto& cause : causes) {
      out.facts.push_back(
          fmt::format("Cache: {}; no rebuild was seen because of it in this run (not CS-2)", cause.seen));
    }
    if (!warm.compiled) {
      not_checked(out, Mechanism::cache_not_reused, warm.observation);
    } else {
      rule_out(out, Mechanism::cache_not_reused, warm.observation);
    }
    return;
  }

  Finding finding = make_finding(Mechanism::cache_not_reused);
  finding.trigger = warm.compiled == true ? warm.observation : rebuilt_same.front();
  if (warm.counted_compiles && *warm.counted_compiles > 0) {
    finding.evidence.push_back(fmt::format("the warm run still compiled {} module(s)", *warm.counted_compiles));
  }
  if (warm.compiled == true && report.warm_module_ms && report.cold_module_ms) {
    const double cold = report.cold_module_ms->median;
    finding.evidence.push_back(fmt::format("warm module work {} = {:.1f}% of cold {} (context, not the trigger)",
                                           milliseconds_text(report.warm_module_ms->median),
                                           cold > 0.0 ? 100.0 * report.warm_module_ms->median / cold : 0.0,
                                           milliseconds_text(cold)));
  }
  for (const auto& line : rebuilt_same) finding.evidence.push_back(line);
  for (const auto& cause : causes) finding.evidence.push_back(cause.seen);
  if (!causes.empty()) {
    finding.headline = causes.front().seen;
    if (causes.size() > 1) finding.headline += fmt::format(" (and {} more)", causes.size() - 1);
  }

  std::vector<std::string> fixes;
  for (const auto& cause : causes) {
    const std::string fix = fix_for(cause.cause);
    if (std::find(fixes.begin(), fixes.end(), fix) == fixes.end()) fixes.push_back(fix);
  }
  const auto changed_hashes = warm.compiled == true ? hashes_not_built_cold(report, warm) : std::vector<std::string>{};
  const HashAdvice advice = report.hash_stability ? hash_advice(*report.hash_stability) : HashAdvice{};
  if (causes.empty() && !changed_hashes.empty() && !advice.fixes.empty()) {
    for (const auto& line : changed_hashes) finding.evidence.push_back(line + ": the module hash varies per run");
    for (const auto& line : advice.evidence) finding.evidence.push_back(line);
    for (const auto& fix : advice.fixes) fixes.push_back(fix);
    finding.headline = advice.headline;
    finding.short_fix = advice.short_fix;
    if (advice.behaviour_changes) {
      finding.fix_effect = FixEffect::changes_behaviour;
      finding.behaviour = "upgrading Warp changes the code it generates for every kernel: compare results";
    }
  } else if (causes.empty() && !changed_hashes.empty()) {
    for (const auto& line : changed_hashes) finding.evidence.push_back(line + ": the module hash varies per run");
    if (report.hash_stability) {
      finding.evidence.push_back("the hash experiments did not move it (" + experiments_text(*report.hash_stability) +
                                 "): the cause is not confirmed");
    }
    fixes.push_back(kHashVariesFix);
  } else if (causes.empty() && !report.instrumentation.attached) {
    finding.evidence.push_back(
        "this report carries no instrumentation, so what the application did to its cache is not recorded: look for "
        "wp.clear_kernel_cache(), wp.clear_lto_cache(), warp.config.cache_kernels = False, a per-run "
        "warp.config.kernel_cache_dir, or CUDA_CACHE_DISABLE, or re-measure with this tool to have it named");
  } else if (causes.empty()) {
    finding.evidence.push_back(
        "no cache clear, cache_kernels=False, kernel_cache_dir change or CUDA_CACHE_DISABLE was seen, and the warm "
        "pass rebuilt a hash the cold pass had built: the cache entry was there but not used (deleted or bypassed "
        "outside Warp's API, e.g. the cache directory removed on exit)");
  }
  if (!fixes.empty()) finding.fix = fmt::format("{}", fmt::join(fixes, " "));
  if (warm.compiled == true) {
    double warm_compiled_ms = 0.0;
    for (const ModuleEvent* event : warm.compiled_events) warm_compiled_ms += event->ms;
    if (!warm.compiled_events.empty()) {
      finding.cost_ms = warm_compiled_ms;
      finding.cost_basis = "the warm pass's compiled loads: paid again on every run that should have been cached";
    } else if (report.warm_module_ms) {
      finding.cost_ms = report.warm_module_ms->median;
      finding.cost_basis = "warm module work (per-load status not recorded): paid again on every run";
    }
  } else {
    double extra = 0.0;
    for (const auto& rebuilt : rebuilt_modules(report)) {
      if (rebuilt.cause == RebuildCause::same_identity)
        extra += rebuilt.total_ms * (rebuilt.builds - 1) / rebuilt.builds;
    }
    finding.cost_ms = extra;
    finding.cost_basis = "the repeated builds of the same identity, at their average cost";
  }
  out.findings.push_back(std::move(finding));
}

}  // namespace wcp::analysis
