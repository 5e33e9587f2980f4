// CS-7 (LTO-dominated builds), CS-10 (backward code nobody uses), CS-11 (unroll budget
// inflating the source) and CS-12 (precompiled header facts): what the generated source and
// artifacts in the kernel cache say.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/diagnose_support.h"

namespace wcp::analysis {
namespace {

constexpr double kLtoShare = 0.5;             // module time outside the native compiler, as a share
constexpr double kUnrollOutlierFactor = 4.0;  // bytes per kernel against the median of the others
constexpr std::uint64_t kUnrollOutlierMinBytes = 100 * 1024;
constexpr std::size_t kManyModules = 5;

void check_lto(const Report& report, Diagnosis& out) {
  if (!loads_on_cuda(report)) {
    not_checked(out, "CS-7", "CUDA only: LTO artifacts come from CUDA builds and this run loaded on the CPU only");
    return;
  }
  const double module = report.cold_module_ms.median, native = report.native_compile_ms.median;
  if (report.cache.lto_artifacts == 0) {
    rule_out(out, "CS-7", "no LTO artifacts in the kernel cache");
    return;
  }
  const double share = module > 0.0 ? (module - native) / module : 0.0;
  if (native <= 0.0 || share <= kLtoShare) {
    rule_out(out, "CS-7",
             fmt::format("{} LTO artifact(s), but module time outside the native compile is {:.0f}% "
                         "(threshold {:.0f}%)",
                         report.cache.lto_artifacts, 100.0 * share, 100.0 * kLtoShare));
    return;
  }
  Finding finding = make_finding("CS-7");
  finding.evidence.push_back(
      fmt::format("{} LTO artifact(s), {} bytes", report.cache.lto_artifacts, report.cache.lto_bytes));
  finding.evidence.push_back(fmt::format("cold module work {} minus native compile {} = {:.0f}% of the module time",
                                         format_ms(module), format_ms(native), 100.0 * share));
  finding.cost_ms = module - native;
  finding.cost_basis = "module time outside the native compiler (includes LTO linking and code generation)";
  finding.fix =
      "Keep the LTO-using tile/MathDx kernels in their own module so other kernels do not pay the link, "
      "and reuse one set of tile shapes so fewer LTO variants are produced.";
  finding.limits = "The LTO kernels themselves still need LTO; the saving is in what shares their module.";
  out.findings.push_back(std::move(finding));
}

bool module_launched_adjoint(const Report& report, const std::string& module) {
  return std::any_of(report.launches.begin(), report.launches.end(),
                     [&](const LaunchRun& run) { return run.launch.adjoint && run.launch.module == module; });
}

void check_backward(const Report& report, const Diagnosis& so_far, Diagnosis& out) {
  if (!report.instrumentation.attached) {
    not_checked(out, "CS-10", "the instrumentation did not attach: launches are unknown");
    return;
  }
  if (report.launches.empty()) {
    not_checked(out, "CS-10", "no launches were recorded, so adjoint use is unknown");
    return;
  }
  if (report.cache.modules.empty()) {
    not_checked(out, "CS-10",
                "no generated source in the kernel cache the tool provided (the application used "
                "another cache, or modules were prebuilt)");
    return;
  }
  // A module already explained by a late enable_backward setting is that finding's, not this one's.
  std::set<std::string> explained;
  for (const auto& finding : so_far.findings) {
    if (finding.id == "config-deadline") explained.insert(finding.module);
  }
  std::set<std::string> launched;
  for (const auto& run : report.launches) launched.insert(run.launch.module);
  Finding finding = make_finding("CS-10");
  bool any_backward = false;
  // The module's last build is the code the program actually ran with.
  std::map<std::string, const ModuleEvent*> last_build;
  for (const ModuleEvent* event : cold_compiled(report)) last_build[event->name] = event;
  for (const auto& [name, event] : last_build) {
    const ModuleSource* source = source_of(report, event->name, event->hash);
    if (source == nullptr || source->backward_kernels == 0) continue;
    any_backward = true;
    if (!launched.contains(name) || module_launched_adjoint(report, name) || explained.contains(name)) continue;
    finding.module = finding.module.empty() ? name : finding.module;
    finding.evidence.push_back(fmt::format(
        "module {} ({}): {} backward entry point(s) generated for {} forward kernel(s), {} bytes of source; none of "
        "its launches was adjoint and no tape ran backward",
        name, event->hash, source->backward_kernels, source->forward_kernels, source->source_bytes));
  }
  if (finding.evidence.empty()) {
    rule_out(out, "CS-10",
             any_backward ? "every module with backward code was differentiated (adjoint launches)"
                          : "no backward code in the generated source");
    return;
  }
  finding.evidence.push_back(fmt::format("{} launch(es) recorded, none adjoint", total_launches(report.launches)));
  finding.cost_basis = "not computable from one run: compare against a run with enable_backward=False";
  finding.fix =
      "In the application's entry point set wp.config.enable_backward = False right after `import warp` "
      "(before any kernel is defined), or wp.set_module_options({\"enable_backward\": False}) in the "
      "module before its first load.";
  finding.limits =
      "Do not disable it inside a library: that narrows every consumer, including those that "
      "differentiate. Leave it on wherever a Tape or adjoint launch may use the kernels.";
  out.findings.push_back(std::move(finding));
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
        out, "CS-11",
        fmt::format("needs 3 or more modules with generated source to compare; this run has {}", per_kernel.size()));
    return;
  }
  std::vector<double> sizes;
  for (const auto& [bytes, module] : per_kernel) sizes.push_back(bytes);
  std::sort(sizes.begin(), sizes.end());
  const double median = sizes[sizes.size() / 2];
  Finding finding = make_finding("CS-11");
  for (const auto& [bytes, module] : per_kernel) {
    if (bytes > kUnrollOutlierFactor * median && module->source_bytes > kUnrollOutlierMinBytes) {
      finding.evidence.push_back(fmt::format("{}: {:.0f} bytes of source per kernel, {:.1f}x the median {:.0f}",
                                             module->directory, bytes, bytes / median, median));
    }
  }
  if (finding.evidence.empty()) {
    rule_out(out, "CS-11",
             fmt::format("no module's source per kernel is above {:.0f}x the median ({:.0f} bytes)",
                         kUnrollOutlierFactor, median));
    return;
  }
  finding.fix =
      "If the big kernels unroll loops, try a lower max_unroll for that module "
      "(wp.set_module_options({\"max_unroll\": N})) and measure both compile and run time.";
  finding.limits =
      "On current evidence max_unroll is a source-size and run-time knob, not a cold-start fix: the "
      "compile time barely moves while kernel speed can drop.";
  out.findings.push_back(std::move(finding));
}

