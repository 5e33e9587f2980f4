// The machine reference's statistics and the cold-units math (model/reference*.h), and the
// pieces of the reference runners that need no Warp: which builds of a run count, and how a
// relative interpreter path is anchored.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "calibrate/warp_native_dir.h"
#include "codec/reference_json.h"
#include "codec/report_json.h"
#include "facts/reference_units.h"
#include "io/json_fields.h"
#include "reference/warp_cpu_reference.h"
#include "report_fixtures.h"

namespace wcp {
namespace {

SampleResult ok_sample(int index, std::optional<double> cold_ms) {
  SampleResult sample;
  sample.index = index;
  sample.cold_ok = true;
  sample.cold_module_ms = cold_ms;
  return sample;
}

ReferenceSample reference_after(int index, std::vector<double> builds) {
  return ReferenceSample{index, std::move(builds), ""};
}

TEST(ReferenceCost, EachSampleIsTheSumOfItsBuildsAndTheCostTheirMedianAndMad) {
  // Sample costs: 1000 (a header build and two modules), 1250, 1100.
  const std::vector<ReferenceSample> samples{reference_after(1, {600.0, 200.0, 200.0}),
                                             reference_after(2, {750.0, 250.0, 250.0}),
                                             reference_after(3, {700.0, 200.0, 200.0})};
  EXPECT_DOUBLE_EQ(*sample_cost(samples[0]), 1000.0);
  const auto cost = reference_cost(samples);
  ASSERT_TRUE(cost);
  EXPECT_DOUBLE_EQ(cost->median, 1100.0);
  EXPECT_DOUBLE_EQ(*cost->mad, 100.0);  // |1000-1100| = 100, |1250-1100| = 150, 0 -> 100
  EXPECT_EQ(cost->count, 3u);
  EXPECT_EQ(cost->values, (std::vector<double>{1000.0, 1250.0, 1100.0}));  // in sample order
}

TEST(ReferenceCost, FailedSamplesHaveNoCostAndAreNotZero) {
  ReferenceSample failed{2, {}, "the reference app failed"};
  EXPECT_FALSE(sample_cost(failed));
  const auto cost = reference_cost({reference_after(1, {100.0}), failed, reference_after(3, {300.0})});
  ASSERT_TRUE(cost);
  EXPECT_EQ(cost->count, 2u);
  EXPECT_DOUBLE_EQ(cost->median, 200.0);
  EXPECT_FALSE(reference_cost({failed}));
}

TEST(ColdUnits, ArePairedSampleBySampleNotMedianOverMedian) {
  // The machine slowed down by half for the second pair: the command and its reference both
  // took 1.5x. Paired units stay 10; median(work) / median(reference) would not.
  const std::vector<SampleResult> samples{ok_sample(1, 2000.0), ok_sample(2, 3000.0), ok_sample(3, 2000.0)};
  const std::vector<ReferenceSample> references{reference_after(1, {200.0}), reference_after(2, {300.0}),
                                                reference_after(3, {200.0})};
  const auto units = paired_cold_units(samples, references);
  ASSERT_TRUE(units);
  EXPECT_EQ(units->values, (std::vector<double>{10.0, 10.0, 10.0}));
  EXPECT_DOUBLE_EQ(*units->mad, 0.0);
}

TEST(ColdUnits, PairsByIndexAndLeaveUnpartneredSamplesOut) {
  SampleResult failed = ok_sample(2, std::nullopt);
  failed.cold_ok = false;
  const std::vector<SampleResult> samples{ok_sample(1, 1000.0), failed, ok_sample(3, 900.0), ok_sample(4, 800.0)};
  const std::vector<ReferenceSample> references{reference_after(3, {300.0}), reference_after(1, {100.0}),
                                                ReferenceSample{4, {}, "killed"}};
  const auto units = paired_cold_units(samples, references);
  ASSERT_TRUE(units);
  EXPECT_EQ(units->values, (std::vector<double>{10.0, 3.0}));  // sample 4's partner failed: no units, not 0
}

TEST(ColdUnits, AreUnavailableWhenASuccessfulSampleHasNoColdWork) {
  const std::vector<SampleResult> samples{ok_sample(1, 1000.0), ok_sample(2, std::nullopt)};
  const std::vector<ReferenceSample> references{reference_after(1, {100.0}), reference_after(2, {100.0})};
  EXPECT_FALSE(paired_cold_units(samples, references));
  EXPECT_FALSE(cold_units_against(samples, 100.0));
}

TEST(ColdUnits, AgainstAStoredReference) {
  const auto units = cold_units_against({ok_sample(1, 1000.0), ok_sample(2, 1200.0)}, 200.0);
  ASSERT_TRUE(units);
  EXPECT_EQ(units->values, (std::vector<double>{5.0, 6.0}));
  EXPECT_FALSE(cold_units_against({ok_sample(1, 1000.0)}, 0.0));  // nothing to divide by
}

TEST(ColdUnits, BandIsTheSharedNoiseRule) {
  Summary units = *summarize({10.0, 10.4, 9.0});  // median 10, MAD 0.4
  EXPECT_NEAR(units_band(units), 0.8, 1e-12);
  units = *summarize({50.0});  // one pair: MAD 0, 1 % of the median
  EXPECT_DOUBLE_EQ(units_band(units), 0.5);
}

TEST(ReferenceDrift, WarnsAtAQuarterEitherWay) {
  EXPECT_DOUBLE_EQ(reference_drift(300.0, 200.0), 0.5);
  EXPECT_TRUE(drift_worth_a_warning(reference_drift(250.0, 200.0)));
  EXPECT_FALSE(drift_worth_a_warning(reference_drift(249.0, 200.0)));
  EXPECT_TRUE(drift_worth_a_warning(reference_drift(150.0, 200.0)));
  EXPECT_FALSE(drift_worth_a_warning(reference_drift(151.0, 200.0)));
}

TEST(ReferenceKindFor, NvrtcForCudaLoadsElseWarpCpu) {
  Report report = testing::clean_report();
  EXPECT_EQ(reference_kind_for(report), ReferenceKind::warp_cpu);
  report.module_events.push_back(testing::compiled("k", "bbbbbbb", 10.0));
  report.module_events.back().device = "cuda:0";
  EXPECT_EQ(reference_kind_for(report), ReferenceKind::nvrtc);
}

TEST(ReferenceJson, RoundTripsInTheReportAndRecomputesFromValues) {
  Report report = testing::clean_report(2000.0);
  MachineReference reference;
  reference.kind = ReferenceKind::warp_cpu;
  reference.name = "warp_cpu/pch/4x2-kernel-module/v1";
  reference.description = "a module";
  reference.samples = {reference_after(1, {150.0, 55.0}), ReferenceSample{2, {}, "it failed"}};
  finish_reference(reference, report.sample_results);
  report.reference = reference;
  const auto json = report_to_json(report);
  EXPECT_EQ(json.at("reference").at("kind"), "warp_cpu");
  EXPECT_DOUBLE_EQ(json.at("reference").at("cost_ms_median").get<double>(), 205.0);
  EXPECT_TRUE(json.at("reference").at("samples").at(1).at("cost_ms").is_null());
  const Report back = report_from_json(json, "test");
  ASSERT_TRUE(back.reference);
  EXPECT_EQ(*back.reference, reference);
  EXPECT_NEAR(back.reference->cold_units->median, 2000.0 / 205.0, 1e-12);
  // A report without one says null, and reads back without one.
  EXPECT_TRUE(report_to_json(testing::clean_report()).at("reference").is_null());
  EXPECT_FALSE(report_from_json(report_to_json(testing::clean_report()), "test").reference);
}

TEST(ReferenceJson, UnknownKindIsAnError) {
  nlohmann::json json = reference_to_json(MachineReference{});
  json["kind"] = "fpga";
  EXPECT_THROW(reference_from_json(json), json_fields::FieldError);
}

TEST(WarpCpuReferenceSample, KeepsEveryBuildHeaderIncludedAndChecksTheCount) {
  std::vector<double> compiled{2400.0};  // the first module, which also builds the precompiled header
  for (int module = 0; module < reference::kWarpCpuReferenceModules; ++module) compiled.push_back(300.0 + module);
  const auto sample = reference::warp_cpu_sample_from(3, compiled);
  EXPECT_EQ(sample.after_sample, 3);
  EXPECT_TRUE(sample.failure.empty());
  EXPECT_EQ(sample.builds_ms, compiled);
  EXPECT_DOUBLE_EQ(*sample_cost(sample), 2400.0 + 300.0 + 301.0 + 302.0 + 303.0);
  compiled.pop_back();
  const auto short_run = reference::warp_cpu_sample_from(3, compiled);
  EXPECT_TRUE(short_run.builds_ms.empty());
  EXPECT_FALSE(sample_cost(short_run));
  EXPECT_NE(short_run.failure.find("expected"), std::string::npos);
}

TEST(InterpreterPath, RelativePathsAreAnchoredAtTheCurrentDirectoryAndBareNamesLeftForPath) {
  EXPECT_EQ(calibrate::absolute_if_relative_path(".venv/bin/python", "/work/app"), "/work/app/.venv/bin/python");
  EXPECT_EQ(calibrate::absolute_if_relative_path("../venv/bin/python", "/work/app"), "/work/app/../venv/bin/python");
  EXPECT_EQ(calibrate::absolute_if_relative_path("python3", "/work/app"), "python3");
  EXPECT_EQ(calibrate::absolute_if_relative_path("/usr/bin/python3", "/work/app"), "/usr/bin/python3");
}

}  // namespace
}  // namespace wcp
