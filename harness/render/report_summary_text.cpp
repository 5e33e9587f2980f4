#include "render/report_summary_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <ostream>
#include <sstream>

#include "facts/queries.h"
#include "render/cache_audit_text.h"
#include "render/cuda_build_text.h"
#include "render/wrap.h"

namespace wcp::render {
namespace {

// How many of the slowest builds and of the rebuilt modules the screen names.
constexpr std::size_t kNamed = 3;

void render_title(const Report& report, std::ostream& out) {
  std::ostringstream title;
  render_report_title(report, title);
  std::istringstream lines(title.str());
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) print_fitted(line, "         ", out);
  }
}

void render_warnings(const Report& report, const ClockFacts& clocks, std::ostream& out) {
  if (report.output_check) {
    out << (report.output_check->same() ? "Output check: the same with and without the probe\n"
                                        : "OUTPUT CHANGED UNDER THE PROBE: see --verbose for each difference\n");
  }
  if (report.hash_stability) {
    // The hash experiments' answer in one line; the finding (CS-2) carries the evidence.
    const HashStability& hashes = *report.hash_stability;
    std::vector<std::string> moved;
    for (const auto& module : hashes.modules) moved.push_back(module.module + " (" + to_string(module.cause) + ")");
    const std::string answer =
        hashes.stable == true               ? "the same identities across another seed and another checkout path"
        : hashes.stable == false            ? fmt::format("identities moved: {}", fmt::join(moved, ", "))
        : hashes.relocation_skipped.empty() ? std::string("not decided: an experiment pass failed")
                                            : "not decided: " + hashes.relocation_skipped;
    print_wrapped(fmt::format("{} ({} passes, {:.1f} s)", answer, hashes.passes.size(), hashes.cost_ms / 1000.0),
                  "Hash stability: ", "  ", out);
  }
  if (clocks.builds_overlapped) {
    print_wrapped(fmt::format("BUILDS OVERLAPPED: summed module timers are {:.2f}x the elapsed compile time; judge "
                              "changes on compile elapsed.",
                              *report.overlap_factor),
                  "", "  ", out);
  }
  if (!report.loads_observed) print_wrapped(report.loads_unobserved, "MODULE LOADS NOT OBSERVED: ", "  ", out);
  if (clocks.compiled_nothing) {
    out << "NO MODULES COMPILED: the command did not reach Warp, or a cache it should not have seen served it\n";
  }
}

void render_builds(const ReportView& view, std::ostream& out) {
  const Report& report = view.report;
  if (report.loads_observed) {
    out << fmt::format("Identities {}  modules {}  cold events: {} compiled, {} cached, {} error\n", report.identities,
                       report.modules, report.compiled_events, report.cached_events, report.error_events);
  }
  if (!view.identities.empty()) {
    std::vector<std::string> slowest;
    for (std::size_t at = 0; at < std::min(kNamed, view.identities.size()); ++at) {
      const auto& identity = view.identities[at].identity;
      slowest.push_back(fmt::format("{}{} {:.1f} ms", identity.name, identity.hash.empty() ? "" : " " + identity.hash,
                                    view.identities[at].ms));
    }
    print_wrapped(fmt::format("{}", fmt::join(slowest, ", ")), "Slowest builds: ", "  ", out);
  }
  if (!view.rebuilt.empty()) {
    std::vector<std::string> rebuilt;
    for (std::size_t at = 0; at < std::min(kNamed, view.rebuilt.size()); ++at) {
      const auto& module = view.rebuilt[at];
      rebuilt.push_back(fmt::format("{} ({} builds, {:.1f} ms, {})", module.name, module.builds, module.total_ms,
                                    to_string(module.cause)));
    }
    const std::size_t more = view.rebuilt.size() - rebuilt.size();
    print_wrapped(fmt::format("{}{}", fmt::join(rebuilt, ", "), more > 0 ? fmt::format(" and {} more", more) : ""),
                  "Built more than once: ", "  ", out);
  }
}

}  // namespace

void render_report_summary_text(const ReportView& view, std::ostream& out) {
  const Report& report = view.report;
  render_title(report, out);
  if (!report.measured()) {
    out << "NOT MEASURED: every sample failed, so there is no measurement to report.\n";
  } else {
    constexpr std::string_view no_warm = "no successful warm run";
    const std::string no_loads = report.loads_observed ? "a sample's loads were not observed" : report.loads_unobserved;
    const auto row = [&out](std::string_view label, const std::optional<Summary>& clock, std::string_view why) {
      print_fitted(fmt::format("{:<18}{}", label, median_mad(clock, why)), "         ", out);
    };
    row("Cold module work", report.cold_module_ms, no_loads);
    row("Cold module CPU", report.cold_module_cpu_ms,
        report.module_cpu_unavailable.empty() ? std::string_view(no_loads)
                                              : std::string_view(report.module_cpu_unavailable));
    row("Compile elapsed", view.clocks.compile_elapsed,
        report.compile_elapsed_ms || report.warm_wall_ms ? "no warm wall below its cold wall" : no_warm);
    row("Warm module work", report.warm_module_ms,
        report.warm_wall_ms ? "the warm run's loads were not observed" : no_warm);
    render_warnings(report, view.clocks, out);
    render_builds(view, out);
    if (view.tests) render_slowest_tests(*view.tests, out);
  }
  if (report.cache_audit) render_cache_audit_summary(*report.cache_audit, out);
  if (view.cuda) render_cuda_build_summary(*view.cuda, out);
  for (const auto& sample : report.sample_results) {
    if (!sample.cold_ok)
      print_wrapped(sample.failure, fmt::format("Sample {} failed: the command ", sample.index), "  ", out);
  }
  out << "`measure --verbose`: the full report (walls, processes, every build and rebuild, notes)\n";
}

}  // namespace wcp::render
