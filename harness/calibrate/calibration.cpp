#include "calibrate/calibration.h"

#include <pwd.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>

#include "errors.h"
#include "io/file_io.h"

namespace wcp::calibrate {
namespace {

using nlohmann::json;

template <typename T>
void put_optional(json& json_object, const char* key, const std::optional<T>& value) {
  if (value) json_object[key] = *value;
}

template <typename T>
std::optional<T> get_optional(const json& json_object, const char* key) {
  const auto found = json_object.find(key);
  if (found == json_object.end() || found->is_null()) return std::nullopt;
  return found->get<T>();
}

json cost_to_json(const CostModel& cost) {
  return json{{"fixed_ms", cost.fixed_ms},
              {"fixed_mad_ms", cost.fixed_mad_ms},
              {"per_kernel_ms", cost.per_kernel_ms},
              {"per_kernel_mad_ms", cost.per_kernel_mad_ms},
              {"r_squared", cost.r_squared}};
}

CostModel cost_from_json(const json& json_object) {
  CostModel cost;
  cost.fixed_ms = json_object.at("fixed_ms").get<double>();
  cost.fixed_mad_ms = json_object.value("fixed_mad_ms", 0.0);
  cost.per_kernel_ms = json_object.at("per_kernel_ms").get<double>();
  cost.per_kernel_mad_ms = json_object.value("per_kernel_mad_ms", 0.0);
  cost.r_squared = json_object.value("r_squared", 0.0);
  return cost;
}

std::optional<CostModel> optional_cost(const json& json_object, const char* key) {
  const auto found = json_object.find(key);
  if (found == json_object.end() || found->is_null()) return std::nullopt;
  return cost_from_json(*found);
}

json reference_to_json(const StoredReference& reference) {
  return json{{"name", reference.name},
              {"description", reference.description},
              {"median_ms", reference.cost_ms.median},
              {"mad_ms", reference.cost_ms.mad.value_or(0.0)},
              {"samples_ms", reference.cost_ms.values}};
}

std::optional<StoredReference> optional_reference(const json& json_object) {
  const auto found = json_object.find("reference");
  if (found == json_object.end() || found->is_null()) return std::nullopt;
  StoredReference reference;
  reference.name = found->at("name").get<std::string>();
  reference.description = found->value("description", "");
  const auto samples = found->value("samples_ms", std::vector<double>{});
  if (auto summary = summarize(samples)) {
    reference.cost_ms = *summary;
  } else {
    reference.cost_ms.median = found->at("median_ms").get<double>();
    reference.cost_ms.mad = found->value("mad_ms", 0.0);
  }
  return reference;
}

json fixture_to_json(const FixtureTiming& fixture) {
  json out{{"name", fixture.name},
           {"kernels", fixture.kernels},
           {"warp_header", fixture.warp_header},
           {"precompiled_header", fixture.precompiled_header},
           {"median_ms", fixture.median_ms},
           {"mad_ms", fixture.mad_ms},
           {"cpu_median_ms", fixture.cpu_median_ms},
           {"samples_ms", fixture.samples_ms}};
  if (fixture.precompiled_header) out["pch_reused"] = fixture.pch_reused;
  put_optional(out, "front_end_ms", fixture.front_end_ms);
  put_optional(out, "back_end_ms", fixture.back_end_ms);
  return out;
}

FixtureTiming fixture_from_json(const json& json_object) {
  FixtureTiming fixture;
  fixture.name = json_object.at("name").get<std::string>();
  fixture.kernels = json_object.at("kernels").get<int>();
  fixture.warp_header = json_object.value("warp_header", false);
  fixture.precompiled_header = json_object.value("precompiled_header", false);
  fixture.pch_reused = json_object.value("pch_reused", false);
  fixture.median_ms = json_object.at("median_ms").get<double>();
  fixture.mad_ms = json_object.value("mad_ms", 0.0);
  fixture.cpu_median_ms = json_object.value("cpu_median_ms", 0.0);
  fixture.front_end_ms = get_optional<double>(json_object, "front_end_ms");
  fixture.back_end_ms = get_optional<double>(json_object, "back_end_ms");
  fixture.samples_ms = json_object.value("samples_ms", std::vector<double>{});
  return fixture;
}

json cuda_to_json(const CudaCalibration& cuda) {
  json out{{"nvrtc_version", cuda.nvrtc_version},
           {"nvrtc_library", cuda.nvrtc_library},
           {"arch", cuda.arch},
           {"output", cuda.output},
           {"samples", cuda.samples},
           {"no_cache", cuda.no_cache},
           {"phase_timing", cuda.phase_timing},
           {"precompiled_headers", cuda.precompiled_headers},
           {"without_pch", cost_to_json(cuda.without_pch)},
           {"header_share_ms", cuda.header_share_ms},
           {"max_relative_mad", cuda.max_relative_mad},
           {"fixtures", json::array()}};
  if (cuda.with_pch) out["with_pch"] = cost_to_json(*cuda.with_pch);
  put_optional(out, "pch_build_ms", cuda.pch_build_ms);
  for (const auto& fixture : cuda.fixtures) out["fixtures"].push_back(fixture_to_json(fixture));
  if (cuda.reference) out["reference"] = reference_to_json(*cuda.reference);
  return out;
}

CudaCalibration cuda_from_json(const json& json_object) {
  CudaCalibration cuda;
  cuda.nvrtc_version = json_object.value("nvrtc_version", "");
  cuda.nvrtc_library = json_object.value("nvrtc_library", "");
  cuda.arch = json_object.value("arch", "");
  cuda.output = json_object.value("output", "");
  cuda.samples = json_object.value("samples", 0);
  cuda.no_cache = json_object.value("no_cache", false);
  cuda.phase_timing = json_object.value("phase_timing", false);
  cuda.precompiled_headers = json_object.value("precompiled_headers", false);
  cuda.without_pch = cost_from_json(json_object.at("without_pch"));
  cuda.with_pch = optional_cost(json_object, "with_pch");
  cuda.pch_build_ms = get_optional<double>(json_object, "pch_build_ms");
  cuda.header_share_ms = json_object.value("header_share_ms", 0.0);
  cuda.max_relative_mad = json_object.value("max_relative_mad", 0.0);
  if (const auto fixtures = json_object.find("fixtures"); fixtures != json_object.end()) {
    for (const auto& fixture : *fixtures) cuda.fixtures.push_back(fixture_from_json(fixture));
  }
  cuda.reference = optional_reference(json_object);
  return cuda;
}

json warp_cpu_to_json(const WarpCpuCalibration& cpu) {
  json out{{"without_pch", cost_to_json(cpu.without_pch)}};
  if (cpu.with_pch) out["with_pch"] = cost_to_json(*cpu.with_pch);
  put_optional(out, "pch_build_ms", cpu.pch_build_ms);
  if (cpu.reference) out["reference"] = reference_to_json(*cpu.reference);
  return out;
}

WarpCpuCalibration warp_cpu_from_json(const json& json_object) {
  WarpCpuCalibration cpu;
  cpu.without_pch = cost_from_json(json_object.at("without_pch"));
  cpu.with_pch = optional_cost(json_object, "with_pch");
  cpu.pch_build_ms = get_optional<double>(json_object, "pch_build_ms");
  cpu.reference = optional_reference(json_object);
  return cpu;
}

// Accepts 1 and "1.x": a later minor revision only adds fields this reader ignores.
std::optional<int> schema_major(const json& json_object) {
  const auto found = json_object.find("schema_version");
  if (found == json_object.end()) return std::nullopt;
  if (found->is_number_integer()) return found->get<int>();
  if (found->is_string()) {
    try {
      return std::stoi(found->get<std::string>());
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::filesystem::path home_dir() {
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') return home;
  if (const passwd* entry = ::getpwuid(::getuid()); entry != nullptr && entry->pw_dir != nullptr) return entry->pw_dir;
  throw UsageError(
      "cannot tell where to keep the calibration: neither XDG_CACHE_HOME nor HOME is set (pass --json OUT)");
}

}  // namespace

double Calibration::cuda_fixed_ms(bool precompiled_headers) const {
  if (precompiled_headers && cuda.with_pch) return cuda.with_pch->fixed_ms;
  return cuda.without_pch.fixed_ms;
}

const StoredReference* Calibration::reference_for(ReferenceKind kind) const {
  if (kind == ReferenceKind::nvrtc) return cuda.reference ? &*cuda.reference : nullptr;
  return warp_cpu && warp_cpu->reference ? &*warp_cpu->reference : nullptr;
}

void to_json(json& out, const Calibration& calibration) {
  out = as_document(DocumentKind::calibration, json{{"schema_version", calibration.schema_version},
                                                    {"tool_version", calibration.tool_version},
                                                    {"created_at", calibration.created_at},
                                                    {"machine",
                                                     {{"hostname", calibration.machine.hostname},
                                                      {"cpu_model", calibration.machine.cpu_model},
                                                      {"cpu_cores", calibration.machine.cpu_cores}}},
                                                    {"wall_ms", calibration.wall_ms},
                                                    {"cuda", cuda_to_json(calibration.cuda)}});
  put_optional(out, "load_average", calibration.load_average);
  if (calibration.warp_cpu) out["warp_cpu"] = warp_cpu_to_json(*calibration.warp_cpu);
}

void from_json(const json& in, Calibration& calibration) {
  calibration.schema_version = schema_major(in).value_or(0);
  calibration.tool_version = in.value("tool_version", "");
  calibration.created_at = in.value("created_at", "");
  const auto& machine = in.at("machine");
  calibration.machine.hostname = machine.value("hostname", "");
  calibration.machine.cpu_model = machine.value("cpu_model", "");
  calibration.machine.cpu_cores = machine.value("cpu_cores", 0);
  calibration.wall_ms = in.value("wall_ms", 0.0);
  calibration.load_average = get_optional<double>(in, "load_average");
  calibration.cuda = cuda_from_json(in.at("cuda"));
  calibration.warp_cpu.reset();
  if (const auto cpu = in.find("warp_cpu"); cpu != in.end() && !cpu->is_null()) {
    calibration.warp_cpu = warp_cpu_from_json(*cpu);
  }
}

std::filesystem::path default_calibration_path() {
  std::filesystem::path cache;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    cache = xdg;
  } else {
    cache = home_dir() / ".cache";
  }
  return cache / "warp-compile-probe" / ("calibration-" + current_hostname() + ".json");
}

std::optional<Calibration> load_calibration(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read calibration file " + path.string());
  json parsed;
  try {
    parsed = json::parse(in);
  } catch (const json::parse_error& parse_error) {
    throw UsageError("calibration file " + path.string() + " is not valid JSON (" + parse_error.what() +
                     "); rerun `warp-compile-probe calibrate`");
  }
  if (!parsed.is_object()) throw UsageError("calibration file " + path.string() + " is not a JSON object");
  // Another document given as the calibration is refused by name; an unnamed object is checked
  // field by field below, as before.
  if (const DocumentKind kind = identify_document(parsed);
      kind != DocumentKind::calibration && kind != DocumentKind::other_object) {
    throw UsageError("calibration file " + path.string() + ": " + std::string(describe(kind)) +
                     ", not a calibration file");
  }
  const auto major = schema_major(parsed);
  if (!major) {
    throw UsageError("calibration file " + path.string() +
                     " has no schema_version; rerun `warp-compile-probe calibrate`");
  }
  if (*major != kCalibrationSchemaVersion) {
    throw UsageError("calibration file " + path.string() + " has unsupported schema version " +
                     parsed.at("schema_version").dump() + " (this tool reads " +
                     std::to_string(kCalibrationSchemaVersion) + "); rerun `warp-compile-probe calibrate`");
  }
  try {
    return parsed.get<Calibration>();
  } catch (const json::exception& field_error) {
    throw UsageError("calibration file " + path.string() + " is malformed (" + field_error.what() +
                     "); rerun `warp-compile-probe calibrate`");
  }
}

std::optional<Calibration> load_default_calibration() {
  return load_calibration(default_calibration_path());
}

void write_calibration(const Calibration& calibration, const std::filesystem::path& path) {
  const auto target = std::filesystem::absolute(path);
  std::error_code error;
  std::filesystem::create_directories(target.parent_path(), error);
  if (error) {
    throw RunError("cannot create directory " + target.parent_path().string() + ": " + error.message());
  }
  write_file_atomically(target, json(calibration).dump(2) + "\n");
}

std::string utc_timestamp_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char text[32] = {};
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace wcp::calibrate
