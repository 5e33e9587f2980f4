#include "parse/nvrtc_trace.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace wcp::parse {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// NVRTC traces recorded with Warp 1.19 for sm_86 (tests/data/nvrtc-trace; heavy_backward.py made
// the heavy_backward ones). The expected figures were computed from the JSON independently.
const fs::path kTraces = fs::path(WCP_TEST_DATA_DIR) / "nvrtc-trace";
constexpr double kTolerance = 0.01;  // ms

std::string read_text(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream content;
  content << file.rdbuf();
  EXPECT_FALSE(content.str().empty()) << path;
  return content.str();
}

NvrtcTrace read_recorded(const std::string& name) {
  std::string why;
  auto trace = read_nvrtc_trace(read_text(kTraces / name), why);
  EXPECT_TRUE(trace.has_value()) << name << ": " << why;
  return trace.value_or(NvrtcTrace{});
}

const CudaKernelCost* kernel_named(const NvrtcTrace& trace, const std::string& mangled) {
  for (const auto& kernel : trace.kernels) {
    if (kernel.mangled == mangled) return &kernel;
  }
  return nullptr;
}

json event(const std::string& name, double ts, double dur, json args = json::object()) {
  return {{"name", name}, {"ph", "X"}, {"pid", 0}, {"tid", 0}, {"ts", ts}, {"dur", dur}, {"args", args}};
}

json opt_function(const std::string& function, double ts, double dur) {
  return event("OptFunction", ts, dur, {{"detail", function}});
}

std::string trace_text(const json& events) {
  return json{{"traceEvents", events}, {"otherData", {{"isNVRTC", 1}}}}.dump();
}

NvrtcTrace read_synthetic(const json& events) {
  std::string why;
  auto trace = read_nvrtc_trace(trace_text(events), why);
  EXPECT_TRUE(trace.has_value()) << why;
  return trace.value_or(NvrtcTrace{});
}

TEST(NvrtcTraceRecorded, HeavyCubinPhases) {
  const auto phases = read_recorded("heavy_backward.sm86.cubin.trace.json").phases;
  ASSERT_TRUE(phases.front_end_ms && phases.headers_ms && phases.optimizer_ms && phases.codegen_ms && phases.ptxas_ms &&
              phases.total_ms);
  EXPECT_NEAR(*phases.front_end_ms, 310.974, kTolerance);
  EXPECT_NEAR(*phases.headers_ms, 207.479, kTolerance);  // builtin header, builtin.h, deterministic.h
  EXPECT_NEAR(*phases.optimizer_ms, 4653.782, kTolerance);
  EXPECT_NEAR(*phases.codegen_ms, 255.733, kTolerance);
  EXPECT_NEAR(*phases.ptxas_ms, 1191.432, kTolerance);
  EXPECT_NEAR(*phases.total_ms, 6429.291, kTolerance);
}

TEST(NvrtcTraceRecorded, HeavyCubinKernels) {
  const auto trace = read_recorded("heavy_backward.sm86.cubin.trace.json");
  ASSERT_EQ(trace.kernels.size(), 2u);
  const auto& heavy = trace.kernels[0];
  EXPECT_EQ(heavy.mangled, "heavy_63716231");  // ranks first
  EXPECT_EQ(heavy.kernel, "");                 // the caller names it
  ASSERT_TRUE(heavy.forward_optimizer_ms && heavy.backward_optimizer_ms);
  // The forward's OptFunction entries during the front end (302.249 ms in) are no optimizer time.
  EXPECT_NEAR(*heavy.forward_optimizer_ms, 573.019, kTolerance);
  EXPECT_NEAR(*heavy.backward_optimizer_ms, 3916.764, kTolerance);
  EXPECT_GT(*heavy.backward_optimizer_ms, *heavy.forward_optimizer_ms);
  EXPECT_NEAR(heavy.forward_codegen_ms.value_or(-1), 53.925, kTolerance);
  EXPECT_NEAR(heavy.backward_codegen_ms.value_or(-1), 196.862, kTolerance);
  EXPECT_NEAR(heavy.forward_ptxas_ms.value_or(-1), 212.664, kTolerance);
  EXPECT_NEAR(heavy.backward_ptxas_ms.value_or(-1), 891.919, kTolerance);
  EXPECT_NEAR(heavy.total_ms().value_or(-1), 573.019 + 3916.764 + 53.925 + 196.862 + 212.664 + 891.919, kTolerance);

  const auto* light = kernel_named(trace, "light_67229f32");
  ASSERT_NE(light, nullptr);
  EXPECT_EQ(light, &trace.kernels[1]);
  EXPECT_NEAR(light->forward_optimizer_ms.value_or(-1), 11.827, kTolerance);
  EXPECT_NEAR(light->backward_optimizer_ms.value_or(-1), 6.466, kTolerance);
  EXPECT_NEAR(light->forward_codegen_ms.value_or(-1), 1.764, kTolerance);
  EXPECT_NEAR(light->backward_codegen_ms.value_or(-1), 2.081, kTolerance);
  EXPECT_NEAR(light->forward_ptxas_ms.value_or(-1), 5.309, kTolerance);
  EXPECT_NEAR(light->backward_ptxas_ms.value_or(-1), 9.914, kTolerance);
}

