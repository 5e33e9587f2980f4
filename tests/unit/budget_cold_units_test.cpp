// cold_units: cold module work divided by the calibrated fixed per-module cost of the backend
// the run used, so one budget reads the same on different machines.
#include <gtest/gtest.h>

#include "budget/evaluate.h"

namespace wcp::budget {
namespace {

Report cpu_report(double cold_ms) {
  Report report;
  report.samples = 1;
  SampleResult sample;
  sample.cold_ok = true;
  report.sample_results = {sample};
  report.cold_module_ms = summarize({cold_ms});
  ModuleEvent event;
  event.name = "__main__";
  event.hash = "aaaaaaa";
  event.device = "cpu";
  event.ms = cold_ms;
  report.module_events = {event};
  report.instrumentation.use_precompiled_headers = true;
  return report;
}

calibrate::Calibration cpu_calibration(double fixed_with_pch, double fixed_without_pch) {
  calibrate::Calibration calibration;
  calibration.created_at = "2026-11-29T00:00:00Z";
  calibrate::WarpCpuCalibration cpu;
  cpu.without_pch.fixed_ms = fixed_without_pch;
  cpu.with_pch = calibrate::CostModel{fixed_with_pch, 1.0, 100.0, 1.0, 0.99};
  calibration.warp_cpu = cpu;
  return calibration;
}

CommandEntry entry_with_units(double units) {
  CommandEntry entry;
  entry.name = "app";
  entry.budgets.cold_units = units;
  return entry;
}

BudgetOutcome outcome_named(const CommandResult& result, const std::string& name) {
  for (const auto& outcome : result.outcomes) {
    if (outcome.budget == name) return outcome;
  }
  throw std::runtime_error("no outcome " + name);
}

TEST(ColdUnits, DividesByTheBackendsFixedCost) {
  EvaluateOptions options;
  options.calibration = cpu_calibration(200.0, 2000.0);
  options.calibration_source = "cal.json";
  const auto result = evaluate(entry_with_units(10.0), cpu_report(1500.0), std::nullopt, options);
  const auto& outcome = outcome_named(result, "cold_units");
  EXPECT_DOUBLE_EQ(*outcome.measured, 7.5);  // 1500 / 200 (precompiled headers on, Warp's default)
  EXPECT_EQ(outcome.verdict, Verdict::pass);
  EXPECT_NE(outcome.note.find("cal.json"), std::string::npos);
  EXPECT_NE(outcome.note.find("Warp CPU fixed cost"), std::string::npos);
}

TEST(ColdUnits, UsesTheNoHeaderModelWhenTheRunTurnedHeadersOff) {
  EvaluateOptions options;
  options.calibration = cpu_calibration(200.0, 1000.0);
  auto report = cpu_report(3000.0);
  report.instrumentation.use_precompiled_headers = false;
  const auto& outcome = outcome_named(evaluate(entry_with_units(2.0), report, std::nullopt, options), "cold_units");
  EXPECT_DOUBLE_EQ(*outcome.measured, 3.0);
  EXPECT_EQ(outcome.verdict, Verdict::fail);
}

TEST(ColdUnits, FailsClearlyWithoutACalibration) {
  const auto& outcome = outcome_named(evaluate(entry_with_units(10.0), cpu_report(100.0), std::nullopt, {}), "cold_units");
  EXPECT_EQ(outcome.verdict, Verdict::fail);
  EXPECT_NE(outcome.note.find("no calibration"), std::string::npos);
}

TEST(ColdUnits, FailsClearlyWhenTheBackendIsNotCalibrated) {
  EvaluateOptions options;
  options.calibration = calibrate::Calibration{};  // neither section
  auto report = cpu_report(100.0);
  const auto& cpu = outcome_named(evaluate(entry_with_units(10.0), report, std::nullopt, options), "cold_units");
  EXPECT_EQ(cpu.verdict, Verdict::fail);
  EXPECT_NE(cpu.note.find("--warp-cpu"), std::string::npos);
  report.module_events.front().device = "cuda:0";
  const auto& cuda = outcome_named(evaluate(entry_with_units(10.0), report, std::nullopt, options), "cold_units");
  EXPECT_EQ(cuda.verdict, Verdict::fail);
  EXPECT_NE(cuda.note.find("NVRTC"), std::string::npos);
}

}  // namespace
}  // namespace wcp::budget
