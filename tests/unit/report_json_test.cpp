#include "codec/report_json.h"
#include "facts/queries.h"

#include <gtest/gtest.h>

#include "report_fixtures.h"

#include "errors.h"

namespace wcp {
namespace {

Report sample_report() {
  Report report;
  report.tool_version = "0.1.0";
  report.warp_version = "1.19.0";
  report.command = {"python", "app.py", "--flag with space"};
  report.cwd = "/work";
  report.label = "baseline";
  report.samples = 3;
  report.failed_samples = 1;
  report.cold_module_ms = summarize({100.0, 110.0});
  report.compile_elapsed_ms = summarize({90.0, 95.0});
  report.overlap_factor = 1.1;
  report.identities = 2;
  report.modules = 1;
  report.compiled_events = 2;
  report.cache.generated_source_bytes = 12694;
  report.cache.modules.push_back({"wp___main___abc", 12694, 2, 2, {}, 0});
  ModuleEvent event{"__main__",           "e614ada",  "cpu",  1,    2910.85,
                    LoadStatus::compiled, Pass::cold, 2904.0, true, std::nullopt};
  LoadDetail detail;
  detail.full_hash = "e614adab00";
  KernelInfo k1;
  k1.key = "k1";
  k1.file = "/work/app.py";
  k1.line = 3;
  k1.overloads = {"float32"};
  detail.kernels.push_back(k1);
  detail.options["max_unroll"] = "16";
  detail.trigger = SourceLocation{"/work/app.py", 7, "<module>"};
  event.detail = detail;
  report.module_events.push_back(event);
  report.module_events.push_back({"__main__", "b43a5cc", "cpu", std::nullopt, 5.0, LoadStatus::cached, Pass::warm,
                                  std::nullopt, false, std::nullopt});
  testing::launches(report).append(LaunchSignature{"k1", "__main__", {8, 2}, "cpu", {"float32", ""}, 0, false}, 5);
  SampleResult sample;
  sample.index = 1;
  sample.cold_ok = true;
  sample.warm_wall_ms = 12.5;
  report.sample_results.push_back(sample);
  report.instrumentation.attached = true;
  report.instrumentation.app_kernel_cache_dir = "/elsewhere";
  report.notes.push_back("a note");
  return report;
}

TEST(ReportJson, Schema6FieldsRoundTrip) {
  Report original = sample_report();
  original.module_events.front().timer = LoadTimer::probe;
  OutputCheck check;
  PassOutputCheck cold;
  cold.stdout_lines = 12;
  cold.probe_exit_code = 1;
  cold.stdout_difference = OutputDifference{3, "b", std::nullopt, false, true};
  check.passes.push_back(cold);
  check.ignored_patterns = {"^seed="};
  original.output_check = check;
  const Report back = report_from_json_text(report_to_json_text(original), "test");
  EXPECT_EQ(back.module_events, original.module_events);
  EXPECT_EQ(back.output_check, original.output_check);
  EXPECT_FALSE(back.output_check->same());
  EXPECT_TRUE(back.loads_observed);
}

TEST(ReportJson, CountsOfUnobservedLoadsAreNullNotZero) {
  Report original = sample_report();
  original.loads_observed = false;
  original.loads_unobserved = "the instrumentation did not attach and Warp's log printed no module load timers";
  const auto document = report_to_json(original);
  EXPECT_TRUE(document["identities"].is_null());
  EXPECT_TRUE(document["compiled_events"].is_null());
  EXPECT_FALSE(document["loads_observed"].get<bool>());
  const Report back = report_from_json(document, "test");
  EXPECT_FALSE(back.loads_observed);
  EXPECT_EQ(back.loads_unobserved, original.loads_unobserved);
  EXPECT_FALSE(compiled_nothing(back));  // nothing observed is not "nothing compiled"
}

TEST(ReportJson, EventsOfEarlierSchemasCameFromWarpsLog) {
  auto document = report_to_json(sample_report());
  document["schema_version"] = 5;
  for (auto& event : document["module_events"]) event.erase("timer");
  const Report back = report_from_json(document, "test");
  EXPECT_EQ(back.module_events.front().timer, LoadTimer::warp);
  document["module_events"][0]["timer"] = "sundial";
  EXPECT_THROW(report_from_json(document, "test"), UsageError);
}

TEST(ReportJson, RoundTrip) {
  const Report original = sample_report();
  const Report back = report_from_json_text(report_to_json_text(original), "test");
  EXPECT_EQ(back.command, original.command);
  EXPECT_EQ(back.cold_module_ms, original.cold_module_ms);
  EXPECT_EQ(back.compile_elapsed_ms, original.compile_elapsed_ms);
  EXPECT_FALSE(back.warm_module_ms.has_value());
  EXPECT_EQ(back.overlap_factor, original.overlap_factor);
  EXPECT_EQ(back.module_events, original.module_events);
  EXPECT_EQ(back.processes, original.processes);
  EXPECT_EQ(back.cache, original.cache);
  EXPECT_EQ(back.sample_results, original.sample_results);
  EXPECT_EQ(back.instrumentation, original.instrumentation);
  EXPECT_EQ(back.notes, original.notes);
  EXPECT_EQ(back.failed_samples, 1);
}

TEST(ReportJson, ContractFieldNames) {
  const auto document = report_to_json(sample_report());
  for (const char* field : {"cold_module_ms_median",
                            "cold_module_ms_mad",
                            "cold_module_ms_values",
                            "native_compile_ms_median",
                            "warm_module_ms_median",
                            "cold_wall_ms_median",
                            "cold_wall_ms_mad",
                            "cold_wall_ms_values",
                            "warm_wall_ms_median",
                            "compile_elapsed_ms_median",
                            "compile_elapsed_ms_mad",
                            "overlap_factor",
                            "identities",
                            "modules",
                            "compiled_events",
                            "cached_events",
                            "error_events",
                            "generated_source_bytes",
                            "lto_artifacts",
                            "lto_bytes",
                            "module_events",
                            "processes",
                            "launch_count",
                            "samples",
                            "failed_samples",
                            "command",
                            "cwd",
                            "label",
                            "schema_version"}) {
    EXPECT_TRUE(document.contains(field)) << field;
  }
  for (const char* field : {"name", "hash", "device", "block_dim", "ms", "status", "label"}) {
    EXPECT_TRUE(document["module_events"][0].contains(field)) << field;
  }
  for (const char* field : {"kernel", "module", "dim", "device", "dtypes", "block_dim", "adjoint", "entry"}) {
    EXPECT_TRUE(document["processes"][0]["launch_record"]["signatures"][0].contains(field)) << field;
  }
}

TEST(ReportJson, OriginalProbeFormatParses) {
  // The shape the original Python probe writes: same names, no schema_version, none of our
  // additions, `dim` sometimes a bare integer.
  const char* text = R"({
    "command": ["python", "sim.py"], "cwd": "/proj", "label": "before", "samples": 3, "failed_samples": 0,
    "cold_module_ms_median": 812.5, "cold_module_ms_mad": 4.0, "cold_module_ms_values": [810.0, 812.5, 820.0],
    "native_compile_ms_median": 700.0, "warm_module_ms_median": 3.0,
    "cold_wall_ms_median": 2400.0, "cold_wall_ms_mad": 10.0, "cold_wall_ms_values": [2390.0, 2400.0, 2410.0],
    "warm_wall_ms_median": 1500.0, "compile_elapsed_ms_median": 900.0, "compile_elapsed_ms_mad": 12.0,
    "overlap_factor": 0.9, "identities": 2, "modules": 2, "compiled_events": 2, "cached_events": 0,
    "error_events": 0, "generated_source_bytes": 40000, "lto_artifacts": 0, "lto_bytes": 0,
    "module_events": [{"name": "sim", "hash": "abc1234", "device": "cuda:0", "block_dim": 256, "ms": 600.0,
                       "status": "compiled", "label": "cold"}],
    "launches": [{"kernel": "step", "module": "sim", "dim": 1024, "device": "cuda:0", "dtypes": ["float32"],
                  "block_dim": 256, "adjoint": false}]
  })";
  const Report report = report_from_json_text(text, "probe.json");
  EXPECT_EQ(report.samples, 3);
  EXPECT_DOUBLE_EQ(report.cold_module_ms->median, 812.5);
  EXPECT_EQ(report.origin, ReportOrigin::original_probe);
  EXPECT_EQ(report.warm_module_ms->median, 3.0);
  EXPECT_FALSE(report.warm_module_ms->mad.has_value());
  ASSERT_EQ(report.module_events.size(), 1u);
  EXPECT_EQ(*report.module_events[0].block_dim, 256);
  ASSERT_EQ(report.processes.size(), 1u);
  ASSERT_EQ(report.processes[0].launches.signatures.size(), 1u);
  EXPECT_EQ(report.processes[0].launches.signatures.at(0).dim, (std::vector<std::int64_t>{1024}));
  EXPECT_EQ(total_launches(report), 1u);
}