TEST(NvrtcTraceRecorded, PtxTraceHasNoPtxasFigures) {
  const auto trace = read_recorded("heavy_backward.sm86.ptx.trace.json");
  EXPECT_EQ(trace.phases.ptxas_ms, std::nullopt);
  EXPECT_NEAR(trace.phases.front_end_ms.value_or(-1), 316.636, kTolerance);
  EXPECT_NEAR(trace.phases.optimizer_ms.value_or(-1), 4685.081, kTolerance);
  EXPECT_NEAR(trace.phases.codegen_ms.value_or(-1), 264.156, kTolerance);
  ASSERT_EQ(trace.kernels.size(), 2u);
  EXPECT_EQ(trace.kernels[0].mangled, "heavy_63716231");
  EXPECT_NEAR(trace.kernels[0].backward_optimizer_ms.value_or(-1), 3960.827, kTolerance);
  for (const auto& kernel : trace.kernels) {
    EXPECT_EQ(kernel.forward_ptxas_ms, std::nullopt) << kernel.mangled;
    EXPECT_EQ(kernel.backward_ptxas_ms, std::nullopt) << kernel.mangled;
    EXPECT_TRUE(kernel.forward_optimizer_ms && kernel.backward_optimizer_ms) << kernel.mangled;
  }
}

TEST(NvrtcTraceRecorded, OneKernel) {
  const auto trace = read_recorded("one_kernel.sm86.cubin.trace.json");
  EXPECT_NEAR(trace.phases.optimizer_ms.value_or(-1), 30.907, kTolerance);
  EXPECT_NEAR(trace.phases.ptxas_ms.value_or(-1), 40.730, kTolerance);
  ASSERT_EQ(trace.kernels.size(), 1u);
  const auto& kernel = trace.kernels[0];
  EXPECT_EQ(kernel.mangled, "k_9e912e8d");
  EXPECT_NEAR(kernel.forward_optimizer_ms.value_or(-1), 10.884, kTolerance);
  EXPECT_NEAR(kernel.backward_optimizer_ms.value_or(-1), 14.190, kTolerance);
  EXPECT_NEAR(kernel.forward_ptxas_ms.value_or(-1), 13.175, kTolerance);
  EXPECT_NEAR(kernel.backward_ptxas_ms.value_or(-1), 17.513, kTolerance);
}

