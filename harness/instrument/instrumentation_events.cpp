#include "instrument/instrumentation_events.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace wcp::instrument {
namespace {

using nlohmann::json;

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

std::optional<SourceLocation> location_of(const json& object) {
  const auto found = object.find("trigger");
  if (found == object.end() || !found->is_object()) return std::nullopt;
  return SourceLocation{text_of(*found, "file"), int_of(*found, "line").value_or(0), text_of(*found, "function")};
}

InstrumentedLoad load_of(const json& record) {
  InstrumentedLoad load;
  load.name = text_of(record, "name");
  load.device = text_of(record, "device");
  load.block_dim = int_of(record, "block_dim");
  load.pid = int_of(record, "pid").value_or(0);
  load.detail.full_hash = text_of(record, "full_hash");
  if (const auto kernels = record.find("kernels"); kernels != record.end() && kernels->is_array()) {
    for (const auto& item : *kernels) {
      if (!item.is_object()) continue;
      KernelInfo kernel{text_of(item, "key"), text_of(item, "file"), int_of(item, "line").value_or(0), {}};
      if (const auto overloads = item.find("overloads"); overloads != item.end() && overloads->is_array()) {
        for (const auto& overload : *overloads) kernel.overloads.push_back(overload.is_string() ? overload.get<std::string>() : overload.dump());
      }
      load.detail.kernels.push_back(std::move(kernel));
    }
  }
  for (const char* section : {"options", "config"}) {
    const auto found = record.find(section);
    if (found == record.end() || !found->is_object()) continue;
    auto& target = std::string_view(section) == "options" ? load.detail.options : load.detail.config_at_load;
    for (const auto& [key, value] : found->items()) target[key] = value.is_string() ? value.get<std::string>() : value.dump();
  }
  load.detail.trigger = location_of(record);
  if (const auto t = record.find("t"); t != record.end() && t->is_number()) load.detail.end_s = t->get<double>();
  return load;
}

LaunchSignature launch_of(const json& item) {
  LaunchSignature launch;
  launch.kernel = text_of(item, "kernel");
  launch.module = text_of(item, "module");
  if (const auto dim = item.find("dim"); dim != item.end() && dim->is_array()) {
    for (const auto& extent : *dim) launch.dim.push_back(extent.is_number_integer() ? extent.get<std::int64_t>() : 0);
  }
  launch.device = text_of(item, "device");
  if (const auto dtypes = item.find("dtypes"); dtypes != item.end() && dtypes->is_array()) {
    for (const auto& dtype : *dtypes) launch.dtypes.push_back(dtype.is_string() ? dtype.get<std::string>() : dtype.dump());
  }
  launch.block_dim = int_of(item, "block_dim").value_or(0);
  const auto adjoint = item.find("adjoint");
  launch.adjoint = adjoint != item.end() && adjoint->is_boolean() && adjoint->get<bool>();
  return launch;
}

void apply(InstrumentationEvents& events, const json& record) {
  const std::string type = text_of(record, "type");
  if (type == "attach") {
    events.attached = true;
    if (events.warp_version.empty()) events.warp_version = text_of(record, "warp_version");
  } else if (type == "load" || type == "load_error") {
    InstrumentedLoad load = load_of(record);
    load.failed = type == "load_error";
    events.loads.push_back(std::move(load));
  } else if (type == "cache_clear") {
    events.cache_clears.push_back({text_of(record, "what"), location_of(record)});
  } else if (type == "tape_backward") {
    events.tape_backward = true;
    if (const auto kernels = record.find("kernels"); kernels != record.end() && kernels->is_array()) {
      for (const auto& kernel : *kernels) {
        if (kernel.is_string()) events.tape_kernels.insert(kernel.get<std::string>());
      }
    }
  } else if (type == "exit") {
    events.launches_recorded = true;
    if (const auto launches = record.find("launches"); launches != record.end() && launches->is_array()) {
      for (const auto& item : *launches) {
        if (!item.is_object()) continue;
        const auto count = item.find("count");
        const std::uint64_t times = count != item.end() && count->is_number_unsigned() ? count->get<std::uint64_t>() : 1;
        events.launches.append(launch_of(item), times);
      }
    }
    if (const auto missing = record.find("missing"); missing != record.end() && missing->is_array()) {
      for (const auto& what : *missing) {
        if (what.is_string()) events.missing.push_back(what.get<std::string>());
      }
    }
    events.kernel_cache_dir = text_of(record, "kernel_cache_dir");
    if (const auto cache = record.find("cache_kernels"); cache != record.end() && cache->is_boolean()) {
      events.cache_kernels = cache->get<bool>();
    }
    if (const auto pch = record.find("use_precompiled_headers"); pch != record.end() && pch->is_boolean()) {
      events.use_precompiled_headers = pch->get<bool>();
    }
    events.cuda_toolkit = text_of(record, "cuda_toolkit");
  }
}

}  // namespace

InstrumentationEvents parse_instrumentation_events(std::string_view text) {
  InstrumentationEvents events;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const auto line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    const json record = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!record.is_object()) {
      ++events.malformed_lines;
      continue;
    }
    try {
      apply(events, record);
    } catch (const json::exception&) {
      ++events.malformed_lines;
    }
  }
  return events;
}

InstrumentationEvents read_instrumentation_events(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return {};
  std::ostringstream content;
  content << file.rdbuf();
  return parse_instrumentation_events(content.str());
}

}  // namespace wcp::instrument