TEST(ReportJson, MissingIsNullNeverZero) {
  Report report = sample_report();  // no warm summaries: no warm run succeeded
  report.overlap_factor.reset();
  const auto document = report_to_json(report);
  EXPECT_TRUE(document["warm_module_ms_median"].is_null());
  EXPECT_TRUE(document["warm_wall_ms_median"].is_null());
  EXPECT_TRUE(document["overlap_factor"].is_null());
  EXPECT_TRUE(document["warm_module_ms_values"].empty());
  EXPECT_EQ(document["schema_version"], kReportSchemaVersion);
  const Report back = report_from_json(document, "x.json");
  EXPECT_FALSE(back.warm_module_ms.has_value());
  EXPECT_FALSE(back.overlap_factor.has_value());
}

TEST(ReportJson, SchemaOneZerosWithoutValuesAreReadAsMissing) {
  // Schema 1 wrote 0.0 medians and empty value lists when no warm run succeeded.
  const char* text = R"json({"schema_version": 1, "samples": 2, "failed_samples": 0,
    "cold_module_ms_median": 8550.8, "cold_module_ms_mad": 10.0, "cold_module_ms_values": [8540.8, 8560.8],
    "warm_module_ms_median": 0.0, "warm_module_ms_mad": 0.0, "warm_module_ms_values": [],
    "warm_wall_ms_median": 0.0, "warm_wall_ms_mad": 0.0, "warm_wall_ms_values": [],
    "compile_elapsed_ms_median": 0.0, "compile_elapsed_ms_mad": 0.0, "compile_elapsed_ms_values": [],
    "overlap_factor": 0.0,
    "module_events": [{"name": "__main__", "hash": "c34f927", "device": "cpu", "ms": 8550.8, "status": "compiled",
                       "label": "warm"}],
    "hash_changes": ["__main__ (aaaa0000 -> bbbb1111)"],
    "instrumentation": {"attached": true, "cache_clears": ["clear_kernel_cache at app.py:12"]}})json";
  const Report report = report_from_json_text(text, "old.json");
  EXPECT_DOUBLE_EQ(report.cold_module_ms->median, 8550.8);
  EXPECT_FALSE(report.warm_module_ms.has_value());
  EXPECT_FALSE(report.warm_wall_ms.has_value());
  EXPECT_FALSE(report.compile_elapsed_ms.has_value());
  EXPECT_FALSE(report.overlap_factor.has_value());
  EXPECT_EQ(report.module_events[0].pass, Pass::warm);  // schema 1 kept the pass in `label`
  EXPECT_EQ(report.hash_changes[0], (HashChange{"__main__", "aaaa0000", "bbbb1111"}));
  EXPECT_EQ(report.instrumentation.cache_clears[0].what, "clear_kernel_cache");
  EXPECT_EQ(report.instrumentation.cache_clears[0].site->line, 12);
  EXPECT_TRUE(has_launch_record(report));
}