TEST(NvrtcTraceRecorded, KernelsWithinTheirPhasesAndHeadersWithinFrontEnd) {
  for (const auto* name : {"heavy_backward.sm86.cubin.trace.json", "heavy_backward.sm86.ptx.trace.json",
                           "one_kernel.sm86.cubin.trace.json"}) {
    SCOPED_TRACE(name);
    const auto trace = read_recorded(name);
    ASSERT_TRUE(trace.phases.front_end_ms && trace.phases.headers_ms && trace.phases.optimizer_ms &&
                trace.phases.codegen_ms && trace.phases.total_ms);
    EXPECT_GT(*trace.phases.headers_ms, 0.0);
    EXPECT_LT(*trace.phases.headers_ms, *trace.phases.front_end_ms);
    EXPECT_LT(*trace.phases.front_end_ms + *trace.phases.optimizer_ms + *trace.phases.codegen_ms,
              *trace.phases.total_ms);
    double optimizer_ms = 0.0;
    double codegen_ms = 0.0;
    double ptxas_ms = 0.0;
    for (const auto& kernel : trace.kernels) {
      optimizer_ms += kernel.forward_optimizer_ms.value_or(0) + kernel.backward_optimizer_ms.value_or(0);
      codegen_ms += kernel.forward_codegen_ms.value_or(0) + kernel.backward_codegen_ms.value_or(0);
      ptxas_ms += kernel.forward_ptxas_ms.value_or(0) + kernel.backward_ptxas_ms.value_or(0);
    }
    EXPECT_GT(optimizer_ms, 0.0);
    EXPECT_LE(optimizer_ms, *trace.phases.optimizer_ms);
    EXPECT_GT(codegen_ms, 0.0);
    EXPECT_LE(codegen_ms, *trace.phases.codegen_ms);
    EXPECT_LE(ptxas_ms, trace.phases.ptxas_ms.value_or(0));
  }
}

TEST(NvrtcTraceRejects, TextThatIsNoTrace) {
  for (const auto* text : {"{}", "not json", R"({"traceEvents":[]})", "[]", R"({"traceEvents":{}})",
                           R"({"traceEvents":[{}, {"name":"OptFunction","ph":"X","ts":1,"dur":2}]})", ""}) {
    SCOPED_TRACE(text);
    std::string why;
    EXPECT_EQ(read_nvrtc_trace(text, why), std::nullopt);
    EXPECT_FALSE(why.empty());
  }
}

TEST(NvrtcTraceSynthetic, OptFunctionOutsideOptimizerAndCodegenIsNotCounted) {
  const auto trace = read_synthetic(json::array({
      event("CUDA C++ Front-End", 0, 100), opt_function("k_1_cuda_kernel_forward", 10, 20),  // during the front end
      event("NVVM Optimizer", 100, 50), opt_function("k_1_cuda_kernel_forward", 110, 5),
      opt_function("k_1_cuda_kernel_forward", 145, 10),  // straddles the optimizer's end
      event("NVVM CodeGen", 160, 40), opt_function("k_1_cuda_kernel_forward", 170, 3),
      opt_function("k_1_cuda_kernel_backward", 210, 30),  // after every phase
  }));
  ASSERT_EQ(trace.kernels.size(), 1u);
  const auto& kernel = trace.kernels[0];
  EXPECT_EQ(kernel.mangled, "k_1");
  EXPECT_NEAR(kernel.forward_optimizer_ms.value_or(-1), 0.005, 1e-9);
  EXPECT_NEAR(kernel.forward_codegen_ms.value_or(-1), 0.003, 1e-9);
  EXPECT_EQ(kernel.forward_ptxas_ms, std::nullopt);
  EXPECT_EQ(kernel.backward_optimizer_ms, std::nullopt);  // its only entry lay outside: nothing, not 0
  EXPECT_EQ(kernel.backward_codegen_ms, std::nullopt);
}

TEST(NvrtcTraceSynthetic, KernelNoPhaseTimedIsLeftOut) {
  const auto trace = read_synthetic(json::array({
      event("CUDA C++ Front-End", 0, 100),
      opt_function("k_1_cuda_kernel_forward", 10, 20),
  }));
  EXPECT_TRUE(trace.kernels.empty());
}

