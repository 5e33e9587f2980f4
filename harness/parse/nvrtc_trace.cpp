#include "parse/nvrtc_trace.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

namespace wcp::parse {
namespace {

using nlohmann::json;

// NVRTC's names for its phases and per-function entries.
constexpr std::string_view kFrontEnd = "CUDA C++ Front-End";
constexpr std::string_view kHeader = "Processing Header File";
constexpr std::string_view kOptimizer = "NVVM Optimizer";
constexpr std::string_view kCodegen = "NVVM CodeGen";
constexpr std::string_view kPtxas = "Total PTXAS Time";
constexpr std::string_view kOptFunction = "OptFunction";                // args.detail: the function
constexpr std::string_view kPtxasUnit = "Optimizing compilation unit";  // args.name: the function
constexpr std::string_view kForwardSuffix = "_cuda_kernel_forward";
constexpr std::string_view kBackwardSuffix = "_cuda_kernel_backward";

// A time interval of the trace, in microseconds.
struct Span {
  double start = 0.0;
  double end = 0.0;
  double length() const { return end - start; }
  bool contains(const Span& inner) const { return start <= inner.start && inner.end <= end; }
};

// One complete event; `detail` and `unit_name` are its args.detail and args.name ("" if absent).
struct TraceEvent {
  std::string name;
  Span span;
  std::string detail;
  std::string unit_name;
};

double ms_of_us(double us) {
  return us / 1000.0;
}

// Tolerant reads: a field of the wrong type is absent.
std::string text_of(const json& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : std::string{};
}

std::optional<double> finite_number_of(const json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_number()) return std::nullopt;
  const double number = found->get<double>();
  return std::isfinite(number) ? std::optional{number} : std::nullopt;
}

// A complete ("X") event with a name, a start and a non-negative duration; anything else
// (the `{}` NVRTC writes last, another phase type, a broken field) is no event.
std::optional<TraceEvent> complete_event_of(const json& item) {
  if (!item.is_object()) return std::nullopt;
  if (const auto phase = item.find("ph"); phase != item.end() && (!phase->is_string() || *phase != "X"))
    return std::nullopt;
  const std::string name = text_of(item, "name");
  const auto start = finite_number_of(item, "ts");
  const auto duration = finite_number_of(item, "dur");
  if (name.empty() || !start || !duration || *duration < 0.0) return std::nullopt;
  TraceEvent event{name, {*start, *start + *duration}, {}, {}};
  if (const auto args = item.find("args"); args != item.end() && args->is_object()) {
    event.detail = text_of(*args, "detail");
    event.unit_name = text_of(*args, "name");
  }
  return event;
}

std::vector<TraceEvent> complete_events_of(const json& trace_events) {
  std::vector<TraceEvent> events;
  for (const auto& item : trace_events) {
    if (auto event = complete_event_of(item)) events.push_back(std::move(*event));
  }
  return events;
}

std::vector<Span> spans_named(const std::vector<TraceEvent>& events, std::string_view name) {
  std::vector<Span> spans;
  for (const auto& event : events) {
    if (event.name == name) spans.push_back(event.span);
  }
  return spans;
}

bool inside_any(const Span& inner, const std::vector<Span>& outers) {
  return std::any_of(outers.begin(), outers.end(), [&](const Span& outer) { return outer.contains(inner); });
}

// A phase met more than once (NVRTC times each pass anew) counts each time.
std::optional<double> summed_ms(const std::vector<Span>& spans) {
  if (spans.empty()) return std::nullopt;
  double us = 0.0;
  for (const auto& span : spans) us += span.length();
  return ms_of_us(us);
}

// The time covered by `spans`, overlaps counted once: a function's entries nest (a pass inside a
// pass) and must not add up to more than the phase they sit in.
std::optional<double> covered_ms(std::vector<Span> spans) {
  if (spans.empty()) return std::nullopt;
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
  double us = 0.0;
  Span merged = spans.front();
  for (const auto& span : spans) {
    if (span.start <= merged.end) {
      merged.end = std::max(merged.end, span.end);
    } else {
      us += merged.length();
      merged = span;
    }
  }
  us += merged.length();
  return ms_of_us(us);
}

// Headers nest (an #include inside a header is timed inside it): only the outermost ones add up
// to the front end's time spent on headers.
std::optional<double> top_level_headers_ms(const std::vector<TraceEvent>& events, const std::vector<Span>& front_ends) {
  std::vector<Span> headers;
  for (const auto& span : spans_named(events, kHeader)) {
    if (inside_any(span, front_ends)) headers.push_back(span);
  }
  // Earliest first, the longer of two equal starts first: each header is then contained in an
  // earlier one exactly when it ends no later than the furthest end seen so far.
  std::sort(headers.begin(), headers.end(),
            [](const Span& a, const Span& b) { return std::tie(a.start, b.end) < std::tie(b.start, a.end); });
  std::vector<Span> top_level;
  std::optional<double> furthest_end;
  for (const auto& header : headers) {
    if (!furthest_end || header.end > *furthest_end) top_level.push_back(header);
    furthest_end = std::max(furthest_end.value_or(header.end), header.end);
  }
  return summed_ms(top_level);
}

std::optional<double> whole_trace_ms(const std::vector<TraceEvent>& events) {
  if (events.empty()) return std::nullopt;
  double first_start = events.front().span.start;
  double last_end = events.front().span.end;
  for (const auto& event : events) {
    first_start = std::min(first_start, event.span.start);
    last_end = std::max(last_end, event.span.end);
  }
  return ms_of_us(last_end - first_start);
}

CudaPhases phases_of(const std::vector<TraceEvent>& events) {
  CudaPhases phases;
  const auto front_ends = spans_named(events, kFrontEnd);
  phases.front_end_ms = summed_ms(front_ends);
  phases.headers_ms = top_level_headers_ms(events, front_ends);
  phases.optimizer_ms = summed_ms(spans_named(events, kOptimizer));
  phases.codegen_ms = summed_ms(spans_named(events, kCodegen));
  phases.ptxas_ms = summed_ms(spans_named(events, kPtxas));
  phases.total_ms = whole_trace_ms(events);
  return phases;
}

bool has_phase(const CudaPhases& phases) {
  return phases.front_end_ms || phases.optimizer_ms || phases.codegen_ms || phases.ptxas_ms;
}

// A Warp kernel's entry point: "<mangled>_cuda_kernel_forward" or "..._backward".
struct KernelFunction {
  std::string mangled;
  bool backward = false;
};

std::optional<KernelFunction> kernel_function_of(std::string_view function) {
  for (const auto& [suffix, backward] : {std::pair{kForwardSuffix, false}, std::pair{kBackwardSuffix, true}}) {
    if (function.size() > suffix.size() && function.ends_with(suffix))
      return KernelFunction{std::string(function.substr(0, function.size() - suffix.size())), backward};
  }
  return std::nullopt;
}

// One kernel function's entries, each list already inside its phase.
struct FunctionSpans {
  std::vector<Span> optimizer;
  std::vector<Span> codegen;
  std::vector<Span> ptxas;
};

// Per kernel function name. An OptFunction entry outside the optimizer and codegen (NVRTC also
// optimises during the front end) belongs to neither phase and is not counted.
std::map<std::string, FunctionSpans> kernel_function_spans(const std::vector<TraceEvent>& events) {
  const auto optimizers = spans_named(events, kOptimizer);
  const auto codegens = spans_named(events, kCodegen);
  std::map<std::string, FunctionSpans> functions;
  for (const auto& event : events) {
    if (event.name == kOptFunction && kernel_function_of(event.detail)) {
      if (inside_any(event.span, optimizers)) functions[event.detail].optimizer.push_back(event.span);
      if (inside_any(event.span, codegens)) functions[event.detail].codegen.push_back(event.span);
    } else if (event.name == kPtxasUnit && kernel_function_of(event.unit_name)) {
      functions[event.unit_name].ptxas.push_back(event.span);
    }
  }
  return functions;
}

void add_function_costs(CudaKernelCost& cost, bool backward, const FunctionSpans& spans) {
  auto& optimizer = backward ? cost.backward_optimizer_ms : cost.forward_optimizer_ms;
  auto& codegen = backward ? cost.backward_codegen_ms : cost.forward_codegen_ms;
  auto& ptxas = backward ? cost.backward_ptxas_ms : cost.forward_ptxas_ms;
  optimizer = covered_ms(spans.optimizer);
  codegen = covered_ms(spans.codegen);
  ptxas = covered_ms(spans.ptxas);
}

void rank_costliest_first(std::vector<CudaKernelCost>& kernels) {
  std::sort(kernels.begin(), kernels.end(), [](const CudaKernelCost& a, const CudaKernelCost& b) {
    const double a_ms = a.total_ms().value_or(0.0);
    const double b_ms = b.total_ms().value_or(0.0);
    if (a_ms != b_ms) return a_ms > b_ms;
    return a.mangled < b.mangled;
  });
}

std::vector<CudaKernelCost> kernel_costs_of(const std::vector<TraceEvent>& events) {
  std::map<std::string, CudaKernelCost> by_mangled;
  for (const auto& [function, spans] : kernel_function_spans(events)) {
    const auto kernel = kernel_function_of(function);  // present: only kernel functions are collected
    auto& cost = by_mangled[kernel->mangled];
    cost.mangled = kernel->mangled;
    add_function_costs(cost, kernel->backward, spans);
  }
  // Every kernel here has a figure: a function enters kernel_function_spans only with an entry.
  std::vector<CudaKernelCost> kernels;
  for (auto& [mangled, cost] : by_mangled) kernels.push_back(std::move(cost));
  rank_costliest_first(kernels);
  return kernels;
}

}  // namespace

std::optional<NvrtcTrace> read_nvrtc_trace(std::string_view text, std::string& why) {
  const json document = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) {
    why = "The trace is not JSON.";
    return std::nullopt;
  }
  const auto trace_events = document.is_object() ? document.find("traceEvents") : document.end();
  if (!document.is_object() || trace_events == document.end() || !trace_events->is_array()) {
    why = "The trace has no traceEvents array.";
    return std::nullopt;
  }
  const auto events = complete_events_of(*trace_events);
  NvrtcTrace trace{phases_of(events), kernel_costs_of(events)};
  if (!has_phase(trace.phases)) {
    why = "The trace has none of NVRTC's phase events (front end, optimizer, codegen, PTXAS).";
    return std::nullopt;
  }
  return trace;
}

}  // namespace wcp::parse