TEST(ReportJson, ReadsEveryReportOfTheOriginalProbe) {
  // Real reports written by the original Python probe (tests/data/interop/README.md).
  for (const char* name : {"clean-app", "late_kernel-app", "late_kernel-fixed", "closure_factory-app"}) {
    const Report report = load_report(std::string(WCP_TEST_DATA_DIR) + "/interop/" + name + ".json");
    EXPECT_EQ(report.origin, ReportOrigin::original_probe) << name;
    EXPECT_TRUE(report.measured()) << name;
    ASSERT_TRUE(report.cold_module_ms) << name;
    EXPECT_EQ(report.cold_module_ms->values.size(), 2u) << name;
    EXPECT_TRUE(report.warm_module_ms) << name;  // a median without values
    EXPECT_TRUE(report.warm_module_ms->values.empty()) << name;
    EXPECT_TRUE(report.compile_elapsed_ms && report.compile_elapsed_ms->mad) << name;
    EXPECT_FALSE(report.native_compile_ms.has_value()) << name << ": its 0.0 means 'not recognised'";
    EXPECT_TRUE(has_launch_record(report)) << name;
    for (const auto& event : report.module_events) {
      EXPECT_EQ(event.pass, Pass::cold) << name;
      EXPECT_FALSE(event.name.empty()) << name;
      EXPECT_EQ(event.hash.size(), 7u) << name;
    }
  }
}