TEST(NvrtcTraceSynthetic, OverlappingEntriesOfOneFunctionCountOnce) {
  const auto trace = read_synthetic(json::array({
      event("NVVM Optimizer", 0, 1000), opt_function("k_1_cuda_kernel_backward", 100, 200),  // [100, 300]
      opt_function("k_1_cuda_kernel_backward", 150, 50),                                     // nested in the first
      opt_function("k_1_cuda_kernel_backward", 250, 150),  // overlaps it: union [100, 400]
      opt_function("k_1_cuda_kernel_backward", 500, 100),  // apart: [500, 600]
      opt_function("k_1_cuda_kernel_forward", 120, 30),    // another function: its own union
  }));
  ASSERT_EQ(trace.kernels.size(), 1u);
  EXPECT_NEAR(trace.kernels[0].backward_optimizer_ms.value_or(-1), 0.4, 1e-9);
  EXPECT_NEAR(trace.kernels[0].forward_optimizer_ms.value_or(-1), 0.03, 1e-9);
  EXPECT_EQ(trace.kernels[0].backward_codegen_ms, std::nullopt);
}

TEST(NvrtcTraceSynthetic, PtxasUnitsPerFunction) {
  const auto trace = read_synthetic(json::array({
      event("Total PTXAS Time", 0, 1000),
      event("Optimizing compilation unit", 10, 300, {{"name", "k_1_cuda_kernel_backward"}}),
      event("Optimizing compilation unit", 400, 100, {{"name", "k_1_cuda_kernel_forward"}}),
      event("Optimizing compilation unit", 600, 100, {{"name", "helper_function"}}),
  }));
  ASSERT_EQ(trace.kernels.size(), 1u);
  EXPECT_NEAR(trace.kernels[0].backward_ptxas_ms.value_or(-1), 0.3, 1e-9);
  EXPECT_NEAR(trace.kernels[0].forward_ptxas_ms.value_or(-1), 0.1, 1e-9);
  EXPECT_EQ(trace.kernels[0].forward_optimizer_ms, std::nullopt);
  EXPECT_NEAR(trace.phases.ptxas_ms.value_or(-1), 1.0, 1e-9);
}

TEST(NvrtcTraceSynthetic, RankedByTotalThenByName) {
  const auto trace = read_synthetic(json::array({
      event("NVVM Optimizer", 0, 1000), opt_function("b_cuda_kernel_forward", 0, 100),
      opt_function("a_cuda_kernel_forward", 100, 100), opt_function("c_cuda_kernel_forward", 200, 300),
      opt_function("_ZN2wp3mulEff", 500, 400),         // no kernel's entry point
      opt_function("_cuda_kernel_forward", 500, 400),  // a suffix with no name before it
  }));
  ASSERT_EQ(trace.kernels.size(), 3u);
  EXPECT_EQ(trace.kernels[0].mangled, "c");
  EXPECT_EQ(trace.kernels[1].mangled, "a");
  EXPECT_EQ(trace.kernels[2].mangled, "b");
}

TEST(NvrtcTraceSynthetic, RepeatedPhasesAddUp) {
  const auto trace = read_synthetic(json::array({
      event("NVVM Optimizer", 0, 100), event("NVVM Optimizer", 200, 50), opt_function("k_cuda_kernel_forward", 10, 10),
      opt_function("k_cuda_kernel_forward", 210, 10),
      opt_function("k_cuda_kernel_forward", 150, 10),  // between the two
  }));
  EXPECT_NEAR(trace.phases.optimizer_ms.value_or(-1), 0.15, 1e-9);
  EXPECT_EQ(trace.phases.front_end_ms, std::nullopt);
  EXPECT_EQ(trace.phases.headers_ms, std::nullopt);
  EXPECT_NEAR(trace.phases.total_ms.value_or(-1), 0.25, 1e-9);
  ASSERT_EQ(trace.kernels.size(), 1u);
  EXPECT_NEAR(trace.kernels[0].forward_optimizer_ms.value_or(-1), 0.02, 1e-9);
}

