#include "measure/hash_experiments.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include "instrument/injection.h"
#include "measure/load_events.h"
#include "measure/relocated_copy.h"
#include "run/interrupt_watch.h"
#include "run/scratch_dir.h"

namespace wcp::measure {
namespace {

// The seeds: one twice, then another. Any fixed integers do; 0 is also what CI recipes pin.
constexpr const char* kSeed = "0";
constexpr const char* kOtherSeed = "1";
constexpr std::size_t kVariedLines = 5;  // enough to see what moved

using IdentitySet = std::set<std::string>;

IdentitySet identities_of(const std::vector<ModuleEvent>& events) {
  IdentitySet identities;
  for (const auto& event : events) {
    if (event.status != LoadStatus::error) identities.insert(event.name + " " + event.hash);
  }
  return identities;
}

// The group's identities in one pass; nullopt when the pass decides nothing.
using GroupSets = std::map<std::string, IdentitySet>;

GroupSets groups_of(const std::vector<ModuleEvent>& events) {
  GroupSets groups;
  for (const auto& event : events) {
    if (event.status != LoadStatus::error) groups[module_group(event.name)].insert(event.name + " " + event.hash);
  }
  return groups;
}

std::string identities_text(const IdentitySet& identities) {
  return identities.empty() ? std::string("nothing") : fmt::format("{}", fmt::join(identities, ", "));
}

// Warp before 1.17 named a function made from a Python callable "func_" + hex(hash(source))[-8:]
// and wp.map's module "map_" + that name; 1.17 took a stable digest (NVIDIA/warp GH-1696, its
// changelog fragment 1696.fixed: cross-process kernel cache reuse for lambdas and callables
// passed to wp.map() or wp.utils.create_warp_function()).
bool warp_named_it_from_hash(const std::string& group, const std::string& warp_version) {
  const bool function_name = group == "func_*" || (group.size() > 7 && group.ends_with("_func_*"));
  if (!function_name) return false;
  int major = 0, minor = 0;
  if (std::sscanf(warp_version.c_str(), "%d.%d", &major, &minor) != 2) return false;
  return major < 1 || (major == 1 && minor < 17);
}

// Kernels of one group whose content hash differs between two passes: which code moved.
std::vector<std::string> moved_kernels(const std::vector<ModuleEvent>& here, const std::vector<ModuleEvent>& there,
                                       const std::string& group) {
  std::map<std::string, std::pair<std::string, std::string>> kernels;  // key -> (here, there)
  std::map<std::string, std::string> sites;
  const auto collect = [&](const std::vector<ModuleEvent>& events, bool first) {
    for (const auto& event : events) {
      if (module_group(event.name) != group || !event.detail) continue;
      for (const auto& kernel : event.detail->kernels) {
        if (kernel.hash.empty()) continue;
        (first ? kernels[kernel.key].first : kernels[kernel.key].second) = kernel.hash;
        sites[kernel.key] = short_file(kernel.file) + ":" + std::to_string(kernel.line);
      }
    }
  };
  collect(here, true);
  collect(there, false);
  std::vector<std::string> moved;
  for (const auto& [key, hashes] : kernels) {
    if (hashes.first.empty() || hashes.second.empty() || hashes.first == hashes.second) continue;
    moved.push_back(
        fmt::format("kernel {} ({}): content hash {} from the original path, {} from the copy (what it "
                    "captures or its code differs; the instrumentation does not record the captured "
                    "values themselves)",
                    key, sites[key], hashes.first, hashes.second));
  }
  return moved;
}

ExperimentRecord run_experiment(const MeasureOptions& base, const std::string& name, const std::string& seed,
                                const RelocatedCopy* relocated, const std::filesystem::path& cache_dir,
                                const std::filesystem::path& instrumentation_dir, InterruptWatch& interrupts) {
  MeasureOptions options = base;
  options.check_output = false;
  options.extra_environment["PYTHONHASHSEED"] = seed;
  if (relocated != nullptr) {
    options.command = relocate_arguments(base.command, base.cwd, relocated->root);
    options.cwd = relocated->root;
  }
  ScratchDir scratch;
  scratch.make_subdir("cuda-cache");
  const PassRecord record = run_instrumented_pass(options, scratch, cache_dir, instrumentation_dir, interrupts);
  ExperimentRecord experiment;
  experiment.pass.name = name;
  experiment.pass.seed = seed;
  experiment.pass.relocated = relocated != nullptr;
  experiment.pass.wall_ms = record.run.wall_ms;
  experiment.pass.ok = record.run.succeeded();
  if (!experiment.pass.ok) {
    experiment.pass.failure =
        record.run.timed_out ? "timed out" : fmt::format("exited with status {}", record.run.exit_code);
    return experiment;
  }
  const ObservedLoads loads = observe_loads(record);
  if (!loads.observed) {
    experiment.pass.failure = "its module loads were not observed: " + loads.unobserved;
    return experiment;
  }
  experiment.events = loads.events;
  const IdentitySet identities = identities_of(loads.events);
  experiment.pass.identities = std::vector<std::string>(identities.begin(), identities.end());
  std::set<std::string> files;
  for (const auto& event : loads.events) {
    if (!event.detail) continue;
    for (const auto& kernel : event.detail->kernels) {
      if (!kernel.file.empty()) files.insert(kernel.file);
    }
  }
  experiment.loaded_files.assign(files.begin(), files.end());
  return experiment;
}

}  // namespace

std::vector<std::string> varied_hashes(const std::vector<SampleRecord>& samples) {
  std::vector<std::string> varied;
  std::optional<std::pair<int, IdentitySet>> first_cold;
  for (const auto& sample : samples) {
    if (!sample.cold.run.succeeded()) continue;
    const ObservedLoads cold = observe_cold_loads(sample);
    if (!cold.observed) continue;
    const IdentitySet cold_identities = identities_of(cold.events);
    if (!first_cold) {
      first_cold.emplace(sample.index, cold_identities);
    } else if (first_cold->second != cold_identities) {
      varied.push_back(fmt::format("samples {} and {} loaded other identities in their cold passes", first_cold->first,
                                   sample.index));
    }
    if (!sample.warm || !sample.warm->run.succeeded()) continue;
    const ObservedLoads warm = observe_loads(*sample.warm);
    for (const auto& event : warm.events) {
      if (event.status != LoadStatus::compiled || cold_identities.contains(event.name + " " + event.hash)) continue;
      varied.push_back(fmt::format("sample {}: the warm pass built {} {}, which its cold pass had not", sample.index,
                                   event.name, event.hash));
    }
  }
  if (varied.size() > kVariedLines) varied.resize(kVariedLines);
  return varied;
}

void compare_experiments(const std::vector<ExperimentRecord>& passes, const std::string& original_cwd,
                         const std::string& warp_version, HashStability& out) {
  const auto usable = [&](std::size_t index) -> const ExperimentRecord* {
    return index < passes.size() && passes[index].pass.identities ? &passes[index] : nullptr;
  };
  const ExperimentRecord* seed = usable(0);
  const ExperimentRecord* again = usable(1);
  const ExperimentRecord* other = usable(2);
  const ExperimentRecord* relocated = usable(3);
  for (const auto& pass : passes) out.passes.push_back(pass.pass);
  if (relocated != nullptr) {
    for (const auto& file : relocated->loaded_files) {
      if (inside(file, original_cwd)) out.original_path_files.push_back(file);
    }
  }
  if (seed == nullptr) return;  // nothing to compare against: undecided

  const GroupSets base = groups_of(seed->events);
  std::set<std::string> group_names;
  for (const ExperimentRecord* pass : {seed, again, other, relocated}) {
    if (pass == nullptr) continue;
    for (const auto& [group, identities] : groups_of(pass->events)) group_names.insert(group);
  }
  const auto set_in = [](const ExperimentRecord* pass, const std::string& group) -> std::optional<IdentitySet> {
    if (pass == nullptr) return std::nullopt;
    const GroupSets groups = groups_of(pass->events);
    const auto found = groups.find(group);
    return found == groups.end() ? IdentitySet{} : found->second;
  };
  for (const auto& group : group_names) {
    const IdentitySet here = set_in(seed, group).value_or(IdentitySet{});
    const auto twice = set_in(again, group);
    const auto reseeded = set_in(other, group);
    const auto moved = set_in(relocated, group);
    ModuleHashStability module;
    module.module = here.empty() ? group : here.begin()->substr(0, here.begin()->find(' '));
    if (twice && *twice != here) {
      module.cause = HashCause::per_run;
      module.evidence.push_back(
          fmt::format("PYTHONHASHSEED={} twice: {}, then {}", kSeed, identities_text(here), identities_text(*twice)));
    } else if (reseeded && *reseeded != here) {
      module.cause = HashCause::python_hash_seed;
      module.evidence.push_back(fmt::format("PYTHONHASHSEED={} twice: {} both times; PYTHONHASHSEED={}: {}", kSeed,
                                            identities_text(here), kOtherSeed, identities_text(*reseeded)));
      if (warp_named_it_from_hash(group, warp_version)) module.fixed_in_warp = "1.17";
    } else if (moved && *moved != here) {
      module.cause = HashCause::checkout_path;
      module.evidence.push_back(
          fmt::format("the same with PYTHONHASHSEED {} and {} ({}); from a copy of the working "
                      "directory at {}: {}",
                      kSeed, kOtherSeed, identities_text(here), out.relocated_to, identities_text(*moved)));
      for (auto& line : moved_kernels(seed->events, relocated->events, group))
        module.evidence.push_back(std::move(line));
    } else {
      continue;
    }
    out.modules.push_back(std::move(module));
  }
  const bool all_ran = again && other && relocated;
  if (!out.modules.empty()) {
    out.stable = false;
  } else if (all_ran) {
    out.stable = true;
  }
}

HashStability run_hash_experiments(const MeasureOptions& options, const std::vector<std::string>& varied,
                                   const std::string& warp_version, InterruptWatch& interrupts,
                                   ProgressListener& progress) {
  const auto started = std::chrono::steady_clock::now();
  HashStability stability;
  stability.trigger = varied.empty() ? "asked" : "hash_varied";
  stability.varied = varied;
  ScratchDir scratch("warp-compile-probe-hashes-");
  const auto cache_dir = scratch.make_subdir("warp-cache");
  const auto instrumentation_dir = scratch.make_subdir("instrumentation");
  instrument::write_instrumentation(instrumentation_dir);

  constexpr int kPasses = 4;
  progress.plan(3);  // two processes with one seed, one with another; the relocated one is planned below
  progress.arm("hash experiments");
  std::vector<ExperimentRecord> passes;
  const auto run = [&](const std::string& name, const std::string& seed, const RelocatedCopy* copy) {
    const int index = static_cast<int>(passes.size()) + 1;
    progress.pass_started(index, kPasses, Pass::cold);
    passes.push_back(run_experiment(options, name, seed, copy, cache_dir, instrumentation_dir, interrupts));
    progress.pass_finished(index, kPasses, Pass::cold, passes.back().pass.wall_ms, passes.back().pass.ok);
    interrupts.throw_if_interrupted();
  };
  run("seed " + std::string(kSeed), kSeed, nullptr);
  run("seed " + std::string(kSeed) + " again", kSeed, nullptr);
  run("seed " + std::string(kOtherSeed), kOtherSeed, nullptr);
  const RelocatedCopy copy = copy_working_directory(options.cwd);
  if (copy.root.empty()) {
    stability.relocation_skipped = copy.skipped;
  } else {
    stability.relocated_to = copy.root.string();
    stability.copied_bytes = static_cast<double>(copy.bytes);
    progress.plan(1);
    run("relocated", kSeed, &copy);
  }
  progress.arm("");
  compare_experiments(passes, options.cwd.string(), warp_version, stability);
  stability.cost_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return stability;
}

}  // namespace wcp::measure
