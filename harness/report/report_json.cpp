#include "report/report_json.h"

#include <limits>
#include <type_traits>
#include <vector>

#include "errors.h"
#include "report/atomic_file.h"

namespace wcp {
namespace {

using nlohmann::json;

void put_summary(json& out, const std::string& stem, const Summary& summary) {
  out[stem + "_median"] = summary.median;
  out[stem + "_mad"] = summary.mad;
  out[stem + "_values"] = summary.values;
}

json detail_to_json(const LoadDetail& detail) {
  json kernels = json::array();
  for (const auto& kernel : detail.kernels) {
    kernels.push_back({{"key", kernel.key}, {"file", kernel.file}, {"line", kernel.line}, {"overloads", kernel.overloads}});
  }
  json out{{"full_hash", detail.full_hash}, {"kernels", kernels}, {"options", detail.options},
           {"config_at_load", detail.config_at_load}, {"end_s", detail.end_s}};
  if (detail.trigger) {
    out["trigger"] = {{"file", detail.trigger->file}, {"line", detail.trigger->line}, {"function", detail.trigger->function}};
  }
  return out;
}

json event_to_json(const ModuleEvent& event) {
  json out{{"name", event.name}, {"hash", event.hash}, {"device", event.device},
           {"block_dim", event.block_dim ? json(*event.block_dim) : json(nullptr)},
           {"ms", event.ms}, {"status", to_string(event.status)}, {"label", event.label},
           {"built_pch", event.built_pch}};
  out["native_ms"] = event.native_ms ? json(*event.native_ms) : json(nullptr);
  if (event.detail) out["detail"] = detail_to_json(*event.detail);
  return out;
}

json launch_to_json(const LaunchRun& run) {
  return {{"kernel", run.launch.kernel}, {"module", run.launch.module}, {"dim", run.launch.dim},
          {"device", run.launch.device}, {"dtypes", run.launch.dtypes}, {"block_dim", run.launch.block_dim},
          {"adjoint", run.launch.adjoint}, {"count", run.count}};
}

json sample_to_json(const SampleResult& sample) {
  json out{{"index", sample.index}, {"cold_ok", sample.cold_ok}, {"timed_out", sample.timed_out},
           {"exit_code", sample.exit_code}, {"failure", sample.failure}, {"cold_wall_ms", sample.cold_wall_ms},
           {"cold_module_ms", sample.cold_module_ms}, {"native_compile_ms", sample.native_compile_ms},
           {"warm_failure", sample.warm_failure}};
  out["warm_wall_ms"] = sample.warm_wall_ms ? json(*sample.warm_wall_ms) : json(nullptr);
  out["warm_module_ms"] = sample.warm_module_ms ? json(*sample.warm_module_ms) : json(nullptr);
  out["warm_compiled_events"] = sample.warm_compiled_events ? json(*sample.warm_compiled_events) : json(nullptr);
  return out;
}

// --- reading -------------------------------------------------------------------------------

// Converting a JSON float outside an integer type's range is undefined behaviour, so integer
// fields (and lists of them) are range-checked before nlohmann converts them.
template <typename T>
struct IsVector : std::false_type {};
template <typename T>
struct IsVector<std::vector<T>> : std::true_type {};

template <typename T>
bool fits(const json& value) {
  if constexpr (IsVector<T>::value) {
    if (!value.is_array()) return true;  // the conversion reports the wrong type
    for (const auto& item : value) {
      if (!fits<typename T::value_type>(item)) return false;
    }
    return true;
  } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (!value.is_number_float()) return true;
    const double number = value.get<double>();
    // Strictly inside: the max of a 64-bit type rounds up to 2^64 as a double.
    return number > static_cast<double>(std::numeric_limits<T>::min()) - 1.0 &&
           number < static_cast<double>(std::numeric_limits<T>::max());
  } else {
    return true;
  }
}

class Reader {
 public:
  explicit Reader(std::string_view source) : source_(source) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw UsageError(std::string(source_) + ": " + what);
  }

