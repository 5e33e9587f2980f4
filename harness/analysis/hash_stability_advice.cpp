#include "analysis/hash_stability_advice.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "io/units.h"

namespace wcp::analysis {
namespace {

constexpr const char* kPerRunFix =
    "Make the module hash stable between runs: it changes even with PYTHONHASHSEED and the checkout path fixed, so "
    "something in the kernels' code, their captured constants or their options comes from data, a time or a random "
    "value (a timestamp, a random draw, id(), a value read from a file). Compute it outside the kernel and pass it "
    "as a kernel argument. To keep a deliberate rebuild, clear the cache behind an explicit switch (a --rebuild "
    "flag) instead of letting the hash change.";

constexpr const char* kWarpFunctionFix =
    "Upgrade Warp to 1.17 or later: it names the functions it makes from Python callables (wp.map over a lambda or "
    "a plain function, wp.utils.create_warp_function) from a stable digest of their source instead of Python's "
    "hash() (NVIDIA/warp GH-1696). On this version, map a @wp.func instead (its name is its own). Pinning "
    "PYTHONHASHSEED in CI only masks it: every process with another seed or none (a developer's shell, a worker "
    "started without the variable) still misses, and the cache keeps one copy per seed.";

constexpr const char* kHashSeedFix =
    "Something that feeds the module hash comes from Python's salted hash(): hash() of a str or bytes, or the "
    "iteration order of a set of strings (a module or kernel name built from it, a constant computed from it). Use a "
    "stable digest (hashlib) or a sorted order instead. Pinning PYTHONHASHSEED in CI only masks it: every process "
    "with another seed or none still misses.";

constexpr const char* kCheckoutPathFix =
    "The module's code captures a value derived from where the checkout lives (__file__, os.getcwd(), an absolute "
    "path): a cache built in one directory misses in every other (another runner, another CI workspace path). "
    "Compute the value outside the kernel and pass it as a kernel argument, or derive it from something the same on "
    "every checkout (a path relative to the project root).";

std::string cause_words(HashCause cause) {
  switch (cause) {
    case HashCause::python_hash_seed:
      return "Python's salted hash() (PYTHONHASHSEED)";
    case HashCause::checkout_path:
      return "the checkout path";
    case HashCause::per_run:
      return "data, time or randomness in the program";
    case HashCause::stable:
      return "nothing";
  }
  return "nothing";
}

std::string confirmed_by(const ModuleHashStability& module) {
  switch (module.cause) {
    case HashCause::python_hash_seed:
      return "confirmed by experiment: two processes with one fixed PYTHONHASHSEED agree, one with another seed does "
             "not";
    case HashCause::checkout_path:
      return "confirmed by experiment: the same with every seed, another hash from a copy of the working directory "
             "at another path";
    case HashCause::per_run:
      return "confirmed by experiment: it changes between two processes with the same PYTHONHASHSEED in the same "
             "directory";
    case HashCause::stable:
      return "";
  }
  return "";
}

// The cause and how the experiment showed it, short enough for one line with a module name.
std::string confirmed_briefly(HashCause cause) {
  switch (cause) {
    case HashCause::python_hash_seed:
      return "depends on PYTHONHASHSEED, confirmed by experiment: one seed twice agrees, another differs";
    case HashCause::checkout_path:
      return "depends on the checkout path, confirmed by experiment: a copy at another path differs";
    case HashCause::per_run:
      return "changes per run, confirmed by experiment: two processes with one seed differ";
    case HashCause::stable:
      return "";
  }
  return "";
}

std::string short_fix_for(const ModuleHashStability& module) {
  switch (module.cause) {
    case HashCause::python_hash_seed:
      return module.fixed_in_warp.empty()
                 ? "Feed the module hash from hashlib or a sorted order, not hash() or a set's order."
                 : "Upgrade Warp to " + module.fixed_in_warp + " or later, or map a @wp.func instead of a callable.";
    case HashCause::checkout_path:
      return "Pass the path-derived value as a kernel argument instead of capturing it.";
    case HashCause::per_run:
      return "Pass the per-run value (a time, a random draw, id()) as a kernel argument instead of capturing it.";
    case HashCause::stable:
      return "";
  }
  return "";
}

}  // namespace

std::string experiments_text(const HashStability& stability) {
  std::vector<std::string> names;
  for (const auto& pass : stability.passes) names.push_back(pass.ok ? pass.name : pass.name + " (failed)");
  return fmt::format("{} experiment pass(es) ({}) in {}", stability.passes.size(), fmt::join(names, ", "),
                     milliseconds_text(stability.cost_ms));
}

HashAdvice hash_advice(const HashStability& stability) {
  HashAdvice advice;
  if (stability.modules.empty()) return advice;
  std::vector<HashCause> causes;
  for (const auto& module : stability.modules) {
    advice.evidence.push_back(
        fmt::format("{}: its hash depends on {}, {}", module.module, cause_words(module.cause), confirmed_by(module)));
    for (const auto& line : module.evidence) advice.evidence.push_back("  " + line);
    if (!module.fixed_in_warp.empty()) {
      advice.evidence.push_back(
          fmt::format("  its name is a function Warp made from a Python callable and named from "
                      "hash(); Warp {} names it from a stable digest",
                      module.fixed_in_warp));
    }
    std::string fix = module.cause == HashCause::python_hash_seed
                          ? (module.fixed_in_warp.empty() ? kHashSeedFix : kWarpFunctionFix)
                      : module.cause == HashCause::checkout_path ? kCheckoutPathFix
                                                                 : kPerRunFix;
    if (std::find(advice.fixes.begin(), advice.fixes.end(), fix) == advice.fixes.end()) {
      advice.fixes.push_back(fix);
      advice.short_fix += (advice.short_fix.empty() ? "" : " ") + short_fix_for(module);
    }
    advice.behaviour_changes = advice.behaviour_changes || !module.fixed_in_warp.empty();
  }
  if (!stability.original_path_files.empty()) {
    advice.evidence.push_back(
        fmt::format("the relocated run still loaded kernels from the original path ({}): a value "
                    "taken from those files' paths did not move, so that experiment proves less",
                    fmt::join(stability.original_path_files, ", ")));
  }
  if (!stability.relocation_skipped.empty()) {
    advice.evidence.push_back("the checkout-path experiment did not run: " + stability.relocation_skipped);
  }
  advice.evidence.push_back("the experiments: " + experiments_text(stability));
  const auto& first = stability.modules.front();
  advice.headline = fmt::format("hash of {} {}", first.module, confirmed_briefly(first.cause));
  if (stability.modules.size() > 1) advice.headline += fmt::format(" (and {} more)", stability.modules.size() - 1);
  return advice;
}

double moved_modules_cold_ms(const Report& report, const HashStability& stability) {
  std::set<std::string> moved;
  for (const auto& module : stability.modules) {
    moved.insert(module_group(module.module));
  }
  double total = 0.0;
  for (const auto& event : report.module_events) {
    if (event.pass == Pass::cold && event.status == LoadStatus::compiled && moved.contains(module_group(event.name)))
      total += event.ms;
  }
  return total;
}

}  // namespace wcp::analysis