void describe_precompiled_header(const Report& report, Diagnosis& out) {
  const auto& probe = report.instrumentation;
  std::string state = probe.use_precompiled_headers ? (*probe.use_precompiled_headers ? "on" : "off") : "unknown";
  out.facts.push_back(fmt::format("Precompiled header (CS-12): use_precompiled_headers = {}; CUDA toolkit {}.", state,
                                  probe.cuda_toolkit_version.empty() ? "unknown" : probe.cuda_toolkit_version));
  for (const ModuleEvent* event : cold_compiled(report)) {
    if (!event->built_pch) continue;
    out.facts.push_back(fmt::format(
        "Module {} ({}) also built the process's precompiled header: its {} is mostly that one-off cost, not the "
        "module's size; later small modules cost far less. Estimates here never use it as a per-module cost.",
        event->name, event->hash, format_ms(event->ms)));
  }
  const auto compiled = cold_compiled(report);
  const bool cuda = loads_on_cuda(report);
  int major = 0;
  try {
    major = probe.cuda_toolkit_version.empty() ? 0 : std::stoi(probe.cuda_toolkit_version);
  } catch (const std::exception&) {
    major = 0;
  }
  if (!cuda) {
    rule_out(out, "CS-12", "the CPU backend builds its header once per process (see Facts); nothing to change");
    return;
  }
  if (major >= 13) {
    rule_out(
        out, "CS-12",
        fmt::format("CUDA toolkit {}: the precompiled header setting does nothing there", probe.cuda_toolkit_version));
    return;
  }
  if (probe.use_precompiled_headers == false && compiled.size() >= kManyModules) {
    Finding finding = make_finding("CS-12");
    finding.evidence.push_back(fmt::format("use_precompiled_headers is False with {} CUDA module builds (toolkit {})",
                                           compiled.size(), probe.cuda_toolkit_version));
    finding.fix = "Leave warp.config.use_precompiled_headers at True: every build after the first reuses the header.";
    finding.limits = "The first build pays to create the header; with one or two modules there is nothing to gain.";
    out.findings.push_back(std::move(finding));
    return;
  }
  rule_out(
      out, "CS-12",
      fmt::format("use_precompiled_headers = {} with {} module build(s): a sensible setting", state, compiled.size()));
}

}  // namespace

void check_source(const Report& report, Diagnosis& out) {
  check_lto(report, out);
  check_backward(report, out, out);
  check_unroll(report, out);
  describe_precompiled_header(report, out);
}

}  // namespace wcp::analysis