TEST(ReportJson, SchemaFourCarriesEachSamplesCreditedElapsed) {
  Report report = testing::clean_report(1000);
  SampleResult slower = report.sample_results[0];
  slower.index = 2;
  slower.warm_wall_ms = slower.cold_wall_ms + 40.0;  // the warm run took longer than the cold one
  slower.compile_elapsed_left_out = sample_compile_elapsed(slower).left_out;
  report.sample_results[0].compile_elapsed_ms = sample_compile_elapsed(report.sample_results[0]).ms;
  report.sample_results.push_back(slower);
  const auto json = report_to_json(report);
  EXPECT_GE(json.at("schema_version"), 4);  // written by every later schema too
  EXPECT_DOUBLE_EQ(json.at("sample_results")[0].at("compile_elapsed_ms").get<double>(), 1200.0);
  EXPECT_TRUE(json.at("sample_results")[1].at("compile_elapsed_ms").is_null());
  EXPECT_NE(json.at("sample_results")[1].at("compile_elapsed_left_out").get<std::string>().find(
                "sample 2: warm wall 1740 ms is not below cold wall 1700 ms (elapsed -40 ms)"),
            std::string::npos);
  EXPECT_EQ(report_from_json(json, "test").sample_results, report.sample_results);
}

TEST(ReportJson, AnOlderReportsNonPositiveElapsedIsLeftOutWhenRead) {
  // Schema 3 kept a warm run slower than its cold run in compile_elapsed_ms_values.
  Report report = testing::clean_report(1000);
  report.sample_results.push_back(report.sample_results[0]);
  report.sample_results[1].index = 2;
  report.sample_results[1].warm_wall_ms = 1800.0;  // cold wall 1700 ms
  report.compile_elapsed_ms = summarize({1200.0, -100.0});
  auto json = report_to_json(report);
  json["schema_version"] = 3;
  const Report read = report_from_json(json, "schema3.json");
  EXPECT_EQ(read.compile_elapsed_ms->values.size(), 2u);  // the file is read as written
  const auto credited = credited_compile_elapsed(read);
  ASSERT_TRUE(credited.has_value());
  EXPECT_EQ(credited->values, std::vector<double>{1200.0});
  ASSERT_EQ(elapsed_left_out(read).size(), 1u);
  EXPECT_NE(elapsed_left_out(read)[0].find("sample 2"), std::string::npos);
}

TEST(ReportJson, ErrorsNameTheProblem) {
  EXPECT_THROW(report_from_json_text("{not json", "bad.json"), UsageError);
  try {
    report_from_json_text(R"({"schema_version": 99, "samples": 1})", "future.json");
    FAIL();
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("unsupported schema_version 99"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("future.json"), std::string::npos);
  }
  try {
    report_from_json_text(R"({"schema_version": 13, "samples": 1, "identities": "many"})", "typo.json");
    FAIL();
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("'identities'"), std::string::npos);
  }
  try {
    report_from_json_text(
        R"({"schema_version": 13, "samples": 1, "module_events": [{"ms": 1}, {"status": "exploded"}]})", "x.json");
    FAIL();
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("module_events[1]: unknown module event status 'exploded'"),
              std::string::npos)
        << error.what();
  }
  EXPECT_THROW(report_from_json_text("[]", "list.json"), UsageError);
}

}  // namespace
}  // namespace wcp
