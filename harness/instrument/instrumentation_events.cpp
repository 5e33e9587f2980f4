#include "instrument/instrumentation_events.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "codec/launch_record_json.h"
#include "codec/report_json.h"
#include "io/json_fields.h"

namespace wcp::instrument {
namespace {

using nlohmann::json;

// Tolerant reads: a field of the wrong type is absent, never an error (the file is ours, but a
// crashing process can leave anything).
std::string text_of(const json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return {};
  return found->is_string() ? found->get<std::string>() : found->dump();
}

std::optional<int> int_of(const json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_number_integer()) return std::nullopt;
  return found->get<int>();
}

std::optional<double> number_of(const json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_number()) return std::nullopt;
  return found->get<double>();
}

std::optional<bool> bool_of(const json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_boolean()) return std::nullopt;
  return found->get<bool>();
}

std::vector<std::string> strings_of(const json& object, const char* key) {
  std::vector<std::string> values;
  if (const auto found = object.find(key); found != object.end() && found->is_array()) {
    for (const auto& value : *found) values.push_back(value.is_string() ? value.get<std::string>() : value.dump());
  }
  return values;
}

std::map<std::string, std::string> reprs_of(const json& object, const char* key) {
  std::map<std::string, std::string> values;
  if (const auto found = object.find(key); found != object.end() && found->is_object()) {
    for (const auto& [name, value] : found->items())
      values[name] = value.is_string() ? value.get<std::string>() : value.dump();
  }
  return values;
}

std::optional<SourceLocation> location_of(const json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_object()) return std::nullopt;
  return SourceLocation{text_of(*found, "file"), int_of(*found, "line").value_or(0), text_of(*found, "function")};
}

InstrumentedLoad load_of(const json& record, int pid) {
  InstrumentedLoad load;
  load.name = text_of(record, "name");
  load.device = text_of(record, "device");
  load.block_dim = int_of(record, "block_dim");
  load.t_start = number_of(record, "t_start").value_or(0.0);
  load.t_end = number_of(record, "t_end").value_or(load.t_start);
  load.detail.pid = pid;
  load.detail.full_hash = text_of(record, "full_hash");
  load.detail.compiled = bool_of(record, "compiled");
  load.detail.error = text_of(record, "error");
  load.detail.hook_ms = number_of(record, "hook_ms");
  load.detail.cpu_ms = number_of(record, "cpu_ms");
  if (const auto children = record.find("children_cpu_s"); children != record.end() && children->is_array() &&
                                                           children->size() == 2 && (*children)[0].is_number() &&
                                                           (*children)[1].is_number()) {
    load.detail.children_cpu_s = std::pair{(*children)[0].get<double>(), (*children)[1].get<double>()};
  }
  load.native_ms = number_of(record, "native_ms");
  load.built_pch = bool_of(record, "built_pch").value_or(false);
  if (const auto thread = record.find("thread"); thread != record.end() && thread->is_number_integer()) {
    load.detail.thread = thread->get<long long>();
  }
  if (const auto kernels = record.find("kernels"); kernels != record.end() && kernels->is_array()) {
    for (const auto& item : *kernels) {
      if (!item.is_object()) continue;
      try {
        load.detail.kernels.push_back(kernel_from_json(item));
      } catch (const std::exception&) {
        // a malformed kernel entry is left out; the load still counts
      }
    }
  }
  load.detail.functions = functions_from_json(record);
  load.detail.test = test_context_from_json(record);
  load.detail.options = reprs_of(record, "options");
  load.detail.config_at_load = reprs_of(record, "config");
  load.detail.trigger = location_of(record, "trigger");
  if (const auto stack = record.find("stack"); stack != record.end() && stack->is_array()) {
    for (const auto& frame : *stack) {
      if (frame.is_object()) {
        load.detail.stack.push_back(
            {text_of(frame, "file"), int_of(frame, "line").value_or(0), text_of(frame, "function")});
      }
    }
  }
  if (const auto cache = record.find("cache"); cache != record.end() && cache->is_object()) {
    for (const auto& [name, value] : cache->items()) {
      if (!value.is_null()) load.cache[name] = value.is_string() ? value.get<std::string>() : value.dump();
    }
  }
  return load;
}

