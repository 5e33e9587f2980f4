// never-launched: every kernel of a loaded module is code-generated and compiled, launched or
// not. Per module, the kernels it was built with against the kernels this run launched, with
// an estimate of the build time the never-launched ones cost (facts/kernel_usage.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "analysis/diagnose_support.h"
#include "facts/test_session.h"
#include "io/units.h"

namespace wcp::analysis {
namespace {

// Below both of these an unused kernel is not worth a user's attention.
constexpr double kMinMs = 50.0;
constexpr double kMinShareOfWork = 0.02;
constexpr std::size_t kNamesShown = 8;

std::string kernel_names(const ModuleUse& module) {
  std::vector<std::string> names;
  for (const auto& kernel : module.kernels) {
    if (!kernel.ran()) names.push_back(kernel.key);
  }
  const std::size_t hidden = names.size() > kNamesShown ? names.size() - kNamesShown : 0;
  names.resize(std::min(names.size(), kNamesShown));
  std::string text = fmt::format("{}", fmt::join(names, ", "));
  if (hidden > 0) text += fmt::format(" and {} more", hidden);
  return text;
}

std::string compiled_text(const ModuleUse& module) {
  const auto backward = std::count_if(module.kernels.begin(), module.kernels.end(),
                                      [](const KernelUse& kernel) { return kernel.backward_generated; });
  std::string text = fmt::format("{} kernel(s) compiled", module.kernels.size());
  if (backward > 0) text += fmt::format(" (backward code for {})", backward);
  text += fmt::format(", {} launched", module.launched());
  if (module.launched_adjoint() > 0) text += fmt::format(" ({} adjoint)", module.launched_adjoint());
  return text;
}

}  // namespace

void check_kernel_usage(const Report& report, Diagnosis& out) {
  if (!report.instrumentation.attached) {
    not_checked(out, Mechanism::never_launched, "the instrumentation did not attach: kernels and launches are unknown");
    return;
  }
  if (!has_launch_record(report)) {
    not_checked(out, Mechanism::never_launched, "no launch record, so which kernels ran is unknown");
    return;
  }
  out.kernel_usage = kernel_usage(report);
  if (out.kernel_usage.empty()) {
    not_checked(out, Mechanism::never_launched, "no compiled module carries a snapshot of its kernels");
    return;
  }
  const double work = report.cold_module_ms ? report.cold_module_ms->median : 0.0;
  const double threshold = std::max(kMinMs, kMinShareOfWork * work);
  const CodeOwnership ownership(report);
  FindingsByOwner findings(Mechanism::never_launched, ownership);
  std::vector<std::string> loaded_unused;
  const TestSession session(report);
  std::vector<std::string> part_of_suite;  // never-launched kernels of code a test run used in part
  for (const auto& module : out.kernel_usage) {
    if (module.never_launched() == 0) continue;
    const auto& ms = module.unlaunched_ms;
    if (ms && *ms < threshold) continue;
    if (module.launched() == 0) {
      // Loaded, and none of its kernels launched: an explicit load or a preload (a test of
      // loading does it on purpose). Moving its kernels elsewhere would move the same build, so
      // the advice to move them is wrong here; the load itself is what the program asked for.
      loaded_unused.push_back(fmt::format("{} on {} ({} kernel(s), built {} time(s), {})", module.name, module.device,
                                          module.kernels.size(), module.builds, milliseconds_text(module.build_ms)));
      continue;
    }
    // Under a test runner, a module of the user's own code that the tests only call (its
    // kernels are not in a test file) is a library this run used one part of: what it did not
    // launch is a fact for the library's maintainers, never a reason to restructure it.
    const bool tests_define_all = std::all_of(module.kernels.begin(), module.kernels.end(), [&](const KernelUse& k) {
      return k.ran() || session.defines(k.file, k.python_module);
    });
    if (session.present() && ownership.of_module(module.name).users_to_change() && !tests_define_all) {
      part_of_suite.push_back(fmt::format("{} on {}: {}; never launched: {}", module.name, module.device,
                                          compiled_text(module), kernel_names(module)));
      continue;
    }
    Finding& finding = findings.for_module(module.name);
    if (finding.module.empty()) finding.module = module.name;
    finding.facts.event = EventKind::kernels_never_launched;
    finding.facts.modules.push_back(module.name);
    for (const auto& kernel : module.kernels) {
      if (kernel.ran()) continue;
      KernelFact fact{kernel.key, std::nullopt};
      if (!kernel.file.empty() && kernel.line > 0) fact.site = site_at(kernel.file, kernel.line);
      finding.facts.kernels.push_back(std::move(fact));
    }
    if (finding.trigger.empty()) {
      finding.trigger = fmt::format("the load snapshot of {} lists {} kernel(s) that no launch of the run used: {}",
                                    module.name, module.never_launched(), kernel_names(module));
    }
    std::string line = fmt::format("module {} on {}: {}; never launched: {}", module.name, module.device,
                                   compiled_text(module), kernel_names(module));
    if (module.unlaunched_share)
      line += fmt::format(" ({:.0f}% of its generated source)", 100.0 * *module.unlaunched_share);
    line += fmt::format("; built {} time(s), {}", module.builds, milliseconds_text(module.build_ms));
    if (ms) {
      line += fmt::format(", of which ≈ {} for the never-launched kernels", milliseconds_text(*ms));
      finding.cost_ms = finding.cost_ms.value_or(0.0) + *ms;
      finding.cost_estimated = true;
    } else {
      line += module.built_pch ? " (that build also made the precompiled header, so no estimate)"
                               : " (no per-kernel split of its source, so no estimate)";
    }
    finding.evidence.push_back(std::move(line));
    finding.cost_basis =
        "estimate: each build's time × the never-launched kernels' share of its generated source (a module none of "
        "whose kernels ran counts whole); verify by moving them out and running `compare`";
  }
  if (!loaded_unused.empty()) {
    out.facts.push_back(fmt::format(
        "Loaded without launching any of their kernels (an explicit load or a preload; moving their kernels would "
        "move the same build): {}",
        fmt::join(loaded_unused, "; ")));
  }
  if (!part_of_suite.empty()) {
    out.facts.push_back(fmt::format(
        "never-launched, for the maintainers of the code these tests call: this run of a test suite (one part of "
        "its users) never launched some kernels of {}. Another test or program may launch them, so one run is no "
        "reason to move them; measured over the whole suite as one command, it would show which kernels no test "
        "uses.",
        fmt::join(part_of_suite, "; ")));
  }
  if (findings.empty() && !part_of_suite.empty()) {
    not_checked(out, Mechanism::never_launched,
                "this run of a test suite used part of the code it tests, so what it did not launch is a fact, not "
                "a change to make (see the facts)");
    return;
  }
  if (findings.empty()) {
    rule_out(out, Mechanism::never_launched,
             fmt::format("every compiled kernel was launched, or the ones that were not cost under {} (estimate)",
                         milliseconds_text(threshold)));
    return;
  }
  findings.emit(out);
}

}  // namespace wcp::analysis