  template <typename T>
  T get(const json& object, const char* key, T fallback) const {
    const auto found = object.find(key);
    if (found == object.end() || found->is_null()) return fallback;
    if (!fits<T>(*found)) fail(std::string("field '") + key + "' is out of range");
    try {
      return found->get<T>();
    } catch (const json::exception&) {
      fail(std::string("field '") + key + "' has the wrong type (" + found->type_name() + ")");
    }
  }

  template <typename T>
  std::optional<T> optional(const json& object, const char* key) const {
    const auto found = object.find(key);
    if (found == object.end() || found->is_null()) return std::nullopt;
    return get<T>(object, key, T{});
  }

  const json* array(const json& object, const char* key) const {
    const auto found = object.find(key);
    if (found == object.end() || found->is_null()) return nullptr;
    if (!found->is_array()) fail(std::string("field '") + key + "' must be a list");
    return &*found;
  }

  Summary summary(const json& object, const std::string& stem) const {
    Summary summary;
    summary.median = get<double>(object, (stem + "_median").c_str(), 0.0);
    summary.mad = get<double>(object, (stem + "_mad").c_str(), 0.0);
    summary.values = get<std::vector<double>>(object, (stem + "_values").c_str(), {});
    return summary;
  }

  ModuleEvent event(const json& item) const {
    if (!item.is_object()) fail("each of 'module_events' must be an object");
    ModuleEvent event;
    event.name = get<std::string>(item, "name", "");
    event.hash = get<std::string>(item, "hash", "");
    event.device = get<std::string>(item, "device", "");
    event.block_dim = optional<int>(item, "block_dim");
    event.ms = get<double>(item, "ms", 0.0);
    try {
      event.status = load_status_from_string(get<std::string>(item, "status", "compiled"));
    } catch (const std::exception& error) {
      fail(error.what());
    }
    event.label = get<std::string>(item, "label", "");
    event.native_ms = optional<double>(item, "native_ms");
    event.built_pch = get<bool>(item, "built_pch", false);
    if (const auto found = item.find("detail"); found != item.end() && found->is_object()) {
      LoadDetail detail;
      detail.full_hash = get<std::string>(*found, "full_hash", "");
      if (const json* kernels = array(*found, "kernels")) {
        for (const auto& kernel : *kernels) {
          detail.kernels.push_back({get<std::string>(kernel, "key", ""), get<std::string>(kernel, "file", ""),
                                    get<int>(kernel, "line", 0), get<std::vector<std::string>>(kernel, "overloads", {})});
        }
      }
      detail.options = get<std::map<std::string, std::string>>(*found, "options", {});
      detail.config_at_load = get<std::map<std::string, std::string>>(*found, "config_at_load", {});
      detail.end_s = get<double>(*found, "end_s", 0.0);
      if (const auto trigger = found->find("trigger"); trigger != found->end() && trigger->is_object()) {
        detail.trigger = SourceLocation{get<std::string>(*trigger, "file", ""), get<int>(*trigger, "line", 0),
                                        get<std::string>(*trigger, "function", "")};
      }
      event.detail = std::move(detail);
    }
    return event;
  }

  LaunchRun launch(const json& item) const {
    if (!item.is_object()) fail("each of 'launches' must be an object");
    LaunchRun run;
    run.launch.kernel = get<std::string>(item, "kernel", "");
    run.launch.module = get<std::string>(item, "module", "");
    const auto dim = item.find("dim");
    if (dim != item.end() && dim->is_number_integer()) {
      run.launch.dim = {dim->get<std::int64_t>()};
    } else {
      run.launch.dim = get<std::vector<std::int64_t>>(item, "dim", {});
    }
    run.launch.device = get<std::string>(item, "device", "");
    run.launch.dtypes = get<std::vector<std::string>>(item, "dtypes", {});
    run.launch.block_dim = get<int>(item, "block_dim", 0);
    run.launch.adjoint = get<bool>(item, "adjoint", false);
    run.count = get<std::uint64_t>(item, "count", 1);
    return run;
  }

 private:
  std::string_view source_;
};

}  // namespace