CudaBuildRecord cuda_build_of(const json& record, int pid) {
  CudaBuildRecord read;
  CudaModuleBuild& build = read.build;
  build.pid = pid;
  build.module = text_of(record, "module");
  build.hash = text_of(record, "hash");
  build.arch = int_of(record, "arch").value_or(0);
  build.block_dim = int_of(record, "block_dim").value_or(0);
  build.output_kind = text_of(record, "output_kind");
  build.error = text_of(record, "error");
  if (const auto cpu = number_of(record, "cpu_s")) build.cpu_ms = *cpu * 1000.0;
  if (const auto wall = number_of(record, "wall_s")) build.wall_ms = *wall * 1000.0;
  if (const auto bytes = record.find("output_bytes"); bytes != record.end() && bytes->is_number_integer())
    build.output_bytes = bytes->get<long long>();
  read.trace_path = text_of(record, "trace");
  read.kernel_keys = reprs_of(record, "kernels");
  read.t_start = number_of(record, "t_start").value_or(0.0);
  if (const auto thread = record.find("thread"); thread != record.end() && thread->is_number_integer())
    read.thread = thread->get<long long>();
  return read;
}

void apply(ProcessEvents& process, InstrumentationEvents& run, const json& record) {
  const std::string type = text_of(record, "type");
  const int pid = int_of(record, "pid").value_or(process.pid);
  const double t = number_of(record, "t").value_or(0.0);
  if (type == "process") {
    process.pid = pid;
    process.t = t;
    process.ppid = int_of(record, "ppid").value_or(0);
    process.argv = strings_of(record, "argv");
    process.executable = text_of(record, "executable");
    process.cwd = text_of(record, "cwd");
    if (const auto main = record.find("main"); main != record.end() && main->is_string())
      process.main = main->get<std::string>();
    process.mp_child = bool_of(record, "mp_child").value_or(false);
    process.forked_from = int_of(record, "forked_from");
  } else if (type == "attach") {
    process.attached = true;
    process.warp_version = text_of(record, "warp_version");
    process.warp_dir = text_of(record, "warp_dir");
    process.api = text_of(record, "api");
    process.timers = text_of(record, "timers");
    process.hooks = strings_of(record, "hooks");
    for (auto& what : strings_of(record, "missing")) process.missing.push_back(std::move(what));
  } else if (type == "load" || type == "load_error") {
    InstrumentedLoad load = load_of(record, pid);
    load.failed = type == "load_error";
    run.loads.push_back(std::move(load));
  } else if (type == "launches") {
    try {
      process.launches = record.get<LaunchRecord>();
      process.launches_final = bool_of(record, "final").value_or(false);
    } catch (const std::exception&) {
      ++process.malformed_lines;  // an earlier snapshot, if any, stands
    }
  } else if (type == "option_write") {
    run.option_writes.push_back({pid, t, text_of(record, "api"), text_of(record, "target"), text_of(record, "key"),
                                 text_of(record, "value"), location_of(record, "site"), text_of(record, "kernel"),
                                 text_of(record, "scope"), bool_of(record, "by_warp").value_or(false)});
  } else if (type == "module_created") {
    run.modules_created.push_back({pid, t, text_of(record, "name"), reprs_of(record, "config"),
                                   reprs_of(record, "options"), location_of(record, "site"),
                                   location_of(record, "entry_site")});
  } else if (type == "registry") {
    if (!run.registry) run.registry.emplace();
    if (const auto modules = record.find("modules"); modules != record.end() && modules->is_array()) {
      for (const auto& module : *modules) {
        if (!module.is_object()) continue;
        run.registry->push_back(
            {pid, text_of(module, "name"), int_of(module, "kernel_count").value_or(0), strings_of(module, "kernels")});
      }
    }
  } else if (type == "cache_clear") {
    run.cache_clears.push_back({text_of(record, "what"), location_of(record, "site")});
  } else if (type == "tape_backward") {
    run.tape_backward = true;
    for (auto& kernel : strings_of(record, "kernels")) run.tape_kernels.insert(std::move(kernel));
  } else if (type == "lever") {
    LeverEvent lever;
    lever.id = text_of(record, "id");
    lever.status = text_of(record, "status");
    lever.detail = text_of(record, "detail");
    lever.module = text_of(record, "module");
    lever.call = text_of(record, "call");
    lever.final = bool_of(record, "final").value_or(false);
    lever.calls = int_of(record, "calls").value_or(0);
    lever.modules = strings_of(record, "modules");
    lever.replaced = strings_of(record, "replaced");
    process.levers.push_back(std::move(lever));
  } else if (type == "cuda_build") {
    run.cuda_builds.push_back(cuda_build_of(record, pid));
  } else if (type == "cuda_build_done") {
    CudaBuildWindow window;
    window.pid = pid;
    window.t_end = t;
    window.t_start = t - number_of(record, "wall_s").value_or(0.0);
    window.workers = int_of(record, "workers").value_or(0);
    window.unavailable = text_of(record, "unavailable");
    if (const auto archs = record.find("archs"); archs != record.end() && archs->is_array()) {
      for (const auto& arch : *archs)
        if (arch.is_number_integer()) window.archs.push_back(arch.get<int>());
    }
    run.cuda_build_windows.push_back(std::move(window));
  } else if (type == "exit") {
    ExitRecord exit;
    exit.t = t;
    exit.how = text_of(record, "how");
    // `python -m MOD` has no __main__ module yet when the process record is written: the exit
    // record names it.
    if (const auto main = record.find("main"); !process.main && main != record.end() && main->is_string())
      process.main = main->get<std::string>();
    if (const auto dir = record.find("kernel_cache_dir"); dir != record.end() && dir->is_string()) {
      exit.kernel_cache_dir = dir->get<std::string>();
    }
    exit.cache_kernels = bool_of(record, "cache_kernels");
    exit.use_precompiled_headers = bool_of(record, "use_precompiled_headers");
    exit.cuda_toolkit = text_of(record, "cuda_toolkit");
    if (const auto environ = record.find("environ"); environ != record.end() && environ->is_object()) {
      for (const auto& [name, value] : environ->items()) {
        exit.environ[name] = value.is_string() ? std::optional<std::string>(value.get<std::string>()) : std::nullopt;
      }
    }
    for (auto& what : strings_of(record, "missing")) {
      if (std::find(process.missing.begin(), process.missing.end(), what) == process.missing.end()) {
        process.missing.push_back(std::move(what));
      }
    }
    process.exit = std::move(exit);
  }
}

}  // namespace

