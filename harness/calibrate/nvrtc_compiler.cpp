#include "calibrate/nvrtc_compiler.h"

#include <sys/resource.h>

#include <chrono>
#include <sstream>

#include "errors.h"

namespace wcp::calibrate {
namespace {

// Owns one nvrtcProgram so that every exit path, including a throwing one, destroys it.
class Program {
 public:
  Program(const NvrtcLibrary& nvrtc, const CompileRequest& request) : nvrtc_(nvrtc) {
    const int status = nvrtc_.api().create_program(&program_, request.source.c_str(), request.name.c_str(), 0,
                                                   nullptr, nullptr);
    if (status != kNvrtcSuccess) {
      throw RunError("NVRTC cannot create program " + request.name + ": " + nvrtc_.error_string(status));
    }
  }
  ~Program() {
    if (program_ != nullptr) nvrtc_.api().destroy_program(&program_);
  }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  NvrtcProgram get() const { return program_; }

 private:
  const NvrtcLibrary& nvrtc_;
  NvrtcProgram program_ = nullptr;
};

template <typename SizeFunction, typename DataFunction>
std::string fetch(const NvrtcLibrary& nvrtc, NvrtcProgram program, SizeFunction size_of, DataFunction data_of,
                  const char* what, bool is_text, const std::string& name) {
  size_t size = 0;
  int status = size_of(program, &size);
  std::string buffer(size, '\0');
  if (status == kNvrtcSuccess && size > 0) status = data_of(program, buffer.data());
  if (status != kNvrtcSuccess) {
    throw RunError(std::string("NVRTC cannot return the ") + what + " of " + name + ": " +
                     nvrtc.error_string(status));
  }
  // Logs and PTX are NUL-terminated and NVRTC counts the terminator in their size.
  if (is_text && !buffer.empty() && buffer.back() == '\0') buffer.pop_back();
  return buffer;
}

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r");
  return std::string(text.substr(first, last - first + 1));
}

double to_milliseconds(double value, const std::string& unit) {
  if (unit == "s") return value * 1000.0;
  if (unit == "us") return value / 1000.0;
  return value;  // "ms", the unit NVRTC 12 and 13 use
}

double process_cpu_ms() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  const auto ms = [](const timeval& time) { return time.tv_sec * 1000.0 + time.tv_usec / 1000.0; };
  return ms(usage.ru_utime) + ms(usage.ru_stime);
}

}  // namespace

CompileOutcome try_compile(const NvrtcLibrary& nvrtc, const CompileRequest& request) {
  Program program(nvrtc, request);
  std::vector<const char*> options;
  options.reserve(request.options.size());
  for (const auto& option : request.options) options.push_back(option.c_str());

  CompileOutcome outcome;
  const double cpu_start = process_cpu_ms();
  const auto start = std::chrono::steady_clock::now();
  outcome.status = nvrtc.api().compile_program(program.get(), static_cast<int>(options.size()), options.data());
  outcome.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  outcome.cpu_ms = process_cpu_ms() - cpu_start;

  const auto& api = nvrtc.api();
  outcome.log = fetch(nvrtc, program.get(), api.get_program_log_size, api.get_program_log, "log", true, request.name);
  if (!outcome.succeeded()) return outcome;
  outcome.output = request.output == OutputKind::kCubin
                       ? fetch(nvrtc, program.get(), api.get_cubin_size, api.get_cubin, "CUBIN", false, request.name)
                       : fetch(nvrtc, program.get(), api.get_ptx_size, api.get_ptx, "PTX", true, request.name);
  return outcome;
}

CompileOutcome compile(const NvrtcLibrary& nvrtc, const CompileRequest& request) {
  auto outcome = try_compile(nvrtc, request);
  if (!outcome.succeeded()) {
    std::string message = "NVRTC failed to compile calibration fixture " + request.name + " (" +
                          nvrtc.error_string(outcome.status) + "); NVRTC log:\n" + trim(outcome.log);
    throw RunError(message);
  }
  return outcome;
}

std::optional<PhaseTimes> parse_phase_times(std::string_view log) {
  const auto header = log.find("File name, phase name");
  if (header == std::string_view::npos) return std::nullopt;
  std::istringstream lines{std::string(log.substr(header))};
  std::string line;
  std::getline(lines, line);  // the header itself
  PhaseTimes times;
  bool any = false;
  while (std::getline(lines, line)) {
    // "file, phase, metric, unit": split from the right, since a file name may hold commas.
    const auto unit_comma = line.rfind(',');
    if (unit_comma == std::string::npos) continue;
    const auto metric_comma = line.rfind(',', unit_comma - 1);
    if (metric_comma == std::string::npos || metric_comma == 0) continue;
    const auto phase_comma = line.rfind(',', metric_comma - 1);
    if (phase_comma == std::string::npos) continue;
    const std::string phase = trim(std::string_view(line).substr(phase_comma + 1, metric_comma - phase_comma - 1));
    const std::string metric = trim(std::string_view(line).substr(metric_comma + 1, unit_comma - metric_comma - 1));
    const std::string unit = trim(std::string_view(line).substr(unit_comma + 1));
    double value = 0.0;
    try {
      value = std::stod(metric);
    } catch (const std::exception&) {
      continue;  // not a timing row
    }
    const double ms = to_milliseconds(value, unit);
    if (phase.find("Frontend") != std::string::npos || phase.find("Front end") != std::string::npos) {
      times.front_end_ms += ms;
    } else {
      times.back_end_ms += ms;
    }
    any = true;
  }
  if (!any) return std::nullopt;
  return times;
}

PchUse pch_use(std::string_view log) {
  if (log.find("creating precompiled header") != std::string_view::npos) return PchUse::kCreated;
  if (log.find("using precompiled header") != std::string_view::npos) return PchUse::kUsed;
  return PchUse::kNone;
}

}  // namespace wcp::calibrate
