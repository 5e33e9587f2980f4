#include "render/report_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <ostream>

#include "facts/load_overlap.h"
#include "facts/queries.h"
#include "io/units.h"
#include "render/cache_audit_text.h"
#include "render/cuda_build_text.h"
#include "render/wrap.h"

namespace wcp::render {

std::string median_mad(const std::optional<Summary>& summary, std::string_view unavailable) {
  if (!summary) return fmt::format("{:>10}    ({})", "unavailable", unavailable);
  if (summary->values.size() < 2) return fmt::format("{:>10.1f} ms", summary->median);
  return fmt::format("{:>10.1f} ms ± {:.1f} (median ± MAD of {})", summary->median, summary->mad.value_or(0.0),
                     summary->values.size());
}

namespace {

std::string block_dim_text(const std::optional<int>& block_dim) {
  return block_dim ? std::to_string(*block_dim) : "-";
}

// The machine reference measured beside the command, and the cold units it gives.
void render_reference(const Report& report, std::ostream& out) {
  if (!report.reference) return;
  const auto& reference = *report.reference;
  if (!reference.cost_ms) {
    std::string why = reference.unavailable;
    for (const auto& sample : reference.samples) {
      if (why.empty() && !sample.failure.empty()) why = sample.failure;
    }
    out << fmt::format("Reference         {:>10}    ({})\n", "unavailable", why);
    out << fmt::format("Cold units        {:>10}    (no reference)\n", "unavailable");
    return;
  }
  out << fmt::format("Reference         {}  {}: {}\n", median_mad(reference.cost_ms, ""), to_string(reference.kind),
                     reference.description);
  if (reference.cold_units) {
    const auto& units = *reference.cold_units;
    out << fmt::format(
        "Cold units        {:>10.2f}    ± {:.2f} (median ± MAD of {} interleaved pair(s): cold module work / "
        "its reference)\n",
        units.median, units.mad.value_or(0.0), units.count);
  } else {
    out << fmt::format("Cold units        {:>10}    (no sample had both a cold module work and a reference)\n",
                       "unavailable");
  }
}

void render_headline(const Report& report, const ClockFacts& clocks, std::ostream& out) {
  constexpr std::string_view no_warm = "no successful warm run";
  const std::string no_loads = report.loads_observed ? "a sample's loads were not observed" : report.loads_unobserved;
  out << fmt::format("Cold module work  {}\n", median_mad(report.cold_module_ms, no_loads));
  out << fmt::format(
      "  CPU             {}\n",
      median_mad(report.cold_module_cpu_ms,
                 report.module_cpu_unavailable.empty() ? no_loads : std::string_view(report.module_cpu_unavailable)));
  out << fmt::format(
      "  native compile  {}\n",
      median_mad(report.native_compile_ms,
                 report.loads_observed ? "a compiled load's native compile time was not observed" : no_loads));
  out << fmt::format(
      "Warm module work  {}\n",
      median_mad(report.warm_module_ms, report.warm_wall_ms ? "the warm run's loads were not observed" : no_warm));
  out << fmt::format("Cold wall         {}\n", median_mad(report.cold_wall_ms, "no successful run"));
  out << fmt::format("Warm wall         {}\n", median_mad(report.warm_wall_ms, no_warm));
  const auto& elapsed = clocks.compile_elapsed;
  out << fmt::format(
      "Compile elapsed   {}  (cold wall − warm wall)\n",
      median_mad(elapsed,
                 report.compile_elapsed_ms || report.warm_wall_ms ? "no warm wall below its cold wall" : no_warm));
  for (const auto& left_out : clocks.elapsed_left_out) out << "                  left out: " << left_out << '\n';
  if (report.overlap_factor && clocks.warm_near_zero == false) {
    out << fmt::format(
        "Overlap factor    {:>10.2f}     (not a sign of overlap here: the warm run compiled too, so compile\n"
        "                                  elapsed leaves out the compiling both runs did)\n",
        *report.overlap_factor);
  } else if (report.overlap_factor && !clocks.warm_near_zero) {
    out << fmt::format(
        "Overlap factor    {:>10.2f}     (whether the warm run compiled is not recorded, so compile elapsed may\n"
        "                                  not be the compile time)\n",
        *report.overlap_factor);
  } else if (report.overlap_factor) {
    out << fmt::format(
        "Overlap factor    {:>10.2f}     (module work / compile elapsed; above 1 means builds overlapped)\n",
        *report.overlap_factor);
  } else if (!report.cold_module_ms || !report.compile_elapsed_ms) {
    out << fmt::format("Overlap factor    {:>10}    ({})\n", "unavailable",
                       report.compile_elapsed_ms ? "no module work" : no_warm);
  } else {
    out << fmt::format("Overlap factor    {:>10}    (compile elapsed is not above zero: the warm run took as long)\n",
                       "unavailable");
  }
  render_reference(report, out);
  if (clocks.builds_overlapped) {
    out << fmt::format(
        "\nBUILDS OVERLAPPED: summed module timers are {:.2f}x the elapsed compile time, so modules were built\n"
        "concurrently and each timer absorbed the others' contention. Judge changes on compile elapsed.\n",
        *report.overlap_factor);
  }
  if (report.measured() && !report.loads_observed) {
    out << "\nMODULE LOADS NOT OBSERVED: " << report.loads_unobserved
        << ".\nModule work, identities and builds are unavailable, not zero.\n";
  }
  if (compiled_nothing(report)) {
    out << "\nNO MODULES COMPILED: the command did not reach Warp, or everything came from a cache it should not\n"
           "have seen (check that it imports warp and launches a kernel).\n";
  }
  out << '\n';
  if (report.loads_observed) {
    out << fmt::format("Identities {}  modules {}  cold events: {} compiled, {} cached, {} error\n", report.identities,
                       report.modules, report.compiled_events, report.cached_events, report.error_events);
  } else {
    out << "Identities, modules and cold events unavailable: module loads were not observed\n";
  }
  const std::string launches =
      has_launch_record(report) ? fmt::format("{} in {} process(es)", total_launches(report), report.processes.size())
                                : std::string("not recorded");
  out << fmt::format("Generated source {}  LTO artifacts {} ({})  launches {}\n",
                     bytes_text(report.cache.generated_source_bytes), report.cache.lto_artifacts,
                     bytes_text(report.cache.lto_bytes), launches);
}

std::string line_text(const std::optional<std::string>& text, bool ended) {
  if (ended) return "(output ended)";
  return text ? "\"" + *text + "\"" : "(past the lines kept)";
}

std::string writers_text(const ConcurrentWriters& writers) {
  if (writers.processes > 1) return fmt::format("{} processes", writers.processes);
  return fmt::format("{} loading threads", writers.load_threads);
}

void render_difference(std::string_view stream, const std::optional<OutputDifference>& difference, std::ostream& out) {
  if (!difference) return;
  if (difference->reordered) {
    out << fmt::format("  {}: the same lines in another order, from line {}\n", stream, difference->line);
  }
  out << fmt::format("  {} differs from line {}:\n", stream, difference->line);
  out << fmt::format("    without the probe: {}\n", line_text(difference->expected, difference->expected_ended));
  out << fmt::format("    under the probe:   {}\n", line_text(difference->actual, difference->actual_ended));
}

// `--check-output`: the answer first, then each difference.
void render_output_check(const Report& report, std::ostream& out) {
  if (!report.output_check) return;
  const auto& check = *report.output_check;
  if (check.same()) {
    std::vector<std::string> passes;
    for (const auto& pass : check.passes) {
      passes.push_back(
          fmt::format("{} ({} + {} lines, exit {}{})", to_string(pass.pass), pass.stdout_lines, pass.stderr_lines,
                      pass.bare_exit_code,
                      pass.only_reordered(pass.stdout_difference) || pass.only_reordered(pass.stderr_difference)
                          ? fmt::format("; lines in another order, written by {} at once", writers_text(*pass.writers))
                          : ""));
    }
    out << fmt::format(
        "\nOutput check: the same with and without the probe: {} (stdout + stderr; durations and "
        "private paths masked{})\n",
        fmt::join(passes, ", "), check.ignored_patterns.empty() ? "" : ", lines matching --ignore-output left out");
  } else {
    out << "\nOUTPUT CHANGED UNDER THE PROBE: the program did not print or exit as it does without it\n";
    for (const auto& pass : check.passes) {
      if (pass.same()) {
        out << fmt::format("  {} run: the same\n", to_string(pass.pass));
        continue;
      }
      out << fmt::format("  {} run:\n", to_string(pass.pass));
      if (pass.bare_exit_code != pass.probe_exit_code) {
        out << fmt::format("  exit status {} without the probe, {} under it\n", pass.bare_exit_code,
                           pass.probe_exit_code);
      }
      render_difference("stdout", pass.stdout_difference, out);
      render_difference("stderr", pass.stderr_difference, out);
    }
  }
  for (const auto& why : check.not_compared) out << "  not compared: " << why << '\n';
}

void render_processes(const Report& report, std::ostream& out) {
  if (report.processes.size() < 2) return;
  out << "\nProcesses (cold run)\n";
  out << fmt::format("  {:>7}  {:<6}  {:>7}  {:>7}  {:>8}  {:<9} {}\n", "pid", "role", "start s", "end s", "launches",
                     "exit", "program");
  for (const auto& process : report.processes) {
    const auto seconds = [](const std::optional<double>& s) {
      return s ? fmt::format("{:.2f}", *s) : std::string("-");
    };
    out << fmt::format("  {:>7}  {:<6}  {:>7}  {:>7}  {:>8}  {:<9} {}\n", process.pid, to_string(process.role),
                       seconds(process.started_s), seconds(process.ended_s),
                       process.launches_recorded ? std::to_string(total_launches(process.launches)) : std::string("?"),
                       process.exit_how.empty() ? "no record" : process.exit_how, process.program);
  }
}

void render_overlapping_loads(const Report& report, std::ostream& out) {
  const auto groups = overlapping_loads(report.module_events);
  if (groups.empty()) return;
  out << "\nLoads that ran at the same time (separate threads, overlapping spans)\n";
  for (const auto& group : groups) {
    std::vector<std::string> names;
    for (const std::size_t index : group.events) {
      const auto& event = report.module_events[index];
      names.push_back(event.hash.empty() ? event.name : event.name + " " + event.hash);
    }
    out << fmt::format("  {} pid {}: {} loads on {} threads from {:.3f} s to {:.3f} s: {}\n", to_string(group.pass),
                       group.pid, group.events.size(), group.threads, group.start_s, group.end_s,
                       fmt::join(names, ", "));
  }
}

void render_identities(const ReportView& view, std::ostream& out) {
  if (view.identities.empty()) return;
  // With several processes, how many of them compiled each identity: more than one is work
  // a build before fanning out would have saved.
  const bool processes = view.report.processes.size() > 1;
  out << "\nCompiled module identities (cold run, slowest first)\n";
  out << fmt::format("  {:>9}  {:<8} {:>9}  {:<8} {}{}\n", "ms", "device", "block_dim", "hash",
                     processes ? "procs  " : "", "module");
  for (const auto& entry : view.identities) {
    const auto& id = entry.identity;
    out << fmt::format(
        "  {:>9.1f}  {:<8} {:>9}  {:<8} {}{}{}\n", entry.ms, id.device, block_dim_text(id.block_dim),
        id.hash.empty() ? "-" : id.hash,
        processes ? fmt::format("{:>5}  ", entry.pids.empty() ? std::string("?") : std::to_string(entry.pids.size()))
                  : "",
        id.name, entry.built_pch ? "   (includes the one-off precompiled header build)" : "");
  }
}

void render_rebuilds(const ReportView& view, std::ostream& out) {
  if (view.rebuilt.empty()) return;
  out << "\nModules built more than once\n";
  for (const auto& module : view.rebuilt) {
    std::vector<std::string> hashes;
    for (const auto& hash : module.hashes) hashes.push_back(hash.empty() ? "-" : hash);
    out << fmt::format("  {} on {}: {} builds, {:.1f} ms — {}\n", module.name, module.device, module.builds,
                       module.total_ms, to_string(module.cause));
    out << fmt::format(
        "      hashes {}{}\n", fmt::join(hashes, " → "),
        module.block_dims.empty() ? "" : fmt::format("; block_dims {}", fmt::join(module.block_dims, ", ")));
  }
}

std::string suite_phase_text(const TestCostLine& phase) {
  return fmt::format("{} {:.1f} ms ({} build{}, {:.1f} %)", phase.name, phase.ms, phase.builds,
                     phase.builds == 1 ? "" : "s", 100.0 * phase.share);
}

void render_failures(const Report& report, std::ostream& out) {
  for (const auto& sample : report.sample_results) {
    if (!sample.cold_ok) out << fmt::format("\nSample {} failed: the command {}\n", sample.index, sample.failure);
  }
}

}  // namespace

void render_slowest_tests(const TestCostRanking& ranking, std::ostream& out) {
  out << fmt::format("Slowest tests by compile ({} of {} test(s) that built; cold module work)\n",
                     ranking.slowest.size(), ranking.tests);
  // The numbers keep their columns; a test id longer than the rest of the line continues on
  // the next, broken only after a "::" or "/" (render/wrap.h).
  for (const auto& test : ranking.slowest) {
    print_wrapped(test.name,
                  fmt::format("  {:>9.1f} ms {:>5.1f} %  {:>3} build{}  ", test.ms, 100.0 * test.share, test.builds,
                              test.builds == 1 ? " " : "s"),
                  "      ", out);
  }
  if (ranking.suite_phases.empty()) {
    out << "  No build outside a test (collection, import, session)\n";
    return;
  }
  std::vector<std::string> phases;
  for (const auto& phase : ranking.suite_phases) phases.push_back(suite_phase_text(phase));
  print_wrapped(fmt::format("{}", fmt::join(phases, ", ")), "  Outside tests: ", "    ", out);
}

std::string format_command(const std::vector<std::string>& argv) {
  std::string text;
  for (const auto& argument : argv) {
    if (!text.empty()) text += ' ';
    const bool plain = !argument.empty() && argument.find_first_of(" \t\"'$`\\;&|<>()*?") == std::string::npos;
    text += plain ? argument : "'" + argument + "'";
  }
  return text;
}

void render_report_title(const Report& report, std::ostream& out) {
  out << fmt::format("warp-compile-probe {}{}\n", report.tool_version,
                     report.label.empty() ? "" : " — " + report.label);
  out << fmt::format("Command  {}\n", format_command(report.command));
  out << fmt::format("Cwd      {}\n", report.cwd);
  const int warm_failures = failed_warm_runs(report);
  out << fmt::format("Warp {}, {} sample(s), {} failed{}{}\n\n",
                     report.warp_version.empty() ? "(version unknown)" : report.warp_version, report.samples,
                     report.failed_samples,
                     report.timed_out_samples > 0 ? fmt::format(" ({} timed out)", report.timed_out_samples) : "",
                     warm_failures > 0 ? fmt::format(", {} warm run(s) failed", warm_failures) : "");
}

void render_report_text(const ReportView& view, std::ostream& out) {
  const Report& report = view.report;
  render_report_title(report, out);
  render_output_check(report, out);
  if (!report.measured()) {
    out << "NOT MEASURED: every sample failed, so there is no measurement to report.\n";
    render_failures(report, out);
    return;
  }
  render_headline(report, view.clocks, out);
  render_processes(report, out);
  render_overlapping_loads(report, out);
  render_identities(view, out);
  render_rebuilds(view, out);
  if (view.tests) {
    out << "\n";
    render_slowest_tests(*view.tests, out);
  }
  render_failures(report, out);
  if (report.cache_audit) render_cache_audit_text(*report.cache_audit, out);
  if (view.cuda) render_cuda_build_text(*view.cuda, out);
  if (!report.notes.empty()) {
    out << "\nNotes\n";
    for (const auto& note : report.notes) out << "  - " << note << '\n';
  }
}

}  // namespace wcp::render