json report_to_json(const Report& report) {
  json out;
  out["schema_version"] = report.schema_version;
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
  out["overlap_factor"] = report.overlap_factor;
  out["identities"] = report.identities;
  out["modules"] = report.modules;
  out["compiled_events"] = report.compiled_events;
  out["cached_events"] = report.cached_events;
  out["error_events"] = report.error_events;
  out["generated_source_bytes"] = report.cache.generated_source_bytes;
  out["lto_artifacts"] = report.cache.lto_artifacts;
  out["lto_bytes"] = report.cache.lto_bytes;
  out["module_directories"] = report.cache.module_directories;
  json sources = json::array();
  for (const auto& module : report.cache.modules) {
    sources.push_back({{"directory", module.directory}, {"source_bytes", module.source_bytes},
                       {"forward_kernels", module.forward_kernels}, {"backward_kernels", module.backward_kernels}});
  }
  out["module_sources"] = sources;
  json events = json::array();
  for (const auto& event : report.module_events) events.push_back(event_to_json(event));
  out["module_events"] = events;
  json launches = json::array();
  for (const auto& run : report.launches) launches.push_back(launch_to_json(run));
  out["launches"] = launches;
  out["launch_count"] = total_launches(report.launches);
  json samples = json::array();
  for (const auto& sample : report.sample_results) samples.push_back(sample_to_json(sample));
  out["sample_results"] = samples;
  out["hash_changes"] = report.hash_changes;
  out["find_failures"] = report.find_failures;
  const auto& probe = report.instrumentation;
  json instrumentation{{"attached", probe.attached},
                       {"missing", probe.missing},
                       {"cache_kernels_disabled", probe.cache_kernels_disabled},
                       {"cache_clears", probe.cache_clears},
                       {"cuda_toolkit_version", probe.cuda_toolkit_version}};
  instrumentation["app_kernel_cache_dir"] = probe.app_kernel_cache_dir ? json(*probe.app_kernel_cache_dir) : json(nullptr);
  instrumentation["use_precompiled_headers"] =
      probe.use_precompiled_headers ? json(*probe.use_precompiled_headers) : json(nullptr);
  out["instrumentation"] = instrumentation;
  out["notes"] = report.notes;
  return out;
}