TEST(NvrtcTraceSynthetic, OnlyTopLevelHeadersInsideTheFrontEnd) {
  const auto trace = read_synthetic(json::array({
      event("Processing Header File", 0, 5, {{"detail", "before.h"}}),  // before the front end
      event("CUDA C++ Front-End", 10, 1000),
      event("Processing Header File", 20, 100, {{"detail", "outer.h"}}),
      event("Processing Header File", 30, 40, {{"detail", "inner.h"}}),
      event("Processing Header File", 20, 100, {{"detail", "same_span.h"}}),  // counted once
      event("Processing Header File", 120, 100, {{"detail", "adjacent.h"}}),  // starts as outer.h ends
      event("Processing Header File", 50, 70, {{"detail", "ends_with_outer.h"}}),
      event("Processing Header File", 500, 30, {{"detail", "second.h"}}),
  }));
  EXPECT_NEAR(trace.phases.headers_ms.value_or(-1), 0.1 + 0.1 + 0.03, 1e-9);
  EXPECT_NEAR(trace.phases.front_end_ms.value_or(-1), 1.0, 1e-9);
  EXPECT_NEAR(trace.phases.total_ms.value_or(-1), 1.01, 1e-9);
}

TEST(NvrtcTraceSynthetic, MalformedEventsAreSkipped) {
  const auto trace = read_synthetic(json::array({
      json::object(),
      json("not an event"),
      {{"name", "NVVM Optimizer"}, {"ph", "X"}, {"ts", "0"}, {"dur", 100}},         // ts as text
      {{"name", "NVVM Optimizer"}, {"ph", "X"}, {"ts", 0}},                         // no dur
      {{"name", "NVVM Optimizer"}, {"ph", "X"}, {"ts", 0}, {"dur", -5}},            // negative dur
      {{"name", "NVVM Optimizer"}, {"ph", "B"}, {"ts", 0}, {"dur", 9000}},          // not complete
      {{"name", "OptFunction"}, {"ph", "X"}, {"ts", 20}, {"dur", 5}, {"args", 3}},  // args not an object
      {{"name", 7}, {"ph", "X"}, {"ts", 0}, {"dur", 100}},                          // name not text
      event("NVVM Optimizer", 10, 100),
      opt_function("k_cuda_kernel_backward", 20, 5),
  }));
  EXPECT_NEAR(trace.phases.optimizer_ms.value_or(-1), 0.1, 1e-9);
  EXPECT_NEAR(trace.phases.total_ms.value_or(-1), 0.1, 1e-9);
  ASSERT_EQ(trace.kernels.size(), 1u);
  EXPECT_NEAR(trace.kernels[0].backward_optimizer_ms.value_or(-1), 0.005, 1e-9);
}

TEST(NvrtcTraceCosts, SumsOnlyPresentFigures) {
  CudaKernelCost cost;
  EXPECT_EQ(cost.forward_ms(), std::nullopt);
  EXPECT_EQ(cost.backward_ms(), std::nullopt);
  EXPECT_EQ(cost.total_ms(), std::nullopt);
  cost.forward_optimizer_ms = 2.0;
  cost.forward_ptxas_ms = 0.5;
  EXPECT_EQ(cost.forward_ms(), 2.5);
  EXPECT_EQ(cost.backward_ms(), std::nullopt);
  EXPECT_EQ(cost.total_ms(), 2.5);
  cost.backward_codegen_ms = 0.0;  // a timed zero is a figure
  EXPECT_EQ(cost.backward_ms(), 0.0);
  cost.backward_optimizer_ms = 4.0;
  EXPECT_EQ(cost.total_ms(), 6.5);
}

TEST(NvrtcTraceCosts, CpuMsForOneArch) {
  CudaBuildRun run;
  EXPECT_EQ(run.cpu_ms_for(86), std::nullopt);
  CudaModuleBuild untimed;
  untimed.arch = 86;
  run.modules.push_back(untimed);
  EXPECT_EQ(run.cpu_ms_for(86), std::nullopt);
  CudaModuleBuild first = untimed;
  first.cpu_ms = 10.0;
  CudaModuleBuild second = untimed;
  second.cpu_ms = 5.0;
  CudaModuleBuild other_arch = untimed;
  other_arch.arch = 90;
  other_arch.cpu_ms = 100.0;
  run.modules.insert(run.modules.end(), {first, second, other_arch});
  EXPECT_EQ(run.cpu_ms_for(86), 15.0);
  EXPECT_EQ(run.cpu_ms_for(90), 100.0);
  EXPECT_EQ(run.cpu_ms_for(75), std::nullopt);
}

}  // namespace
}  // namespace wcp::parse
