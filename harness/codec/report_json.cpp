#include "codec/report_json.h"

#include <fmt/format.h>

#include "codec/cache_audit_json.h"
#include "codec/cuda_build_json.h"
#include "codec/document_kind.h"
#include "codec/hash_stability_json.h"
#include "codec/json_codec.h"
#include "codec/launch_record_json.h"
#include "codec/reference_json.h"
#include "codec/report_json_legacy.h"
#include "codec/summary_json.h"
#include "codec/test_attribution_json.h"
#include "errors.h"
#include "facts/load_overlap.h"
#include "facts/queries.h"
#include "io/file_io.h"

namespace wcp {

// --- the parts ------------------------------------------------------------------------------

void to_json(json& out, const SourceLocation& location) {
  out = json{{"file", location.file}, {"line", location.line}, {"function", location.function}};
}

void from_json(const json& in, SourceLocation& location) {
  location.file = get<std::string>(in, "file", "");
  location.line = get<int>(in, "line", 0);
  location.function = get<std::string>(in, "function", "");
}

namespace {

// The original probe writes null for a kernel without a module, a launch without a device and a
// block_dim left to Warp.
json interop_launch_to_json(const InteropLaunch& launch) {
  json out;
  out["kernel"] = launch.kernel;
  out["module"] = launch.module.empty() ? json(nullptr) : json(launch.module);
  out["dim"] = launch.dim;
  out["device"] = launch.device.empty() ? json(nullptr) : json(launch.device);
  out["dtypes"] = launch.dtypes;
  out["block_dim"] = or_null(launch.block_dim);
  out["adjoint"] = launch.adjoint;
  return out;
}

InteropLaunch interop_launch_from_json(const json& item) {
  InteropLaunch launch;
  launch.kernel = get<std::string>(item, "kernel", "");
  launch.module = get<std::string>(item, "module", "");
  launch.dim = get<std::vector<std::int64_t>>(item, "dim", {});
  launch.device = get<std::string>(item, "device", "");
  launch.dtypes = get<std::vector<std::string>>(item, "dtypes", {});
  launch.block_dim = get_optional<int>(item, "block_dim");
  launch.adjoint = get<bool>(item, "adjoint", false);
  return launch;
}

void to_json_detail(json& out, const LoadDetail& detail) {
  json kernels = json::array();
  for (const auto& kernel : detail.kernels) {
    json item{{"key", kernel.key},
              {"file", kernel.file},
              {"line", kernel.line},
              {"overloads", kernel.overloads},
              {"adjoint", or_null(kernel.adjoint)},
              {"qualname", kernel.qualname},
              {"python_module", kernel.python_module},
              {"hash", kernel.hash}};
    item["package"] = kernel.package ? json::array({kernel.package->name, kernel.package->version}) : json(nullptr);
    item["closure"] = kernel.closure ? json(to_string(*kernel.closure)) : json(nullptr);
    item["object"] = or_null(kernel.object);
    item["args"] = kernel.args ? json(*kernel.args) : json(nullptr);
    item["constants"] = kernel.constants ? json(*kernel.constants) : json(nullptr);
    kernels.push_back(std::move(item));
  }
  out = json{{"full_hash", detail.full_hash},
             {"kernels", kernels},
             {"options", detail.options},
             {"config_at_load", detail.config_at_load},
             {"pid", detail.pid},
             {"start_s", detail.start_s},
             {"end_s", detail.end_s},
             {"compiled", or_null(detail.compiled)},
             {"error", detail.error},
             {"stack", detail.stack},
             {"hook_ms", or_null(detail.hook_ms)},
             {"thread", or_null(detail.thread)},
             {"cpu_ms", or_null(detail.cpu_ms)}};
  out["children_cpu_s"] = detail.children_cpu_s
                              ? json::array({detail.children_cpu_s->first, detail.children_cpu_s->second})
                              : json(nullptr);
  if (detail.trigger) out["trigger"] = *detail.trigger;
  out["test"] = detail.test ? test_context_to_json(*detail.test) : json(nullptr);
  if (detail.functions) {
    json functions = json::array();
    for (const auto& function : *detail.functions) {
      json overloads = json::array();
      for (const auto& overload : function.overloads)
        overloads.push_back({{"signature", overload.signature}, {"file", overload.file}, {"line", overload.line}});
      functions.push_back({{"key", function.key},
                           {"file", function.file},
                           {"line", function.line},
                           {"module", function.module},
                           {"hash", function.hash},
                           {"overloads", overloads},
                           {"constants", function.constants ? json(*function.constants) : json(nullptr)}});
    }
    out["functions"] = std::move(functions);
  } else {
    out["functions"] = nullptr;
  }
}

}  // namespace

json test_context_to_json(const TestContext& test) {
  return json{{"id", test.id}, {"phase", to_string(test.phase)}, {"worker", test.worker}};
}

std::optional<TestContext> test_context_from_json(const json& load) {
  const auto found = load.find("test");
  if (found == load.end() || !found->is_object()) return std::nullopt;
  const auto phase = test_phase_from_string(get<std::string>(*found, "phase", ""));
  if (!phase) return std::nullopt;  // a phase this tool does not know: not recorded
  return TestContext{get<std::string>(*found, "id", ""), *phase, get<std::string>(*found, "worker", "")};
}

KernelInfo kernel_from_json(const json& kernel) {
  KernelInfo info;
  info.key = get<std::string>(kernel, "key", "");
  info.file = get<std::string>(kernel, "file", "");
  info.line = get<int>(kernel, "line", 0);
  info.overloads = get<std::vector<std::string>>(kernel, "overloads", {});
  info.adjoint = get_optional<bool>(kernel, "adjoint");
  info.qualname = get<std::string>(kernel, "qualname", "");
  info.python_module = get<std::string>(kernel, "python_module", "");
  info.hash = get<std::string>(kernel, "hash", "");
  // Schema 5; an unknown word reads as not recorded, as a missing field does.
  if (const auto closure = get_optional<std::string>(kernel, "closure"))
    info.closure = closure_kind_from_string(*closure);
  // Schema 10; absent or null: not recorded.
  info.object = get_optional<int>(kernel, "object");
  if (const auto args = kernel.find("args"); args != kernel.end() && args->is_array())
    info.args = get<std::vector<std::string>>(kernel, "args", {});
  if (const auto constants = kernel.find("constants"); constants != kernel.end() && constants->is_object())
    info.constants = get<std::map<std::string, std::string>>(kernel, "constants", {});
  if (const auto package = kernel.find("package");
      package != kernel.end() && package->is_array() && package->size() == 2) {
    info.package = Package{(*package)[0].is_string() ? (*package)[0].get<std::string>() : "",
                           (*package)[1].is_string() ? (*package)[1].get<std::string>() : ""};
  }
  return info;
}

std::optional<std::vector<FunctionInfo>> functions_from_json(const json& load) {
  const auto found = load.find("functions");
  if (found == load.end() || !found->is_array()) return std::nullopt;
  std::vector<FunctionInfo> functions;
  for (const auto& item : *found) {
    if (!item.is_object()) continue;
    try {
      FunctionInfo function{get<std::string>(item, "key", ""),
                            get<std::string>(item, "file", ""),
                            get<int>(item, "line", 0),
                            get<std::string>(item, "module", ""),
                            get<std::string>(item, "hash", ""),
                            {},
                            std::nullopt};
      if (const auto constants = item.find("constants"); constants != item.end() && constants->is_object())
        function.constants = get<std::map<std::string, std::string>>(item, "constants", {});
      json_fields::each(item, "overloads", [&](const json& overload, std::size_t) {
        function.overloads.push_back({get<std::string>(overload, "signature", ""),
                                      get<std::string>(overload, "file", ""), get<int>(overload, "line", 0)});
      });
      functions.push_back(std::move(function));
    } catch (const std::exception&) {
      // a malformed entry is left out
    }
  }
  return functions;
}

void to_json(json& out, const OptionWrite& write) {
  out = json{{"pid", write.pid},
             {"t_s", write.t_s},
             {"api", std::string(to_string(write.api))},
             {"target", write.target},
             {"key", write.key},
             {"value", write.value},
             {"site", or_null(write.site)},
             {"kernel", write.kernel},
             {"scope", std::string(to_string(write.scope))},
             {"by_warp", write.by_warp}};
}

namespace {

LoadDetail detail_from_json(const json& in) {
  LoadDetail detail;
  detail.full_hash = get<std::string>(in, "full_hash", "");
  json_fields::each(in, "kernels",
                    [&](const json& kernel, std::size_t) { detail.kernels.push_back(kernel_from_json(kernel)); });
  detail.options = get<std::map<std::string, std::string>>(in, "options", {});
  detail.config_at_load = get<std::map<std::string, std::string>>(in, "config_at_load", {});
  detail.pid = get<int>(in, "pid", 0);
  detail.start_s = get<double>(in, "start_s", 0.0);
  detail.end_s = get<double>(in, "end_s", 0.0);
  detail.compiled = get_optional<bool>(in, "compiled");
  detail.error = get<std::string>(in, "error", "");
  detail.trigger = get_optional<SourceLocation>(in, "trigger");
  detail.stack = get<std::vector<SourceLocation>>(in, "stack", {});
  detail.hook_ms = get_optional<double>(in, "hook_ms");
  detail.thread = get_optional<long long>(in, "thread");
  // Schema 13; absent in earlier reports.
  detail.cpu_ms = get_optional<double>(in, "cpu_ms");
  if (const auto children = in.find("children_cpu_s"); children != in.end() && !children->is_null())
    detail.children_cpu_s = children->get<std::pair<double, double>>();
  detail.functions = functions_from_json(in);
  detail.test = test_context_from_json(in);
  return detail;
}

}  // namespace

void to_json(json& out, const ModuleEvent& event) {
  // `label` keeps the original probe's meaning ("<name> <hash>"); the pass has its own field.
  out = json{{"name", event.name},
             {"hash", event.hash},
             {"label", event.hash.empty() ? event.name : event.name + " " + event.hash},
             {"device", event.device},
             {"block_dim", or_null(event.block_dim)},
             {"ms", event.ms},
             {"status", to_string(event.status)},
             {"pass", to_string(event.pass)},
             {"native_ms", or_null(event.native_ms)},
             {"built_pch", event.built_pch},
             {"timer", to_string(event.timer)}};
  if (event.detail) to_json_detail(out["detail"], *event.detail);
}

void from_json(const json& in, ModuleEvent& event) {
  event.name = get<std::string>(in, "name", "");
  event.hash = get<std::string>(in, "hash", "");
  const std::string label = get<std::string>(in, "label", "");
  if (event.name.empty() && !label.empty()) name_from_original_label(label, event);
  event.device = get<std::string>(in, "device", "");
  event.block_dim = get_optional<int>(in, "block_dim");
  event.ms = get<double>(in, "ms", 0.0);
  const std::string status = get<std::string>(in, "status", "compiled");
  const auto parsed = load_status_from_string(status);
  if (!parsed) throw FieldError("unknown module event status '" + status + "'");
  event.status = *parsed;
  // Schema 2 has `pass`; schema 1 stored the pass in `label`; the original probe listed the
  // cold run's events only.
  const std::string pass = get<std::string>(in, "pass", label);
  event.pass = pass_from_string(pass).value_or(Pass::cold);
  event.native_ms = get_optional<double>(in, "native_ms");
  event.built_pch = get<bool>(in, "built_pch", false);
  // Schema 6; every earlier event came from Warp's log, and an unknown word is not guessed at.
  const std::string timer = get<std::string>(in, "timer", "warp");
  const auto parsed_timer = load_timer_from_string(timer);
  if (!parsed_timer) throw FieldError("unknown module event timer '" + timer + "'");
  event.timer = *parsed_timer;
  if (const auto found = in.find("detail"); found != in.end() && found->is_object())
    event.detail = detail_from_json(*found);
}

void to_json(json& out, const SampleResult& sample) {
  out = json{{"index", sample.index},
             {"cold_ok", sample.cold_ok},
             {"timed_out", sample.timed_out},
             {"exit_code", sample.exit_code},
             {"failure", sample.failure},
             {"cold_wall_ms", sample.cold_wall_ms},
             {"cold_module_ms", or_null(sample.cold_module_ms)},
             {"native_compile_ms", or_null(sample.native_compile_ms)},
             {"warm_wall_ms", or_null(sample.warm_wall_ms)},
             {"warm_module_ms", or_null(sample.warm_module_ms)},
             {"cold_module_cpu_ms", or_null(sample.cold_module_cpu_ms)},
             {"warm_module_cpu_ms", or_null(sample.warm_module_cpu_ms)},
             {"warm_compiled_events", or_null(sample.warm_compiled_events)},
             {"warm_failure", sample.warm_failure},
             {"compile_elapsed_ms", or_null(sample.compile_elapsed_ms)},
             {"compile_elapsed_left_out", sample.compile_elapsed_left_out}};
  out["cold_identities"] = sample.cold_identities ? json(*sample.cold_identities) : json(nullptr);
  if (sample.cuda_compile_cpu_ms) {  // schema 16: absent when no CUDA build was asked for
    json by_arch = json::object();
    for (const auto& [arch, ms] : *sample.cuda_compile_cpu_ms) by_arch[std::to_string(arch)] = ms;
    out["cuda_compile_cpu_ms"] = std::move(by_arch);
    out["cuda_build_wall_ms"] = or_null(sample.cuda_build_wall_ms);
  }
}

void from_json(const json& in, SampleResult& sample) {
  sample.index = get<int>(in, "index", 0);
  sample.cold_ok = get<bool>(in, "cold_ok", false);
  sample.timed_out = get<bool>(in, "timed_out", false);
  sample.exit_code = get<int>(in, "exit_code", 0);
  sample.failure = get<std::string>(in, "failure", "");
  sample.cold_wall_ms = get<double>(in, "cold_wall_ms", 0.0);
  sample.cold_module_ms = get_optional<double>(in, "cold_module_ms");
  sample.native_compile_ms = get_optional<double>(in, "native_compile_ms");
  sample.warm_wall_ms = get_optional<double>(in, "warm_wall_ms");
  sample.warm_module_ms = get_optional<double>(in, "warm_module_ms");
  // Schema 13; absent (not measured) in earlier reports and the original probe's.
  sample.cold_module_cpu_ms = get_optional<double>(in, "cold_module_cpu_ms");
  sample.warm_module_cpu_ms = get_optional<double>(in, "warm_module_cpu_ms");
  sample.warm_compiled_events = get_optional<int>(in, "warm_compiled_events");
  sample.warm_failure = get<std::string>(in, "warm_failure", "");
  // Schema 4; earlier reports leave them to facts/queries.h, which recomputes from the walls.
  sample.compile_elapsed_ms = get_optional<double>(in, "compile_elapsed_ms");
  sample.compile_elapsed_left_out = get<std::string>(in, "compile_elapsed_left_out", "");
  // Schema 5; absent (not recorded) in earlier reports.
  sample.cold_identities = get_optional<std::vector<std::string>>(in, "cold_identities");
  // Schema 16; absent when no CUDA build was asked for, and in earlier reports.
  if (const auto found = in.find("cuda_compile_cpu_ms"); found != in.end() && found->is_object()) {
    std::map<int, double> by_arch;
    for (const auto& [key, value] : found->items()) {
      if (!value.is_number()) throw FieldError("cuda_compile_cpu_ms: '" + key + "' is not a number");
      try {
        by_arch[std::stoi(key)] = value.get<double>();
      } catch (const std::logic_error&) {
        throw FieldError("cuda_compile_cpu_ms: '" + key + "' is not an architecture number");
      }
    }
    sample.cuda_compile_cpu_ms = std::move(by_arch);
  }
  sample.cuda_build_wall_ms = get_optional<double>(in, "cuda_build_wall_ms");
}

namespace {

std::optional<Summary> read_summary(const json& in, const std::string& stem, std::size_t successful_samples) {
  const auto median = get_optional<double>(in, stem + "_median");
  auto values = get<std::vector<double>>(in, stem + "_values", {});
  if (!median && values.empty()) return std::nullopt;
  Summary summary;
  summary.values = std::move(values);
  summary.median = median.value_or(summary.values.empty() ? 0.0 : wcp::median(summary.values));
  summary.mad = get_optional<double>(in, stem + "_mad");
  summary.count = get<std::size_t>(in, stem + "_n",
                                   summary.values.empty() ? successful_samples : summary.values.size());  // 0: unknown
  return summary;
}

json process_to_json(const ProcessRecord& process) {
  return json{{"pid", process.pid},
              {"ppid", process.ppid},
              {"role", std::string(to_string(process.role))},
              {"program", process.program},
              {"argv", process.argv},
              {"started_s", or_null(process.started_s)},
              {"ended_s", or_null(process.ended_s)},
              {"exit_how", process.exit_how},
              {"launches_recorded", process.launches_recorded},
              {"launches_final", process.launches_final},
              {"launch_record", process.launches}};
}

ProcessRecord process_from_json(const json& item) {
  ProcessRecord process;
  process.pid = get<int>(item, "pid", 0);
  process.ppid = get<int>(item, "ppid", 0);
  const std::string role = get<std::string>(item, "role", "main");
  const auto parsed = process_role_from_string(role);
  if (!parsed) throw FieldError("unknown process role '" + role + "'");
  process.role = *parsed;
  process.program = get<std::string>(item, "program", "");
  process.argv = get<std::vector<std::string>>(item, "argv", {});
  process.started_s = get_optional<double>(item, "started_s");
  process.ended_s = get_optional<double>(item, "ended_s");
  process.exit_how = get<std::string>(item, "exit_how", "");
  process.launches_recorded = get<bool>(item, "launches_recorded", false);
  process.launches_final = get<bool>(item, "launches_final", false);
  if (const auto record = item.find("launch_record"); record != item.end() && !record->is_null()) {
    try {
      process.launches = record->get<LaunchRecord>();
    } catch (const FieldError& error) {
      throw FieldError(std::string("launch_record: ") + error.what());
    }
  }
  return process;
}

json option_record_to_json(const OptionRecord& record) {
  json writes = json::array();
  for (const auto& write : record.writes) writes.push_back(write);
  json created = json::array();
  for (const auto& module : record.modules_created) {
    created.push_back({{"pid", module.pid},
                       {"t_s", module.t_s},
                       {"name", module.name},
                       {"config", module.config},
                       {"options", module.options},
                       {"site", or_null(module.site)},
                       {"entry_site", or_null(module.entry_site)}});
  }
  json out{{"writes", writes}, {"modules_created", created}};
  if (record.modules_registered) {
    json registered = json::array();
    for (const auto& module : *record.modules_registered) {
      registered.push_back({{"pid", module.pid},
                            {"name", module.name},
                            {"kernel_count", module.kernel_count},
                            {"kernels", module.kernels}});
    }
    out["modules_registered"] = std::move(registered);
  }
  return out;
}

OptionRecord option_record_from_json(const json& in) {
  OptionRecord record;
  json_fields::each(in, "writes", [&](const json& item, std::size_t) {
    OptionWrite write;
    write.pid = get<int>(item, "pid", 0);
    write.t_s = get<double>(item, "t_s", 0.0);
    const std::string api = get<std::string>(item, "api", "");
    const auto parsed_api = option_api_from_string(api);
    if (!parsed_api) throw FieldError("unknown option write api '" + api + "'");
    write.api = *parsed_api;
    write.target = get<std::string>(item, "target", "");
    write.key = get<std::string>(item, "key", "");
    write.value = get<std::string>(item, "value", "");
    write.site = get_optional<SourceLocation>(item, "site");
    write.kernel = get<std::string>(item, "kernel", "");
    const std::string scope = get<std::string>(item, "scope", "");
    const auto parsed_scope = option_scope_from_string(scope);
    if (!parsed_scope) throw FieldError("unknown option write scope '" + scope + "'");
    write.scope = *parsed_scope;
    write.by_warp = get<bool>(item, "by_warp", false);
    record.writes.push_back(std::move(write));
  });
  json_fields::each(in, "modules_created", [&](const json& item, std::size_t) {
    ModuleCreation module;
    module.pid = get<int>(item, "pid", 0);
    module.t_s = get<double>(item, "t_s", 0.0);
    module.name = get<std::string>(item, "name", "");
    module.config = get<std::map<std::string, std::string>>(item, "config", {});
    module.options = get<std::map<std::string, std::string>>(item, "options", {});
    module.site = get_optional<SourceLocation>(item, "site");
    module.entry_site = get_optional<SourceLocation>(item, "entry_site");
    record.modules_created.push_back(std::move(module));
  });
  if (const auto registered = in.find("modules_registered"); registered != in.end() && !registered->is_null()) {
    record.modules_registered.emplace();
    json_fields::each(in, "modules_registered", [&](const json& item, std::size_t) {
      RegisteredModule module;
      module.pid = get<int>(item, "pid", 0);
      module.name = get<std::string>(item, "name", "");
      module.kernel_count = get<int>(item, "kernel_count", 0);
      module.kernels = get<std::vector<std::string>>(item, "kernels", {});
      record.modules_registered->push_back(std::move(module));
    });
  }
  return record;
}

json difference_to_json(const std::optional<OutputDifference>& difference) {
  if (!difference) return nullptr;
  return json{{"line", difference->line},
              {"expected", or_null(difference->expected)},
              {"actual", or_null(difference->actual)},
              {"expected_ended", difference->expected_ended},
              {"actual_ended", difference->actual_ended},
              {"reordered", difference->reordered}};
}

std::optional<OutputDifference> difference_from_json(const json& in, std::string_view key) {
  const auto found = in.find(key);
  if (found == in.end() || found->is_null()) return std::nullopt;
  OutputDifference difference;
  difference.line = get<std::uint64_t>(*found, "line", 0);
  difference.expected = get_optional<std::string>(*found, "expected");
  difference.actual = get_optional<std::string>(*found, "actual");
  difference.expected_ended = get<bool>(*found, "expected_ended", false);
  difference.actual_ended = get<bool>(*found, "actual_ended", false);
  difference.reordered = get<bool>(*found, "reordered", false);
  return difference;
}

json output_check_to_json(const OutputCheck& check) {
  json passes = json::array();
  for (const auto& pass : check.passes) {
    passes.push_back({{"pass", to_string(pass.pass)},
                      {"same", pass.same()},
                      {"bare_exit_code", pass.bare_exit_code},
                      {"probe_exit_code", pass.probe_exit_code},
                      {"stdout_lines", pass.stdout_lines},
                      {"stderr_lines", pass.stderr_lines},
                      {"ignored_lines", pass.ignored_lines},
                      {"stdout_difference", difference_to_json(pass.stdout_difference)},
                      {"stderr_difference", difference_to_json(pass.stderr_difference)},
                      {"writers", pass.writers ? json{{"processes", pass.writers->processes},
                                                      {"load_threads", pass.writers->load_threads}}
                                               : json(nullptr)}});
  }
  return json{{"same", check.same()},
              {"passes", passes},
              {"ignored_patterns", check.ignored_patterns},
              {"not_compared", check.not_compared}};
}

OutputCheck output_check_from_json(const json& in) {
  OutputCheck check;
  check.ignored_patterns = get<std::vector<std::string>>(in, "ignored_patterns", {});
  check.not_compared = get<std::vector<std::string>>(in, "not_compared", {});
  json_fields::each(in, "passes", [&](const json& item, std::size_t) {
    PassOutputCheck pass;
    const std::string name = get<std::string>(item, "pass", "cold");
    const auto parsed = pass_from_string(name);
    if (!parsed) throw FieldError("unknown output check pass '" + name + "'");
    pass.pass = *parsed;
    pass.bare_exit_code = get<int>(item, "bare_exit_code", 0);
    pass.probe_exit_code = get<int>(item, "probe_exit_code", 0);
    pass.stdout_lines = get<std::uint64_t>(item, "stdout_lines", 0);
    pass.stderr_lines = get<std::uint64_t>(item, "stderr_lines", 0);
    pass.ignored_lines = get<std::uint64_t>(item, "ignored_lines", 0);
    pass.stdout_difference = difference_from_json(item, "stdout_difference");
    pass.stderr_difference = difference_from_json(item, "stderr_difference");
    if (const auto writers = item.find("writers"); writers != item.end() && writers->is_object()) {
      pass.writers = ConcurrentWriters{get<int>(*writers, "processes", 1), get<int>(*writers, "load_threads", 1)};
    }
    check.passes.push_back(std::move(pass));
  });
  return check;
}

HashChange hash_change_from_json(const json& item) {
  if (item.is_string()) return hash_change_from_schema_1(item.get<std::string>());
  return {get<std::string>(item, "module", ""), get<std::string>(item, "old_hash", ""),
          get<std::string>(item, "new_hash", "")};
}

CacheClear cache_clear_from_json(const json& item) {
  if (item.is_string()) return cache_clear_from_schema_1(item.get<std::string>());
  return {get<std::string>(item, "what", ""), get_optional<SourceLocation>(item, "site")};
}

// Reads the object at `key` with `read` when it is one; an error inside names the section.
template <typename Read>
void read_section(const json& document, const char* key, Read read) {
  const auto found = document.find(key);
  if (found == document.end() || !found->is_object()) return;
  try {
    read(*found);
  } catch (const FieldError& error) {
    throw FieldError(std::string(key) + ": " + error.what());
  }
}

void read_identity(const json& document, Report& report) {
  report.tool_version = get<std::string>(document, "tool_version", "");
  report.warp_version = get<std::string>(document, "warp_version", "");
  if (const auto command = document.find("command"); command != document.end() && command->is_string()) {
    report.command = {command->get<std::string>()};
  } else {
    report.command = get<std::vector<std::string>>(document, "command", {});
  }
  report.cwd = get<std::string>(document, "cwd", "");
  report.label = get<std::string>(document, "label", "");
  const auto samples = document.find("samples");
  report.samples = samples != document.end() && samples->is_array() ? static_cast<int>(samples->size())
                                                                    : get<int>(document, "samples", 0);
  report.failed_samples = get<int>(document, "failed_samples", 0);
  report.timed_out_samples = get<int>(document, "timed_out_samples", 0);
}

void read_clocks(const json& document, std::optional<int> schema, Report& report) {
  const auto successful = static_cast<std::size_t>(std::max(0, report.samples - report.failed_samples));
  report.cold_module_ms = read_summary(document, "cold_module_ms", successful);
  report.native_compile_ms = read_summary(document, "native_compile_ms", successful);
  report.cold_wall_ms = read_summary(document, "cold_wall_ms", successful);
  // Schema 13: the CPU clock. A report without it (older, or the original probe's) says why, so
  // that the judge can say what it judged on instead.
  report.cold_module_cpu_ms = read_summary(document, "cold_module_cpu_ms", successful);
  report.warm_module_cpu_ms = read_summary(document, "warm_module_cpu_ms", 0);
  report.module_cpu_unavailable = get<std::string>(document, "module_cpu_unavailable", "");
  if (!report.cold_module_cpu_ms && report.module_cpu_unavailable.empty()) {
    report.module_cpu_unavailable = !schema ? "the original probe measures no CPU clock"
                                    : *schema < 13
                                        ? fmt::format("the report predates the CPU clock (schema {})", *schema)
                                        : "";
  }
  // Warm medians summarise only the samples whose warm run succeeded; the count is unknown
  // when the writer kept no values.
  report.warm_module_ms = read_summary(document, "warm_module_ms", 0);
  report.warm_wall_ms = read_summary(document, "warm_wall_ms", 0);
  report.compile_elapsed_ms = read_summary(document, "compile_elapsed_ms", 0);
  report.overlap_factor = get_optional<double>(document, "overlap_factor");
}

void read_counts_and_cache(const json& document, Report& report) {
  // Schema 6; earlier reports always counted what they saw.
  report.loads_observed = get<bool>(document, "loads_observed", true);
  report.loads_unobserved = get<std::string>(document, "loads_unobserved", "");
  report.identities = get<std::uint64_t>(document, "identities", 0);
  report.modules = get<std::uint64_t>(document, "modules", 0);
  report.compiled_events = get<std::uint64_t>(document, "compiled_events", 0);
  report.cached_events = get<std::uint64_t>(document, "cached_events", 0);
  report.error_events = get<std::uint64_t>(document, "error_events", 0);
  report.cache.generated_source_bytes = get<std::uint64_t>(document, "generated_source_bytes", 0);
  report.cache.lto_artifacts = get<std::uint64_t>(document, "lto_artifacts", 0);
  report.cache.lto_bytes = get<std::uint64_t>(document, "lto_bytes", 0);
  report.cache.module_directories = get<std::uint64_t>(document, "module_directories", 0);
  report.cache.total_bytes = get_optional<std::uint64_t>(document, "cache_total_bytes");  // schema 7
  json_fields::each(document, "module_sources", [&](const json& item, std::size_t) {
    ModuleSource module{get<std::string>(item, "directory", ""),
                        get<std::uint64_t>(item, "source_bytes", 0),
                        get<std::uint64_t>(item, "forward_kernels", 0),
                        get<std::uint64_t>(item, "backward_kernels", 0),
                        {},
                        get<std::uint64_t>(item, "shared_bytes", 0),
                        get_optional<std::uint64_t>(item, "forward_line_markers"),  // schema 10
                        get_optional<std::uint64_t>(item, "repeated_line_markers"),
                        get_optional<std::string>(item, "source_digest"),  // schema 15
                        get_optional<std::uint64_t>(item, "output_bytes"),
                        get_optional<std::string>(item, "output_digest")};
    json_fields::each(item, "kernels", [&](const json& kernel, std::size_t) {
      module.kernels.push_back({get<std::string>(kernel, "name", ""), get<std::uint64_t>(kernel, "forward_bytes", 0),
                                get<std::uint64_t>(kernel, "backward_bytes", 0)});
    });
    report.cache.modules.push_back(std::move(module));
  });
}

void read_processes(const json& document, Report& report) {
  if (document.contains("processes")) {
    json_fields::each(document, "processes",
                      [&](const json& item, std::size_t) { report.processes.push_back(process_from_json(item)); });
    // Beside `processes` (schema 5), `launches` is the flat copy of the main process's launches
    // written for the original probe: kept as read, never the source of the workload.
    if (const auto flat = document.find("launches"); flat != document.end() && flat->is_array()) {
      std::vector<InteropLaunch> launches;
      json_fields::each(document, "launches",
                        [&](const json& item, std::size_t) { launches.push_back(interop_launch_from_json(item)); });
      report.interop_launches = std::move(launches);
    }
    return;
  }
  // The original probe's and schema 1's one flat list: the main process's.
  ProcessRecord main;
  main.program = report.command.empty() ? "" : report.command.back();
  if (const auto flat = document.find("launches"); flat != document.end() && !flat->is_null()) {
    main.launches = record_from_flat_list(*flat);
  }
  report.processes.push_back(std::move(main));
}

InstrumentationStatus instrumentation_from_json(const json& found) {
  InstrumentationStatus status;
  status.attached = get<bool>(found, "attached", false);
  status.warp_api = get<std::string>(found, "warp_api", "");
  status.warp_dir = get<std::string>(found, "warp_dir", "");
  status.timers = get<std::string>(found, "timers", "");
  status.cuda_cache_disabled = get_optional<bool>(found, "cuda_cache_disabled");
  status.missing = get<std::vector<std::string>>(found, "missing", {});
  status.cache_kernels_disabled = get<bool>(found, "cache_kernels_disabled", false);
  json_fields::each(found, "cache_clears",
                    [&](const json& item, std::size_t) { status.cache_clears.push_back(cache_clear_from_json(item)); });
  // null (schema 3) or "" (earlier) when the toolkit was not known.
  if (const auto toolkit = found.find("cuda_toolkit_version"); toolkit != found.end() && toolkit->is_string()) {
    status.cuda_toolkit_version = toolkit->get<std::string>();
  }
  status.app_kernel_cache_dir = get_optional<std::string>(found, "app_kernel_cache_dir");
  status.use_precompiled_headers = get_optional<bool>(found, "use_precompiled_headers");
  return status;
}

void read_document(const json& document, Report& report) {
  const auto schema = get_optional<int>(document, "schema_version");
  if (schema && (*schema < 1 || *schema > kReportSchemaVersion)) {
    throw FieldError("unsupported schema_version " + std::to_string(*schema) + " (this tool reads 1 to " +
                     std::to_string(kReportSchemaVersion) + ", and reports of the original probe)");
  }
  report.schema_version = schema.value_or(0);
  read_identity(document, report);
  read_clocks(document, schema, report);
  read_counts_and_cache(document, report);
  json_fields::each(document, "module_events",
                    [&](const json& item, std::size_t) { report.module_events.push_back(item.get<ModuleEvent>()); });
  read_processes(document, report);
  // Absent (older reports) or null: not recorded, which is not the same as "no writes".
  read_section(document, "option_record",
               [&](const json& found) { report.option_record = option_record_from_json(found); });
  json_fields::each(document, "sample_results",
                    [&](const json& item, std::size_t) { report.sample_results.push_back(item.get<SampleResult>()); });
  json_fields::each(document, "hash_changes",
                    [&](const json& item, std::size_t) { report.hash_changes.push_back(hash_change_from_json(item)); });
  report.find_failures = get<std::vector<std::string>>(document, "find_failures", {});
  if (const auto found = document.find("instrumentation"); found != document.end() && found->is_object()) {
    report.instrumentation = instrumentation_from_json(*found);
  }
  // Schema 15; absent or null: not recorded, and nothing can be decided by identity.
  read_section(document, "build_environment", [&](const json& found) {
    report.build_environment =
        BuildEnvironment{get<std::string>(found, "warp_version", ""), get<std::string>(found, "cpu_compiler", ""),
                         get<std::string>(found, "cuda_toolkit", ""), get<std::string>(found, "cpu_model", ""),
                         get<std::string>(found, "cpu_features", "")};
  });
  report.notes = get<std::vector<std::string>>(document, "notes", {});
  if (const auto found = document.find("reference"); found != document.end() && !found->is_null()) {
    report.reference = reference_from_json(*found);
  }
  read_section(document, "output_check",
               [&](const json& found) { report.output_check = output_check_from_json(found); });
  read_section(document, "hash_stability",
               [&](const json& found) { report.hash_stability = hash_stability_from_json(found); });
  // Schema 7; earlier reports asked for no levers. modules_replaced: schema 8.
  json_fields::each(document, "lever_arrivals", [&](const json& item, std::size_t) {
    report.lever_arrivals.push_back(
        {get<std::string>(item, "id", ""), get<std::string>(item, "status", ""), get<std::string>(item, "detail", ""),
         get<std::vector<std::string>>(item, "modules_reached", {}), get<int>(item, "calls_intercepted", 0),
         get<std::vector<std::string>>(item, "modules_replaced", {})});
  });
  read_section(document, "cache_audit", [&](const json& found) { report.cache_audit = cache_audit_from_json(found); });
  // Schema 16; absent when no CUDA build was asked for.
  read_section(document, "cuda_build", [&](const json& found) { report.cuda_build = cuda_build_from_json(found); });
  read_section(document, "cuda_compile_cpu_ms",
               [&](const json& found) { report.cuda_compile_cpu_ms = cuda_compile_summaries_from_json(found); });
  try {
    report.tests = test_attribution_from_json(document);  // schema 11
  } catch (const FieldError& error) {
    throw FieldError(std::string("tests: ") + error.what());
  }
  if (!schema) {
    apply_original_probe_conventions(report);
  } else if (*schema == 1) {
    apply_schema_1_conventions(report);
  }
}

}  // namespace

json report_to_json(const Report& report) {
  json out = as_document(DocumentKind::report, json::object());
  out["schema_version"] = kReportSchemaVersion;
  out["tool_version"] = report.tool_version;
  out["warp_version"] = report.warp_version;
  out["command"] = report.command;
  out["cwd"] = report.cwd;
  out["label"] = report.label;
  out["samples"] = report.samples;
  out["failed_samples"] = report.failed_samples;
  out["timed_out_samples"] = report.timed_out_samples;
  put_summary(out, "cold_module_ms", report.cold_module_ms);
  put_summary(out, "native_compile_ms", report.native_compile_ms);
  put_summary(out, "warm_module_ms", report.warm_module_ms);
  put_summary(out, "cold_wall_ms", report.cold_wall_ms);
  put_summary(out, "warm_wall_ms", report.warm_wall_ms);
  put_summary(out, "compile_elapsed_ms", report.compile_elapsed_ms);
  put_summary(out, "cold_module_cpu_ms", report.cold_module_cpu_ms);
  put_summary(out, "warm_module_cpu_ms", report.warm_module_cpu_ms);
  out["module_cpu_unavailable"] = report.module_cpu_unavailable;
  out["overlap_factor"] = or_null(report.overlap_factor);
  // Derived from the loads' spans and threads (facts/load_overlap.h); written for readers of
  // the JSON, never read back.
  json overlapping = json::array();
  for (const auto& group : overlapping_loads(report.module_events)) {
    overlapping.push_back({{"pass", to_string(group.pass)},
                           {"pid", group.pid},
                           {"events", group.events},
                           {"threads", group.threads},
                           {"start_s", group.start_s},
                           {"end_s", group.end_s}});
  }
  out["overlapping_loads"] = std::move(overlapping);
  out["loads_observed"] = report.loads_observed;
  out["loads_unobserved"] = report.loads_unobserved;
  // Counts of loads nobody saw are not zeros.
  const auto count = [&report](std::uint64_t value) { return report.loads_observed ? json(value) : json(nullptr); };
  out["identities"] = count(report.identities);
  out["modules"] = count(report.modules);
  out["compiled_events"] = count(report.compiled_events);
  out["cached_events"] = count(report.cached_events);
  out["error_events"] = count(report.error_events);
  out["generated_source_bytes"] = report.cache.generated_source_bytes;
  out["lto_artifacts"] = report.cache.lto_artifacts;
  out["lto_bytes"] = report.cache.lto_bytes;
  out["module_directories"] = report.cache.module_directories;
  out["cache_total_bytes"] = or_null(report.cache.total_bytes);
  json sources = json::array();
  for (const auto& module : report.cache.modules) {
    json kernels = json::array();
    for (const auto& kernel : module.kernels) {
      kernels.push_back(
          {{"name", kernel.name}, {"forward_bytes", kernel.forward_bytes}, {"backward_bytes", kernel.backward_bytes}});
    }
    sources.push_back({{"directory", module.directory},
                       {"source_bytes", module.source_bytes},
                       {"forward_kernels", module.forward_kernels},
                       {"backward_kernels", module.backward_kernels},
                       {"shared_bytes", module.shared_bytes},
                       {"forward_line_markers", or_null(module.forward_line_markers)},
                       {"repeated_line_markers", or_null(module.repeated_line_markers)},
                       {"source_digest", or_null(module.source_digest)},
                       {"output_bytes", or_null(module.output_bytes)},
                       {"output_digest", or_null(module.output_digest)},
                       {"kernels", kernels}});
  }
  out["module_sources"] = sources;
  out["module_events"] = report.module_events;
  json processes = json::array();
  for (const auto& process : report.processes) processes.push_back(process_to_json(process));
  out["processes"] = processes;
  out["launch_count"] = total_launches(report);  // derived (facts/queries.h), never read back
  if (report.interop_launches) {
    json flat = json::array();
    for (const auto& launch : *report.interop_launches) flat.push_back(interop_launch_to_json(launch));
    out["launches"] = std::move(flat);
  }
  out["option_record"] = report.option_record ? option_record_to_json(*report.option_record) : json(nullptr);
  out["sample_results"] = report.sample_results;
  json changes = json::array();
  for (const auto& change : report.hash_changes) {
    changes.push_back({{"module", change.module}, {"old_hash", change.old_hash}, {"new_hash", change.new_hash}});
  }
  out["hash_changes"] = changes;
  out["find_failures"] = report.find_failures;
  const auto& status = report.instrumentation;
  json clears = json::array();
  for (const auto& clear : status.cache_clears) clears.push_back({{"what", clear.what}, {"site", or_null(clear.site)}});
  out["instrumentation"] = json{
      {"attached", status.attached},
      {"warp_api", status.warp_api},
      {"warp_dir", status.warp_dir},
      {"timers", status.timers},
      {"cuda_cache_disabled", or_null(status.cuda_cache_disabled)},
      {"missing", status.missing},
      {"cache_kernels_disabled", status.cache_kernels_disabled},
      {"cache_clears", clears},
      {"cuda_toolkit_version", status.cuda_toolkit_version.empty() ? json(nullptr) : json(status.cuda_toolkit_version)},
      {"app_kernel_cache_dir", or_null(status.app_kernel_cache_dir)},
      {"use_precompiled_headers", or_null(status.use_precompiled_headers)}};
  if (const auto& environment = report.build_environment) {
    out["build_environment"] = json{{"warp_version", environment->warp_version},
                                    {"cpu_compiler", environment->cpu_compiler},
                                    {"cuda_toolkit", environment->cuda_toolkit},
                                    {"cpu_model", environment->cpu_model},
                                    {"cpu_features", environment->cpu_features}};
  } else {
    out["build_environment"] = nullptr;
  }
  out["notes"] = report.notes;
  out["reference"] = report.reference ? reference_to_json(*report.reference) : json(nullptr);
  out["output_check"] = report.output_check ? output_check_to_json(*report.output_check) : json(nullptr);
  out["hash_stability"] = report.hash_stability ? hash_stability_to_json(*report.hash_stability) : json(nullptr);
  json arrivals = json::array();
  for (const auto& arrival : report.lever_arrivals) {
    arrivals.push_back({{"id", arrival.id},
                        {"status", arrival.status},
                        {"detail", arrival.detail},
                        {"modules_reached", arrival.modules_reached},
                        {"calls_intercepted", arrival.calls_intercepted},
                        {"modules_replaced", arrival.modules_replaced}});
  }
  out["lever_arrivals"] = std::move(arrivals);
  out["tests"] = test_attribution_to_json(report.tests);
  if (report.cache_audit) out["cache_audit"] = cache_audit_to_json(*report.cache_audit);  // absent when not asked
  if (report.cuda_build) {                                                                // absent when not asked
    out["cuda_build"] = cuda_build_to_json(*report.cuda_build);
    out["cuda_compile_cpu_ms"] = cuda_compile_summaries_to_json(report.cuda_compile_cpu_ms);
  }
  return out;
}

std::string report_to_json_text(const Report& report) {
  return report_to_json(report).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

Report report_from_json(const json& document, std::string_view source) {
  require_report(document, source);
  Report report;
  try {
    read_document(document, report);
  } catch (const FieldError& error) {
    throw UsageError(std::string(source) + ": " + error.what());
  } catch (const json::exception& error) {
    throw UsageError(std::string(source) + ": " + error.what());
  }
  return report;
}

Report report_from_json_text(std::string_view text, std::string_view source) {
  return report_from_json(parse_json_document(text, source), source);
}

Report load_report(const std::string& path) {
  return report_from_json_text(read_text_file(path, "report"), path);
}

}  // namespace wcp