std::string report_to_json_text(const Report& report) {
  return report_to_json(report).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

Report report_from_json(const json& document, std::string_view source) {
  const Reader read(source);
  if (!document.is_object()) read.fail("a report must be a JSON object");
  Report report;
  report.schema_version = read.get<int>(document, "schema_version", kReportSchemaVersion);
  if (report.schema_version != kReportSchemaVersion) {
    read.fail("unsupported schema_version " + std::to_string(report.schema_version) + " (this tool reads version " +
              std::to_string(kReportSchemaVersion) + ")");
  }
  report.tool_version = read.get<std::string>(document, "tool_version", "");
  report.warp_version = read.get<std::string>(document, "warp_version", "");
  const auto command = document.find("command");
  if (command != document.end() && command->is_string()) {
    report.command = {command->get<std::string>()};
  } else {
    report.command = read.get<std::vector<std::string>>(document, "command", {});
  }
  report.cwd = read.get<std::string>(document, "cwd", "");
  report.label = read.get<std::string>(document, "label", "");
  const auto samples = document.find("samples");
  report.samples = samples != document.end() && samples->is_array() ? static_cast<int>(samples->size())
                                                                    : read.get<int>(document, "samples", 0);
  report.failed_samples = read.get<int>(document, "failed_samples", 0);
  report.timed_out_samples = read.get<int>(document, "timed_out_samples", 0);
  report.cold_module_ms = read.summary(document, "cold_module_ms");
  report.native_compile_ms = read.summary(document, "native_compile_ms");
  report.warm_module_ms = read.summary(document, "warm_module_ms");
  report.cold_wall_ms = read.summary(document, "cold_wall_ms");
  report.warm_wall_ms = read.summary(document, "warm_wall_ms");
  report.compile_elapsed_ms = read.summary(document, "compile_elapsed_ms");
  report.overlap_factor = read.get<double>(document, "overlap_factor", 0.0);
  report.identities = read.get<std::uint64_t>(document, "identities", 0);
  report.modules = read.get<std::uint64_t>(document, "modules", 0);
  report.compiled_events = read.get<std::uint64_t>(document, "compiled_events", 0);
  report.cached_events = read.get<std::uint64_t>(document, "cached_events", 0);
  report.error_events = read.get<std::uint64_t>(document, "error_events", 0);
  report.cache.generated_source_bytes = read.get<std::uint64_t>(document, "generated_source_bytes", 0);
  report.cache.lto_artifacts = read.get<std::uint64_t>(document, "lto_artifacts", 0);
  report.cache.lto_bytes = read.get<std::uint64_t>(document, "lto_bytes", 0);
  report.cache.module_directories = read.get<std::uint64_t>(document, "module_directories", 0);
  if (const json* sources = read.array(document, "module_sources")) {
    for (const auto& item : *sources) {
      report.cache.modules.push_back({read.get<std::string>(item, "directory", ""),
                                      read.get<std::uint64_t>(item, "source_bytes", 0),
                                      read.get<std::uint64_t>(item, "forward_kernels", 0),
                                      read.get<std::uint64_t>(item, "backward_kernels", 0)});
    }
  }
  if (const json* events = read.array(document, "module_events")) {
    for (const auto& item : *events) report.module_events.push_back(read.event(item));
  }
  if (const json* launches = read.array(document, "launches")) {
    for (const auto& item : *launches) {
      const LaunchRun run = read.launch(item);
      append_launch(report.launches, run.launch, run.count);
    }
  }
  if (const json* samples_detail = read.array(document, "sample_results")) {
    for (const auto& item : *samples_detail) {
      SampleResult sample;
      sample.index = read.get<int>(item, "index", 0);
      sample.cold_ok = read.get<bool>(item, "cold_ok", false);
      sample.timed_out = read.get<bool>(item, "timed_out", false);
      sample.exit_code = read.get<int>(item, "exit_code", 0);
      sample.failure = read.get<std::string>(item, "failure", "");
      sample.cold_wall_ms = read.get<double>(item, "cold_wall_ms", 0.0);
      sample.cold_module_ms = read.get<double>(item, "cold_module_ms", 0.0);
      sample.native_compile_ms = read.get<double>(item, "native_compile_ms", 0.0);
      sample.warm_wall_ms = read.optional<double>(item, "warm_wall_ms");
      sample.warm_module_ms = read.optional<double>(item, "warm_module_ms");
      sample.warm_compiled_events = read.optional<int>(item, "warm_compiled_events");
      sample.warm_failure = read.get<std::string>(item, "warm_failure", "");
      report.sample_results.push_back(std::move(sample));
    }
  }
  report.hash_changes = read.get<std::vector<std::string>>(document, "hash_changes", {});
  report.find_failures = read.get<std::vector<std::string>>(document, "find_failures", {});
  if (const auto found = document.find("instrumentation"); found != document.end() && found->is_object()) {
    auto& probe = report.instrumentation;
    probe.attached = read.get<bool>(*found, "attached", false);
    probe.missing = read.get<std::vector<std::string>>(*found, "missing", {});
    probe.cache_kernels_disabled = read.get<bool>(*found, "cache_kernels_disabled", false);
    probe.cache_clears = read.get<std::vector<std::string>>(*found, "cache_clears", {});
    probe.cuda_toolkit_version = read.get<std::string>(*found, "cuda_toolkit_version", "");
    probe.app_kernel_cache_dir = read.optional<std::string>(*found, "app_kernel_cache_dir");
    probe.use_precompiled_headers = read.optional<bool>(*found, "use_precompiled_headers");
  }
  report.notes = read.get<std::vector<std::string>>(document, "notes", {});
  return report;
}

Report report_from_json_text(std::string_view text, std::string_view source) {
  json document = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) throw UsageError(std::string(source) + ": not valid JSON");
  return report_from_json(document, source);
}

Report load_report(const std::string& path) {
  return report_from_json_text(read_text_file(path, "report"), path);
}

}  // namespace wcp