bool InstrumentationEvents::attached() const {
  return std::any_of(processes.begin(), processes.end(), [](const ProcessEvents& process) { return process.attached; });
}

std::size_t InstrumentationEvents::malformed_lines() const {
  std::size_t total = 0;
  for (const auto& process : processes) total += process.malformed_lines;
  return total;
}

ProcessEvents parse_process_events(std::string_view text, InstrumentationEvents& run) {
  ProcessEvents process;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const auto line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    const json record = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!record.is_object()) {
      ++process.malformed_lines;
      continue;
    }
    try {
      apply(process, run, record);
    } catch (const json::exception&) {
      ++process.malformed_lines;
    }
  }
  return process;
}

InstrumentationEvents read_instrumentation_events(const std::filesystem::path& directory) {
  InstrumentationEvents run;
  std::error_code error;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    const auto name = entry.path().filename().string();
    if (name.starts_with("events-") && name.ends_with(".jsonl")) files.push_back(entry.path());
  }
  for (const auto& path : files) {
    std::ifstream file(path, std::ios::binary);
    std::ostringstream content;
    content << file.rdbuf();
    run.processes.push_back(parse_process_events(content.str(), run));
  }
  std::sort(run.processes.begin(), run.processes.end(),
            [](const ProcessEvents& a, const ProcessEvents& b) { return a.t < b.t; });
  std::stable_sort(run.loads.begin(), run.loads.end(),
                   [](const InstrumentedLoad& a, const InstrumentedLoad& b) { return a.t_end < b.t_end; });
  return run;
}

}  // namespace wcp::instrument
