// CS-7 (LTO-dominated builds), CS-10 (backward code nobody uses) and CS-11 (unroll budget
// inflating the source): what the generated source and artifacts in the kernel cache say.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/deadlines.h"
#include "analysis/diagnose_support.h"
#include "facts/cuda_build_ranking.h"
#include "io/units.h"

namespace wcp::analysis {
namespace {

constexpr double kLtoShare = 0.5;             // module time outside the native compiler, as a share
constexpr double kUnrollOutlierFactor = 4.0;  // bytes per kernel against the median of the others
constexpr std::uint64_t kUnrollOutlierMinBytes = 100 * 1024;
// An unrolled loop repeats its body's line markers once per iteration: at least this share of a
// module's forward markers repeating is what unrolling looks like (a kernel with a loop of 3 lines
// unrolled 16 times repeats about 70 %; Warp's fem modules, large for other reasons, 4 %).
constexpr double kUnrolledMarkerShare = 0.25;

bool unrolled(const ModuleSource& module) {
  if (!module.forward_line_markers || !module.repeated_line_markers || *module.forward_line_markers == 0) return false;
  return static_cast<double>(*module.repeated_line_markers) >=
         kUnrolledMarkerShare * static_cast<double>(*module.forward_line_markers);
}

void check_lto(const Report& report, Diagnosis& out) {
  if (!loads_on_cuda(report)) {
    not_checked(out, Mechanism::lto_dominated,
                "CUDA only: LTO artifacts come from CUDA builds and this run loaded on the CPU only");
    return;
  }
  if (report.cache.lto_artifacts == 0) {
    rule_out(out, Mechanism::lto_dominated, "no LTO artifacts in the kernel cache");
    return;
  }
  if (!report.cold_module_ms || !report.native_compile_ms) {
    not_checked(out, Mechanism::lto_dominated,
                fmt::format("{} LTO artifact(s), but module work or native compile time is unavailable",
                            report.cache.lto_artifacts));
    return;
  }
  const double module = report.cold_module_ms->median, native = report.native_compile_ms->median;
  const double share = module > 0.0 ? (module - native) / module : 0.0;
  if (native <= 0.0 || share <= kLtoShare) {
    rule_out(out, Mechanism::lto_dominated,
             fmt::format("{} LTO artifact(s), but module time outside the native compile is {:.0f}% "
                         "(threshold {:.0f}%)",
                         report.cache.lto_artifacts, 100.0 * share, 100.0 * kLtoShare));
    return;
  }
  Finding finding = make_finding(Mechanism::lto_dominated);
  finding.trigger = fmt::format(
      "{} LTO artifact(s) in the kernel cache after the cold run, with {:.0f}% of module time outside the native "
      "compiler",
      report.cache.lto_artifacts, 100.0 * share);
  finding.evidence.push_back(
      fmt::format("{} LTO artifact(s), {} bytes", report.cache.lto_artifacts, report.cache.lto_bytes));
  finding.evidence.push_back(fmt::format("cold module work {} minus native compile {} = {:.0f}% of the module time",
                                         milliseconds_text(module), milliseconds_text(native), 100.0 * share));
  finding.cost_ms = module - native;
  finding.cost_basis = "module time outside the native compiler (includes LTO linking and code generation)";
  out.findings.push_back(std::move(finding));
}

// Every module with an adjoint launch in this run, sorted. A tape's backward pass launches
// adjoint kernels, so a non-empty list also means a tape ran backward: the program differentiates.
std::vector<std::string> differentiated_modules(const Report& report) {
  std::set<std::string> modules;
  for (const auto& process : report.processes) {
    for (const auto& launch : process.launches.signatures) {
      if (launch.adjoint) modules.insert(launch.module);
    }
  }
  return {modules.begin(), modules.end()};
}

// "adjoint launches of module m" or "of N modules: a, b, c and K more": enough to find them.
std::string adjoint_modules_text(const std::vector<std::string>& differentiated) {
  constexpr std::size_t kNamed = 3;
  if (differentiated.size() == 1) return fmt::format("adjoint launches of module {}", differentiated.front());
  const std::size_t named = std::min(differentiated.size(), kNamed);
  const std::vector<std::string> shown(differentiated.begin(), differentiated.begin() + named);
  return fmt::format("adjoint launches of {} modules: {}{}", differentiated.size(), fmt::join(shown, ", "),
                     differentiated.size() > named ? fmt::format(" and {} more", differentiated.size() - named) : "");
}

// The fix for a program that differentiates some modules. A setting that reaches every module
// (wp.config, or module options that a library copies into the modules it generates, as
// warp.fem does from the calling Python module) would take the backward code those need, so
// only a kernel's own setting is safe, and only where the user writes the kernel.
std::string fix_for_a_differentiating_program(const Finding& finding, const std::vector<std::string>& differentiated) {
  const std::string modules = adjoint_modules_text(differentiated);
  if (finding.yours() || !finding.owner) {
    return fmt::format(
        "Turn backward off only on these modules' kernels, @wp.kernel(enable_backward=False) on each: this program "
        "differentiates ({}), and wp.config.enable_backward = False or wp.set_module_options (which warp.fem "
        "copies into the modules it generates) would also reach those.",
        modules);
  }
  return not_yours_and_ruled_out(
      *finding.owner,
      fmt::format("Leave backward on for these modules: this program differentiates ({}), and every setting that "
                  "reaches them (wp.config.enable_backward at the entry point, or wp.set_module_options in the "
                  "Python module a library generates them from: warp.fem copies it into every module it generates) "
                  "also reaches those.",
                  modules));
}

// A module named with @wp.kernel(module=...) rather than after its kernels' Python module: its
// options are set on it, not through set_module_options in the Python module. Returns that
// Python module. (module="unique" names and warp.fem's generated names are not explicit names.)
std::optional<std::string> named_explicitly(const ModuleEvent& event) {
  if (!event.detail || event.detail->kernels.empty() || unique_module_kernel(event.name)) return std::nullopt;
  const auto& python_module = event.detail->kernels.front().python_module;
  if (python_module.empty() || python_module == event.name || event.name.starts_with(python_module + ".")) {
    return std::nullopt;
  }
  for (const auto& kernel : event.detail->kernels) {
    if (kernel.python_module != python_module || kernel.qualname.find("<locals>") != std::string::npos)
      return std::nullopt;
  }
  return python_module;
}

// A module already explained by a late enable_backward setting is config-deadline's, not
// unused-backward's: the receipts say which modules the application's setting missed for that reason.
std::set<std::string> missed_by_late_backward_setting(const Diagnosis& so_far) {
  std::set<std::string> explained;
  for (const auto& receipt : so_far.option_receipts.value_or(std::vector<OptionReceipt>{})) {
    if (receipt.write.by_warp || receipt.write.api != OptionApi::config || receipt.write.key != "enable_backward")
      continue;
    for (const auto& miss : receipt.missed) {
      if (miss.reason == MissReason::set_after_module_created) explained.insert(miss.module);
    }
  }
  return explained;
}

void check_backward(const Report& report, const Diagnosis& so_far, Diagnosis& out) {
  if (!report.instrumentation.attached) {
    not_checked(out, Mechanism::unused_backward, "the instrumentation did not attach: launches are unknown");
    return;
  }
  if (!has_launch_record(report) || total_launches(report) == 0) {
    not_checked(out, Mechanism::unused_backward, "no launches were recorded, so adjoint use is unknown");
    return;
  }
  if (report.cache.modules.empty()) {
    not_checked(out, Mechanism::unused_backward,
                "no generated source in the kernel cache the tool provided (the application used "
                "another cache, or modules were prebuilt)");
    return;
  }
  const std::set<std::string> explained = missed_by_late_backward_setting(so_far);
  const std::vector<std::string> differentiated = differentiated_modules(report);
  const std::set<std::string> launched = launched_modules(report);
  const CodeOwnership ownership(report);
  FindingsByOwner findings(Mechanism::unused_backward, ownership);
  bool any_backward = false;
  std::vector<std::string> flagged;  // the modules the findings are about, in name order
  // Each finding's modules, by its first (Finding::module): the headline names them.
  std::map<std::string, std::vector<std::string>> modules_of;
  // The module's last build is the code the program actually ran with.
  std::map<std::string, const ModuleEvent*> last_build;
  for (const ModuleEvent* event : cold_compiled_events(report)) last_build[event->name] = event;
  for (const auto& [name, event] : last_build) {
    const ModuleSource* source = source_of(report, event->name, event->hash);
    if (source == nullptr || source->backward_kernels == 0) continue;
    any_backward = true;
    if (!launched.contains(name) || std::binary_search(differentiated.begin(), differentiated.end(), name) ||
        explained.contains(name))
      continue;
    Finding& finding = findings.for_module(name);
    flagged.push_back(name);
    if (finding.module.empty()) finding.module = name;
    modules_of[finding.module].push_back(name);
    if (finding.trigger.empty()) {
      finding.trigger = fmt::format(
          "the generated source of {} ({}) has {} backward entry point(s) and the launch "
          "record has no adjoint launch of it",
          name, event->hash, source->backward_kernels);
    }
    finding.evidence.push_back(fmt::format(
        "module {} ({}): {} backward entry point(s) generated for {} forward kernel(s), {} bytes of source; none of "
        "its launches was adjoint{}",
        name, event->hash, source->backward_kernels, source->forward_kernels, source->source_bytes,
        differentiated.empty() ? " and no tape ran backward" : ""));
    if (const auto python_module = named_explicitly(*event); python_module && finding.yours()) {
      finding.evidence.push_back(fmt::format(
          "module {} is named explicitly (its kernels are in Python module {}): set_module_options in {} does not "
          "reach it",
          name, *python_module, *python_module));
      finding.fix =
          fmt::format(
              "Before its first load, wp.get_module(\"{}\").options[\"enable_backward\"] = False (the module is named "
              "explicitly, so its options live on it, not on {}); or @wp.kernel(enable_backward=False) on its "
              "kernels. ",
              name, *python_module) +
          finding.fix;
    }
    if (const auto cuda = cuda_backward_cost(report, name)) {
      // The CUDA build was compiled and traced: its backward code's time is a measurement.
      std::vector<std::string> kernels;
      for (std::size_t at = 0; at < std::min<std::size_t>(3, cuda->kernels.size()); ++at)
        kernels.push_back(fmt::format("{} {:.0f} ms", cuda->kernels[at].first, cuda->kernels[at].second));
      finding.evidence.push_back(
          fmt::format("its CUDA build for sm_{} spent {:.0f} ms on backward code (NVRTC's trace: {})", cuda->arch,
                      cuda->ms, fmt::join(kernels, ", ")));
      finding.cost_ms = finding.cost_ms.value_or(0.0) + cuda->ms;
      finding.cost_estimated = false;
      finding.cost_basis = fmt::format(
          "measured: the backward code's time in the CUDA build for sm_{} (NVRTC's trace, `--cuda-arch`); the CPU "
          "build's share is not measured",
          cuda->arch);
    } else if (!finding.cost_ms) {
      finding.cost_basis = "not computable from one run: compare against a run with enable_backward=False";
    }
  }
  if (findings.empty()) {
    rule_out(out, Mechanism::unused_backward,
             any_backward ? "every module with backward code was differentiated (adjoint launches)"
                          : "no backward code in the generated source");
    return;
  }
  Diagnosis grouped;
  findings.emit(grouped);
  for (auto& finding : grouped.findings) {
    const std::string_view standard_fix = info(Mechanism::unused_backward).fix;
    if (!differentiated.empty()) {
      finding.evidence.push_back(fmt::format("{} launch(es) recorded, with {} (a tape ran backward), none of these",
                                             total_launches(report), adjoint_modules_text(differentiated)));
      // Every program-wide fix (the standard one, the owners' variants) reaches the
      // differentiated modules too; a named module's own setting (the prefix) does not.
      const std::size_t standard = finding.fix.rfind(standard_fix);
      const std::string own_module =
          standard == std::string::npos || standard == 0 ? std::string() : finding.fix.substr(0, standard);
      finding.fix = own_module + fix_for_a_differentiating_program(finding, differentiated);
    } else {
      finding.evidence.push_back(fmt::format("{} launch(es) recorded, none adjoint", total_launches(report)));
    }
    if (differentiated.empty() && finding.yours() && finding.fix == standard_fix) {
      // "Right after import warp" is too late where the entry script imports its kernels first:
      // name the line of this program that is early enough.
      std::vector<std::string> modules;
      for (const auto& name : flagged) {
        if (!finding.owner || ownership.of_module(name).describe() == finding.owner->describe())
          modules.push_back(name);
      }
      if (const auto line = setting_deadline(report, modules)) {
        finding.fix = config_deadline_advice(*line, "enable_backward", "False");
        finding.facts.fix = fix_with<&FixAction::settings>(FixKind::set_before_deadline,
                                                           std::vector<SettingAt>{{"enable_backward", "False", *line}});
      }
    }
    finding.facts.event = EventKind::backward_never_launched;
    finding.facts.modules = modules_of[finding.module];
    out.findings.push_back(std::move(finding));
  }
}

// The Warp module a cache directory holds: "wp_<name>_<hash>".
std::string module_of_directory(const std::string& directory) {
  const auto hash = directory.rfind('_');
  if (!directory.starts_with("wp_") || hash == std::string::npos || hash <= 3) return directory;
  return directory.substr(3, hash - 3);
}

void check_unroll(const Report& report, Diagnosis& out) {
  std::vector<std::pair<double, const ModuleSource*>> per_kernel;
  for (const auto& module : report.cache.modules) {
    if (module.forward_kernels > 0) {
      per_kernel.emplace_back(static_cast<double>(module.source_bytes) / module.forward_kernels, &module);
    }
  }
  if (per_kernel.size() < 3) {
    not_checked(
        out, Mechanism::unroll_budget,
        fmt::format("needs 3 or more modules with generated source to compare; this run has {}", per_kernel.size()));
    return;
  }
  std::vector<double> sizes;
  for (const auto& [bytes, module] : per_kernel) sizes.push_back(bytes);
  std::sort(sizes.begin(), sizes.end());
  const double median = sizes[sizes.size() / 2];
  if (median <= 0.0) {
    not_checked(out, Mechanism::unroll_budget, "the median module has no generated source per kernel to compare with");
    return;
  }
  const CodeOwnership ownership(report);
  FindingsByOwner findings(Mechanism::unroll_budget, ownership);
  std::vector<std::string> large_not_unrolled;
  for (const auto& [bytes, module] : per_kernel) {
    if (bytes > kUnrollOutlierFactor * median && module->source_bytes > kUnrollOutlierMinBytes) {
      // Size alone is no evidence of unrolling: an unrolled loop emits its body's Python lines
      // once per iteration, so the forward code's line markers repeat. Without that (or without
      // the markers, a report before schema 10) the module is large for another reason.
      if (!unrolled(*module)) {
        large_not_unrolled.push_back(
            fmt::format("{} ({:.1f}x the median per kernel; {})", module->directory, bytes / median,
                        module->forward_line_markers
                            ? fmt::format("{} of {} source-line markers repeat",
                                          module->repeated_line_markers.value_or(0), *module->forward_line_markers)
                            : std::string("no line markers recorded")));
        continue;
      }
      const std::string name = module_of_directory(module->directory);
      Finding& finding = findings.for_module(name);
      if (finding.module.empty()) finding.module = name;
      if (finding.trigger.empty()) {
        finding.trigger = fmt::format(
            "generated source of {}: {:.0f} bytes per kernel, {:.1f}x the median of the "
            "other modules",
            module->directory, bytes, bytes / median);
      }
      finding.evidence.push_back(fmt::format("{}: {:.0f} bytes of source per kernel, {:.1f}x the median {:.0f}",
                                             module->directory, bytes, bytes / median, median));
      finding.evidence.push_back(fmt::format("{}: {} of its {} source-line markers repeat a line (unrolled loops)",
                                             module->directory, *module->repeated_line_markers,
                                             *module->forward_line_markers));
      if (const auto cuda = cuda_cost_of_modules(report, {name}); cuda && cuda->optimizer_ms) {
        // The CUDA build measured (`--cuda-arch`): whether the optimizer, which unrolled code
        // feeds, is where its time goes, and on which kernels.
        std::vector<std::string> kernels;
        for (std::size_t at = 0; at < std::min<std::size_t>(3, cuda->optimizer_kernels.size()); ++at)
          kernels.push_back(
              fmt::format("{} {:.0f} ms", cuda->optimizer_kernels[at].first, cuda->optimizer_kernels[at].second));
        finding.evidence.push_back(fmt::format(
            "its CUDA build for sm_{} (measured, NVRTC's trace): the optimizer took {:.0f} ms of {:.0f} ms of CPU{}{}",
            cuda->arch, *cuda->optimizer_ms, cuda->cpu_ms, kernels.empty() ? "" : "; most on ",
            fmt::join(kernels, ", ")));
      }
    }
  }
  if (findings.empty()) {
    if (!large_not_unrolled.empty()) {
      rule_out(out, Mechanism::unroll_budget,
               fmt::format("large generated source, but its line markers show no unrolled loop: {}",
                           fmt::join(large_not_unrolled, ", ")));
      return;
    }
    rule_out(out, Mechanism::unroll_budget,
             fmt::format("no module's source per kernel is above {:.0f}x the median ({:.0f} bytes)",
                         kUnrollOutlierFactor, median));
    return;
  }
  findings.emit(out);
}

}  // namespace

void check_source(const Report& report, Diagnosis& out) {
  check_lto(report, out);
  check_backward(report, out, out);
  check_unroll(report, out);
}

}  // namespace wcp::analysis
