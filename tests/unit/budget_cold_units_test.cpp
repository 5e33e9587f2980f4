// cold_units: cold module work divided by a reference build of the same backend, measured in the
// same run, pair by pair; the stored calibration's reference is the fallback and the cross-check.
#include <gtest/gtest.h>

#include "budget/evaluate.h"
#include "facts/reference_units.h"

namespace wcp::budget {
namespace {

constexpr const char* kCpuReference = "warp_cpu/pch/4x2-kernel-module/v1";

Report cpu_report(std::vector<double> cold_ms) {
  Report report;
  report.samples = static_cast<int>(cold_ms.size());
  for (std::size_t i = 0; i < cold_ms.size(); ++i) {
    SampleResult sample;
    sample.index = static_cast<int>(i) + 1;
    sample.cold_ok = true;
    sample.cold_module_ms = cold_ms[i];
    report.sample_results.push_back(sample);
  }
  report.cold_module_ms = summarize(cold_ms);
  ModuleEvent event;
  event.name = "__main__";
  event.hash = "aaaaaaa";
  event.device = "cpu";
  event.ms = cold_ms.front();
  report.module_events = {event};
  report.instrumentation.use_precompiled_headers = true;
  return report;
}

// A same-run reference whose sample k cost `costs[k]`.
void add_reference(Report& report, const std::vector<double>& costs) {
  MachineReference reference;
  reference.kind = ReferenceKind::warp_cpu;
  reference.name = kCpuReference;
  reference.description = "Warp CPU module of 2 kernels";
  for (std::size_t i = 0; i < costs.size(); ++i) {
    reference.samples.push_back({static_cast<int>(i) + 1, {costs[i]}, ""});
  }
  finish_reference(reference, report.sample_results);
  report.reference = reference;
}

calibrate::Calibration cpu_calibration(double stored_reference_ms, std::string name = kCpuReference) {
  calibrate::Calibration calibration;
  calibration.created_at = "2026-11-29T00:00:00Z";
  calibrate::WarpCpuCalibration cpu;
  cpu.without_pch.fixed_ms = 2000.0;
  cpu.with_pch = calibrate::CostModel{200.0, 1.0, 100.0, 1.0, 0.99};
  cpu.reference = calibrate::StoredReference{std::move(name), "stored", *summarize({stored_reference_ms})};
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

bool any_note_has(const CommandResult& result, const std::string& text) {
  for (const auto& note : result.notes) {
    if (note.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(ColdUnits, UseTheSameRunReferencePairBySample) {
  // The second pair ran on a busier machine: both sides took 1.6x; the units do not move.
  auto report = cpu_report({2000.0, 3200.0, 2100.0});
  add_reference(report, {200.0, 320.0, 210.0});
  const auto result = evaluate(entry_with_units(12.0), report, std::nullopt, {});
  const auto outcome = outcome_named(result, "cold_units");
  EXPECT_EQ(outcome.verdict, Verdict::pass);
  EXPECT_DOUBLE_EQ(*outcome.measured, 10.0);
  ASSERT_TRUE(outcome.reference);
  EXPECT_TRUE(outcome.reference->same_run);
  EXPECT_EQ(outcome.reference->source, "this run");
  EXPECT_EQ(outcome.reference->name, kCpuReference);
  EXPECT_DOUBLE_EQ(outcome.reference->cost_ms.median, 210.0);
  EXPECT_DOUBLE_EQ(outcome.reference->band_units, 0.1);  // MAD 0 -> 1 % of 10
  EXPECT_FALSE(outcome.reference->drift);                // no calibration to check against
  EXPECT_NE(outcome.note.find("measured in this run"), std::string::npos) << outcome.note;
}

TEST(ColdUnits, FailAboveTheLimitWithTheSlowestModules) {
  auto report = cpu_report({3000.0});
  add_reference(report, {200.0});
  const auto outcome = outcome_named(evaluate(entry_with_units(10.0), report, std::nullopt, {}), "cold_units");
  EXPECT_EQ(outcome.verdict, Verdict::fail);
  EXPECT_DOUBLE_EQ(*outcome.measured, 15.0);
  EXPECT_FALSE(outcome.offenders.empty());
}

TEST(ColdUnits, CrossCheckTheStoredReferenceAndWarnBeyondAQuarter) {
  auto report = cpu_report({2000.0});
  add_reference(report, {300.0});
  EvaluateOptions options;
  options.calibration = cpu_calibration(200.0);
  options.calibration_source = "cal.json";
  const auto result = evaluate(entry_with_units(100.0), report, std::nullopt, options);
  const auto outcome = outcome_named(result, "cold_units");
  ASSERT_TRUE(outcome.reference && outcome.reference->drift);
  EXPECT_DOUBLE_EQ(*outcome.reference->drift, 0.5);
  EXPECT_DOUBLE_EQ(*outcome.measured, 2000.0 / 300.0);  // units follow this run, not the file
  EXPECT_TRUE(any_note_has(result, "WARNING")) << "no drift warning";

  options.calibration = cpu_calibration(280.0);  // 7 % off: no warning
  const auto quiet = evaluate(entry_with_units(100.0), report, std::nullopt, options);
  EXPECT_FALSE(any_note_has(quiet, "WARNING"));

  options.calibration = cpu_calibration(100.0, "warp_cpu/some-other-build/v0");  // not comparable
  const auto other = outcome_named(evaluate(entry_with_units(100.0), report, std::nullopt, options), "cold_units");
  EXPECT_FALSE(other.reference->drift);
}

TEST(ColdUnits, FallBackToTheStoredReferenceAndSaySo) {
  auto report = cpu_report({2000.0, 2400.0});
  EvaluateOptions options;
  options.calibration = cpu_calibration(200.0);
  options.calibration_source = "cal.json";
  const auto result = evaluate(entry_with_units(100.0), report, std::nullopt, options);
  const auto outcome = outcome_named(result, "cold_units");
  EXPECT_EQ(outcome.verdict, Verdict::pass);
  EXPECT_DOUBLE_EQ(*outcome.measured, 11.0);  // median of 10 and 12
  ASSERT_TRUE(outcome.reference);
  EXPECT_FALSE(outcome.reference->same_run);
  EXPECT_NE(outcome.reference->source.find("cal.json"), std::string::npos);
  EXPECT_TRUE(any_note_has(result, "cannot see the load"));
}

TEST(ColdUnits, FallBackWhenTheRunsReferenceFailedAndNameTheFailure) {
  auto report = cpu_report({2000.0});
  MachineReference reference;
  reference.unavailable = "cannot locate Warp with python9";
  finish_reference(reference, report.sample_results);
  report.reference = reference;
  EvaluateOptions options;
  options.calibration = cpu_calibration(200.0);
  const auto result = evaluate(entry_with_units(100.0), report, std::nullopt, options);
  EXPECT_DOUBLE_EQ(*outcome_named(result, "cold_units").measured, 10.0);
  EXPECT_TRUE(any_note_has(result, "python9"));
}

TEST(ColdUnits, FailAsUnavailableWithoutAnyReference) {
  auto report = cpu_report({2000.0});
  const auto none = outcome_named(evaluate(entry_with_units(10.0), report, std::nullopt, {}), "cold_units");
  EXPECT_EQ(none.verdict, Verdict::fail);
  EXPECT_FALSE(none.measured);  // missing, not 0
  EXPECT_NE(none.note.find("no calibration"), std::string::npos) << none.note;

  EvaluateOptions options;
  options.calibration = calibrate::Calibration{};  // a calibration without a reference
  options.calibration_source = "cal.json";
  const auto cpu = outcome_named(evaluate(entry_with_units(10.0), report, std::nullopt, options), "cold_units");
  EXPECT_EQ(cpu.verdict, Verdict::fail);
  EXPECT_NE(cpu.note.find("--warp-cpu"), std::string::npos) << cpu.note;
  report.module_events.front().device = "cuda:0";
  const auto cuda = outcome_named(evaluate(entry_with_units(10.0), report, std::nullopt, options), "cold_units");
  EXPECT_NE(cuda.note.find("nvrtc"), std::string::npos) << cuda.note;
}

TEST(ColdUnits, UnavailableColdWorkIsNeverZeroUnits) {
  auto report = cpu_report({2000.0});
  add_reference(report, {200.0});
  report.cold_module_ms.reset();
  report.sample_results.front().cold_module_ms.reset();
  const auto outcome = outcome_named(evaluate(entry_with_units(10.0), report, std::nullopt, {}), "cold_units");
  EXPECT_EQ(outcome.verdict, Verdict::fail);
  EXPECT_FALSE(outcome.measured);
}

}  // namespace
}  // namespace wcp::budget
