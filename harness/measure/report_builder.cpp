#include "measure/report_builder.h"

#include "facts/queries.h"
#include "measure/interop_launches.h"
#include "measure/load_events.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>
#include <string_view>

namespace wcp::measure {
namespace {

// The cold pass's loads, checked against what the private cache says was built.
ObservedLoads cold_loads_of(const SampleRecord& sample) {
  ObservedLoads loads = observe_loads(sample.cold);
  check_against_cache(loads, sample.inventory);
  return loads;
}

// The distinct "<module> <hash>" a run loaded (compiled or from the cache), sorted: compared across
// samples, they show whether a module's content is the same in every run of the program (CS-9).
std::optional<std::vector<std::string>> loaded_identities(const ObservedLoads& loads) {
  if (!loads.observed) return std::nullopt;
  std::set<std::string> identities;
  for (const auto& event : loads.events) {
    if (event.status != LoadStatus::error) identities.insert(event.name + " " + event.hash);
  }
  return std::vector<std::string>{identities.begin(), identities.end()};
}

std::string describe_failure(const RunOutcome& run, std::chrono::milliseconds timeout) {
  std::string what;
  if (run.timed_out) {
    what = fmt::format("timed out after {:.0f} s and was stopped", std::chrono::duration<double>(timeout).count());
  } else if (run.signal) {
    what = fmt::format("was killed by signal {}", *run.signal);
  } else {
    what = fmt::format("exited with status {}", run.exit_code);
  }
  if (!run.output_tail.empty()) {
    // The last few lines are usually the error; keep the message short.
    std::string tail = run.output_tail;
    std::size_t cut = tail.size();
    for (int lines = 0; lines < 6 && cut > 0; ++lines) {
      cut = tail.rfind('\n', cut - 1);
      if (cut == std::string::npos) {
        cut = 0;
        break;
      }
    }
    what += "; last output:\n" + tail.substr(cut == 0 ? 0 : cut + 1);
  }
  return what;
}

std::vector<ModuleEvent> pass_events(const PassRecord& record, Pass pass) {
  std::vector<ModuleEvent> events = observe_loads(record).events;
  for (auto& event : events) event.pass = pass;
  return events;
}

bool inside(const std::string& path, const std::string& root) {
  return !root.empty() && path.starts_with(root);
}

// On/off from an environment value the way CUDA reads CUDA_CACHE_DISABLE: set and not "0".
bool flag_value(const std::optional<std::string>& value) {
  if (!value) return false;
  return !value->empty() && *value != "0";
}

std::string program_of(const instrument::ProcessEvents& process, const std::string& cwd) {
  if (process.main) {
    std::string main = *process.main;
    if (!cwd.empty() && main.starts_with(cwd + "/")) main = main.substr(cwd.size() + 1);
    return main;
  }
  return process.argv.empty() ? process.executable : process.argv.front();
}

// Roles: the process the tool started is main; multiprocessing children are workers; any other
// Python process is a child (also the Python a shell or launcher started: then there is no
// main, which is the truth, and the child keeps one stable name between runs).
std::vector<ProcessRecord> processes_of(const PassRecord& pass, const std::string& cwd) {
  const auto& events = pass.instrumentation;
  std::vector<ProcessRecord> records;
  std::string main_program;
  for (const auto& process : events.processes) {
    ProcessRecord record;
    record.pid = process.pid;
    record.ppid = process.ppid;
    record.argv = process.argv;
    if (process.mp_child) {
      record.role = ProcessRole::worker;
    } else if (process.pid == pass.run.pid) {
      record.role = ProcessRole::main;
    } else {
      record.role = ProcessRole::child;
    }
    record.program = program_of(process, cwd);
    if (record.role == ProcessRole::main) main_program = record.program;
    if (process.t > 0.0) record.started_s = process.t - pass.run.started_monotonic_s;
    if (process.exit) {
      record.exit_how = process.exit->how;
      record.ended_s = process.exit->t - pass.run.started_monotonic_s;
    }
    record.launches_recorded = process.launches.has_value();
    record.launches_final = process.launches_final;
    if (process.launches) record.launches = *process.launches;
    records.push_back(std::move(record));
  }
  // Workers are told apart by whose work they do, not by their pid.
  for (auto& record : records) {
    if (record.role == ProcessRole::worker) record.program = "multiprocessing worker of " + main_program;
  }
  std::stable_sort(records.begin(), records.end(), [](const ProcessRecord& a, const ProcessRecord& b) {
    return static_cast<int>(a.role) < static_cast<int>(b.role);
  });
  return records;
}

// Hooks whose absence leaves the option record incomplete (the probe's `missing` wording):
// receipts built on a partial record could call a write unreached that only looks so.
constexpr std::array<std::string_view, 5> kOptionHooks{"module creation", "module option writes", "warp.config writes",
                                                       "per-kernel options", "option writes"};

// The cold run's option writes and module creations, on the run's clock.
std::optional<OptionRecord> option_record_of(const PassRecord& pass) {
  const auto& events = pass.instrumentation;
  if (!events.attached()) return std::nullopt;
  for (const auto& process : events.processes) {
    for (const auto& what : process.missing) {
      for (const auto hook : kOptionHooks) {
        if (what.starts_with(hook)) return std::nullopt;
      }
    }
  }
  const double start = pass.run.started_monotonic_s;
  OptionRecord record;
  for (const auto& write : events.option_writes) {
    const auto api = option_api_from_string(write.api);
    const auto scope = option_scope_from_string(write.scope);
    if (!api || !scope) continue;  // a record of a newer probe: not guessed at
    record.writes.push_back({write.pid, std::max(0.0, write.t - start), *api, write.target, write.key, write.value,
                             write.site, write.kernel, *scope, write.by_warp});
  }
  for (const auto& created : events.modules_created) {
    record.modules_created.push_back({created.pid, std::max(0.0, created.t - start), created.name, created.config,
                                      created.options, created.site, created.entry_site});
  }
  // Files are read one process after another; the receipts want one timeline.
  std::stable_sort(record.writes.begin(), record.writes.end(),
                   [](const OptionWrite& a, const OptionWrite& b) { return a.t_s < b.t_s; });
  std::stable_sort(record.modules_created.begin(), record.modules_created.end(),
                   [](const ModuleCreation& a, const ModuleCreation& b) { return a.t_s < b.t_s; });
  return record;
}

void describe_instrumentation(Report& report, const SampleRecord& sample) {
  const auto& events = sample.cold.instrumentation;
  auto& status = report.instrumentation;
  status.attached = events.attached();
  status.cache_clears = events.cache_clears;
  std::optional<bool> cuda_cache_disabled;
  for (const auto& process : events.processes) {
    for (const auto& what : process.missing) {
      if (std::find(status.missing.begin(), status.missing.end(), what) == status.missing.end())
        status.missing.push_back(what);
    }
    if (status.warp_api.empty()) status.warp_api = process.api;
    if (status.warp_dir.empty()) status.warp_dir = process.warp_dir;
    if (status.timers.empty()) status.timers = process.timers;
    if (!process.exit) continue;
    const auto& exit = *process.exit;
    if (!status.use_precompiled_headers) status.use_precompiled_headers = exit.use_precompiled_headers;
    if (status.cuda_toolkit_version.empty()) status.cuda_toolkit_version = exit.cuda_toolkit;
    if (exit.cache_kernels == false) status.cache_kernels_disabled = true;
    if (exit.kernel_cache_dir && !exit.kernel_cache_dir->empty() &&
        !inside(*exit.kernel_cache_dir, sample.private_cache_dir)) {
      status.app_kernel_cache_dir = exit.kernel_cache_dir;
    }
    if (const auto found = exit.environ.find("CUDA_CACHE_DISABLE"); found != exit.environ.end()) {
      cuda_cache_disabled = cuda_cache_disabled.value_or(false) || flag_value(found->second);
    }
  }
  // The cache as each load saw it: an application that disables the CUDA cache or caching
  // itself part-way is seen here even when it exits without an exit record.
  for (const auto& load : events.loads) {
    if (const auto found = load.cache.find("CUDA_CACHE_DISABLE"); found != load.cache.end()) {
      cuda_cache_disabled = cuda_cache_disabled.value_or(false) || flag_value(found->second);
    }
    if (const auto found = load.cache.find("cache_kernels"); found != load.cache.end() && found->second == "false") {
      status.cache_kernels_disabled = true;
    }
  }
  status.cuda_cache_disabled = cuda_cache_disabled;
  if (status.app_kernel_cache_dir) {
    report.notes.push_back(fmt::format(
        "The application set warp.config.kernel_cache_dir to {}: cache isolation and the cache inventory depend on the "
        "application.",
        *status.app_kernel_cache_dir));
  }
  if (!status.attached) {
    report.notes.push_back(
        "The instrumentation did not attach (the command never imported warp through Python's import system, or a "
        "sitecustomize could not run): figures come from Warp's log alone; launches and per-load details are missing.");
  }
  for (const auto& process : report.processes) {
    if (!process.launches_recorded) {
      report.notes.push_back(fmt::format("Process {} ({} {}) wrote no launch record: its launches are unknown.",
                                         process.pid, to_string(process.role), process.program));
    } else if (!process.launches_final) {
      report.notes.push_back(fmt::format(
          "Process {} ({} {}) ended without a final launch record (killed or crashed): its launches are recorded up to "
          "its last snapshot.",
          process.pid, to_string(process.role), process.program));
    }
  }
  for (const auto& what : status.missing) report.notes.push_back("Instrumentation could not observe: " + what + ".");
  if (const auto malformed = events.malformed_lines(); malformed > 0) {
    report.notes.push_back(
        fmt::format("{} line(s) of the instrumentation's event files could not be read.", malformed));
  }
}

}  // namespace

std::uint64_t count_identities(const std::vector<ModuleEvent>& events) {
  std::set<ModuleIdentity> identities;
  for (const auto& event : events) {
    if (event.status == LoadStatus::compiled) identities.insert(identity_of(event));
  }
  return identities.size();
}

Report build_report(const MeasureOptions& options, const std::vector<SampleRecord>& samples) {
  Report report;
  report.tool_version = WCP_VERSION;
  report.command = options.command;
  report.cwd = options.cwd.string();
  report.label = options.label;
  report.samples = static_cast<int>(samples.size());

  std::vector<double> cold_module, native, warm_module, cold_wall, warm_wall, elapsed;
  bool cold_module_unavailable = false, native_unavailable = false;
  const SampleRecord* first_ok = nullptr;
  for (const auto& sample : samples) {
    SampleResult result;
    result.index = sample.index;
    result.cold_ok = sample.cold.run.succeeded();
    result.timed_out = sample.cold.run.timed_out;
    result.exit_code = sample.cold.run.exit_code;
    result.cold_wall_ms = sample.cold.run.wall_ms;
    const ObservedLoads cold_loads = cold_loads_of(sample);
    result.cold_module_ms = module_work(cold_loads, true);
    result.native_compile_ms = native_compile(cold_loads);
    if (!result.cold_ok) {
      result.failure = describe_failure(sample.cold.run, options.timeout);
      ++report.failed_samples;
      report.timed_out_samples += result.timed_out ? 1 : 0;
      report.sample_results.push_back(std::move(result));
      continue;
    }
    if (first_ok == nullptr) first_ok = &sample;
    result.cold_identities = loaded_identities(cold_loads);
    // A statistic over some samples would silently mix measured and unmeasured runs: one
    // sample without it makes the whole figure unavailable.
    if (result.cold_module_ms)
      cold_module.push_back(*result.cold_module_ms);
    else
      cold_module_unavailable = true;
    if (result.native_compile_ms)
      native.push_back(*result.native_compile_ms);
    else
      native_unavailable = true;
    cold_wall.push_back(result.cold_wall_ms);
    if (sample.warm && sample.warm->run.succeeded()) {
      result.warm_wall_ms = sample.warm->run.wall_ms;
      const ObservedLoads warm_loads = observe_loads(*sample.warm);
      result.warm_module_ms = module_work(warm_loads, false);
      if (warm_loads.observed) result.warm_compiled_events = count_status(warm_loads.events, LoadStatus::compiled);
      if (result.warm_module_ms) warm_module.push_back(*result.warm_module_ms);
      warm_wall.push_back(*result.warm_wall_ms);
    } else if (sample.warm) {
      result.warm_failure = describe_failure(sample.warm->run, options.timeout);
    }
    // Never credit a warm run that was not faster than its cold run: that difference is no
    // compile time (facts/queries.h, docs/measurement.md).
    const SampleElapsed credited = sample_compile_elapsed(result);
    result.compile_elapsed_ms = credited.ms;
    result.compile_elapsed_left_out = credited.left_out;
    if (credited.ms) {
      elapsed.push_back(*credited.ms);
    } else if (result.warm_wall_ms) {
      report.notes.push_back(credited.left_out + "; left out of compile elapsed.");
    }
    report.sample_results.push_back(std::move(result));
  }

  if (!cold_module_unavailable) report.cold_module_ms = summarize(cold_module);
  if (!native_unavailable) report.native_compile_ms = summarize(native);
  report.warm_module_ms = summarize(warm_module);
  report.cold_wall_ms = summarize(cold_wall);
  report.warm_wall_ms = summarize(warm_wall);
  report.compile_elapsed_ms = summarize(elapsed);
  if (report.cold_module_ms && report.compile_elapsed_ms && report.compile_elapsed_ms->median > 0.0) {
    report.overlap_factor = report.cold_module_ms->median / report.compile_elapsed_ms->median;
  }

  if (report.failed_samples > 0 && report.failed_samples < report.samples) {
    report.notes.push_back(fmt::format("{} of {} samples failed and are left out of the statistics.",
                                       report.failed_samples, report.samples));
  }
  const auto warm_dropped = static_cast<int>(cold_wall.size() - warm_wall.size());
  if (warm_dropped > 0) {
    report.notes.push_back(fmt::format(
        "{} warm run(s) failed or timed out and were dropped: a failed warm run credits nothing, so warm figures and "
        "compile elapsed use the remaining {}{}.",
        warm_dropped, warm_wall.size(), warm_wall.empty() ? " (none: they are unavailable)" : ""));
  }
  if (first_ok == nullptr) return report;

  const auto& sample = *first_ok;
  report.module_events = pass_events(sample.cold, Pass::cold);
  if (sample.warm && sample.warm->run.succeeded()) {
    auto warm = pass_events(*sample.warm, Pass::warm);
    report.module_events.insert(report.module_events.end(), warm.begin(), warm.end());
  }
  const ObservedLoads cold_loads = cold_loads_of(sample);
  report.loads_observed = cold_loads.observed;
  report.loads_unobserved = cold_loads.unobserved;
  if (!cold_loads.observed) report.notes.push_back("Module loads were not observed: " + cold_loads.unobserved + ".");
  const auto& cold_events = cold_loads.events;
  const auto probe_timed = std::count_if(cold_events.begin(), cold_events.end(),
                                         [](const ModuleEvent& event) { return event.timer == LoadTimer::probe; });
  if (cold_loads.observed && probe_timed > 0) {
    report.notes.push_back(fmt::format(
        "Warp printed no load timer for {} of the cold run's {} module load(s) (the program keeps Warp's log quiet, or "
        "a test runner captured its output): their times are the instrumentation's clock around the span Warp times.",
        probe_timed, cold_events.size()));
  }
  report.identities = count_identities(cold_events);
  std::set<std::string> modules;
  for (const auto& event : cold_events) {
    if (event.status == LoadStatus::compiled) modules.insert(event.name);
  }
  report.modules = modules.size();
  report.compiled_events = count_status(cold_events, LoadStatus::compiled);
  report.cached_events = count_status(cold_events, LoadStatus::cached);
  report.error_events = count_status(cold_events, LoadStatus::error);
  report.cache = sample.inventory;
  report.processes = processes_of(sample.cold, options.cwd.string());
  add_interop_launches(report);
  report.option_record = option_record_of(sample.cold);
  report.hash_changes = sample.cold.log.hash_changes;
  report.find_failures = sample.cold.log.find_failures;
  report.warp_version = sample.cold.log.warp_version;
  for (const auto& process : sample.cold.instrumentation.processes) {
    if (report.warp_version.empty()) report.warp_version = process.warp_version;
  }
  describe_instrumentation(report, sample);
  return report;
}

std::vector<TraceTrack> build_trace(const MeasureOptions& options, const std::vector<SampleRecord>& samples) {
  std::vector<TraceTrack> tracks;
  for (const auto& sample : samples) {
    for (const auto& [pass, record] :
         {std::pair{Pass::cold, &sample.cold}, std::pair{Pass::warm, sample.warm ? &*sample.warm : nullptr}}) {
      if (record == nullptr) continue;
      std::map<std::pair<int, long long>, TraceTrack> by_pid;  // (pid, thread); thread 0 is the process's track
      for (const auto& process : processes_of(*record, options.cwd.string())) {
        auto& track = by_pid[{process.pid, 0}];
        track.sample = sample.index;
        track.pass = pass;
        track.pid = process.pid;
        track.label = fmt::format("pid {} {} {}", process.pid, to_string(process.role), process.program);
        if (process.started_s) {
          TraceSlice life{process.program,
                          "process",
                          *process.started_s,
                          process.ended_s.value_or(record->run.wall_ms / 1000.0),
                          {}};
          life.args["role"] = std::string(to_string(process.role));
          life.args["exit"] = process.exit_how.empty() ? "no exit record" : process.exit_how;
          track.slices.push_back(std::move(life));
        }
      }
      for (const auto& event : pass_events(*record, pass)) {
        if (!event.detail || event.detail->end_s <= 0.0) continue;
        // The main thread's OS id is the pid: its loads stay on the process's track.
        const long long thread = event.detail->thread.value_or(event.detail->pid);
        const long long track_thread = thread == event.detail->pid ? 0 : thread;
        auto& track = by_pid[{event.detail->pid, track_thread}];
        track.sample = sample.index;
        track.pass = pass;
        track.pid = event.detail->pid;
        track.thread = track_thread;
        if (track.label.empty()) {
          track.label = track_thread == 0 ? fmt::format("pid {}", event.detail->pid)
                                          : fmt::format("pid {} thread {}", event.detail->pid, track_thread);
        }
        TraceSlice slice{event.hash.empty() ? event.name : event.name + " " + event.hash,
                         to_string(event.status),
                         event.detail->start_s,
                         event.detail->end_s,
                         {}};
        slice.args["module"] = event.name;
        slice.args["hash"] = event.hash;
        slice.args["device"] = event.device;
        slice.args["block_dim"] = event.block_dim ? std::to_string(*event.block_dim) : "";
        slice.args["ms"] = fmt::format("{:.1f}", event.ms);
        if (event.built_pch) slice.args["precompiled_header"] = "built by this load";
        if (event.detail->trigger) {
          slice.args["trigger"] = fmt::format("{}:{} ({})", event.detail->trigger->file, event.detail->trigger->line,
                                              event.detail->trigger->function);
        }
        track.slices.push_back(std::move(slice));
      }
      for (auto& [key, track] : by_pid) tracks.push_back(std::move(track));
    }
  }
  return tracks;
}

}  // namespace wcp::measure
