// The recorded CUDA runs (tests/data/cuda-recorded/README.md): real Warp 1.19.0 on an H200, so
// the parser and the diagnosis are held to what a GPU printed without needing one. The bare logs
// are Warp's own verbose output without the probe; the probe reports were written by `measure
// --samples 2` while an instrumentation defect made every warm first load read ~600 ms, which the
// analysis must not mistake for a warm compile.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "analysis/diagnose.h"
#include "codec/report_json.h"
#include "facts/queries.h"
#include "parse/log_scanner.h"
#include "render/diagnosis_json.h"

namespace wcp {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

const fs::path kRecorded = fs::path(WCP_TEST_DATA_DIR) / "cuda-recorded";

struct Load {
  std::string name;
  std::string hash;
  std::string device;
  double ms;
  LoadStatus status;
};

// Every "Module ... load on device ... took X ms (status)" line of each bare log, read off the
// files by hand (a regular expression over the text, not this parser).
const std::map<std::string, std::vector<Load>>& expected_loads() {
  static const std::map<std::string, std::vector<Load>> loads{
    {"cache_destroyed_app.cold.log", {{"__main__", "32a7ee4", "cuda:0", 510.98, LoadStatus::compiled}}},
    {"cache_destroyed_app.warm.log", {{"__main__", "32a7ee4", "cuda:0", 357.02, LoadStatus::compiled}}},
    {"cache_destroyed_fixed.cold.log", {{"__main__", "32a7ee4", "cuda:0", 699.81, LoadStatus::compiled}}},
    {"cache_destroyed_fixed.warm.log", {{"__main__", "32a7ee4", "cuda:0", 2.16, LoadStatus::cached}}},
    {"clean_app.cold.log", {{"__main__", "4ad27a4", "cuda:0", 785.59, LoadStatus::compiled}}},
    {"clean_app.warm.log", {{"__main__", "4ad27a4", "cuda:0", 3.77, LoadStatus::cached}}},
    {"closure_factory_app.cold.log", {{"__main__", "f84557d", "cuda:0", 613.50, LoadStatus::compiled}, {"__main__", "5f70421", "cuda:0", 153.72, LoadStatus::compiled}, {"__main__", "9c4cea1", "cuda:0", 152.92, LoadStatus::compiled}, {"__main__", "bd00bb6", "cuda:0", 321.18, LoadStatus::compiled}}},
    {"closure_factory_app.warm.log", {{"__main__", "f84557d", "cuda:0", 6.06, LoadStatus::cached}, {"__main__", "5f70421", "cuda:0", 0.55, LoadStatus::cached}, {"__main__", "9c4cea1", "cuda:0", 0.44, LoadStatus::cached}, {"__main__", "bd00bb6", "cuda:0", 0.43, LoadStatus::cached}}},
    {"closure_factory_fixed.cold.log", {{"__main__", "94d9a8e", "cuda:0", 542.26, LoadStatus::compiled}}},
    {"closure_factory_fixed.warm.log", {{"__main__", "94d9a8e", "cuda:0", 3.92, LoadStatus::cached}}},
    {"granular_modules_app.cold.log", {{"feature.a", "f84557d", "cuda:0", 575.12, LoadStatus::compiled}, {"feature.b", "0a0b6ea", "cuda:0", 124.36, LoadStatus::compiled}, {"feature.c", "8849d8a", "cuda:0", 126.68, LoadStatus::compiled}, {"feature.d", "293c489", "cuda:0", 123.08, LoadStatus::compiled}}},
    {"granular_modules_app.warm.log", {{"feature.a", "f84557d", "cuda:0", 1.31, LoadStatus::cached}, {"feature.b", "0a0b6ea", "cuda:0", 0.76, LoadStatus::cached}, {"feature.c", "8849d8a", "cuda:0", 4.76, LoadStatus::cached}, {"feature.d", "293c489", "cuda:0", 0.73, LoadStatus::cached}}},
    {"granular_modules_fixed.cold.log", {{"feature_merged", "3b20941", "cuda:0", 596.21, LoadStatus::compiled}}},
    {"granular_modules_fixed.warm.log", {{"feature_merged", "3b20941", "cuda:0", 4.84, LoadStatus::cached}}},
    {"late_generic_app.cold.log", {{"__main__", "5763203", "cuda:0", 549.31, LoadStatus::compiled}, {"__main__", "9ffa9ae", "cuda:0", 155.96, LoadStatus::compiled}}},
    {"late_generic_app.warm.log", {{"__main__", "5763203", "cuda:0", 0.84, LoadStatus::cached}, {"__main__", "9ffa9ae", "cuda:0", 0.57, LoadStatus::cached}}},
    {"late_generic_fixed.cold.log", {{"__main__", "9ffa9ae", "cuda:0", 464.80, LoadStatus::compiled}}},
    {"late_generic_fixed.warm.log", {{"__main__", "9ffa9ae", "cuda:0", 1.51, LoadStatus::cached}}},
    {"late_kernel_app.cold.log", {{"__main__", "da70efd", "cuda:0", 421.08, LoadStatus::compiled}, {"__main__", "32a7ee4", "cuda:0", 103.77, LoadStatus::compiled}}},
    {"late_kernel_app.warm.log", {{"__main__", "da70efd", "cuda:0", 0.74, LoadStatus::cached}, {"__main__", "32a7ee4", "cuda:0", 0.56, LoadStatus::cached}}},
    {"late_kernel_fixed.cold.log", {{"__main__", "32a7ee4", "cuda:0", 437.36, LoadStatus::compiled}}},
    {"late_kernel_fixed.warm.log", {{"__main__", "32a7ee4", "cuda:0", 0.80, LoadStatus::cached}}},
    {"late_option_app.cold.log", {{"__main__", "e52e9e1", "cuda:0", 436.28, LoadStatus::compiled}, {"__main__", "d668f51", "cuda:0", 84.64, LoadStatus::compiled}}},
    {"late_option_app.warm.log", {{"__main__", "e52e9e1", "cuda:0", 0.79, LoadStatus::cached}, {"__main__", "d668f51", "cuda:0", 0.53, LoadStatus::cached}}},
    {"late_option_fixed.cold.log", {{"__main__", "d668f51", "cuda:0", 474.71, LoadStatus::compiled}}},
    {"late_option_fixed.warm.log", {{"__main__", "d668f51", "cuda:0", 0.75, LoadStatus::cached}}},
    {"named_module_backward_app.cold.log", {{"solver_kernels", "f3792b3", "cuda:0", 570.88, LoadStatus::compiled}}},
    {"named_module_backward_app.warm.log", {{"solver_kernels", "f3792b3", "cuda:0", 1.12, LoadStatus::cached}}},
    {"named_module_backward_fixed.cold.log", {{"solver_kernels", "d5ff179", "cuda:0", 443.80, LoadStatus::compiled}}},
    {"named_module_backward_fixed.warm.log", {{"solver_kernels", "d5ff179", "cuda:0", 0.67, LoadStatus::cached}}},
    {"option_deadline_app.cold.log", {{"__main__", "e60a89e", "cuda:0", 888.79, LoadStatus::compiled}}},
    {"option_deadline_app.warm.log", {{"__main__", "e60a89e", "cuda:0", 1.20, LoadStatus::cached}}},
    {"option_deadline_fixed.cold.log", {{"__main__", "9ead4d8", "cuda:0", 687.72, LoadStatus::compiled}}},
    {"option_deadline_fixed.warm.log", {{"__main__", "9ead4d8", "cuda:0", 0.79, LoadStatus::cached}}},
    {"pch_off_app.cold.log", {{"fill_c37d1fb1", "c37d1fb", "cuda:0", 560.61, LoadStatus::compiled}, {"scale_83378b75", "83378b7", "cuda:0", 440.84, LoadStatus::compiled}, {"offset_3cc2e55b", "3cc2e55", "cuda:0", 360.26, LoadStatus::compiled}}},
    {"pch_off_app.warm.log", {{"fill_c37d1fb1", "c37d1fb", "cuda:0", 14.66, LoadStatus::cached}, {"scale_83378b75", "83378b7", "cuda:0", 0.67, LoadStatus::cached}, {"offset_3cc2e55b", "3cc2e55", "cuda:0", 0.72, LoadStatus::cached}}},
    {"pch_off_fixed.cold.log", {{"fill_b26a8d79", "b26a8d7", "cuda:0", 687.62, LoadStatus::compiled}, {"scale_2dfc7640", "2dfc764", "cuda:0", 126.69, LoadStatus::compiled}, {"offset_c4623afc", "c4623af", "cuda:0", 126.63, LoadStatus::compiled}}},
    {"pch_off_fixed.warm.log", {{"fill_b26a8d79", "b26a8d7", "cuda:0", 134.09, LoadStatus::cached}, {"scale_2dfc7640", "2dfc764", "cuda:0", 0.59, LoadStatus::cached}, {"offset_c4623afc", "c4623af", "cuda:0", 0.61, LoadStatus::cached}}},
    {"phases_probe_free.cold.log", {{"__main__", "09c95ea", "cuda:0", 473.58, LoadStatus::compiled}, {"k2_f345911e", "f345911", "cuda:0", 137.93, LoadStatus::compiled}}},
    {"phases_probe_free.warm.log", {{"__main__", "09c95ea", "cuda:0", 1.10, LoadStatus::cached}, {"k2_f345911e", "f345911", "cuda:0", 0.92, LoadStatus::cached}}},
    {"processes_os_exit_worker_app.cold.log", {{"__main__", "5bbb4bf", "cuda:0", 500.78, LoadStatus::compiled}, {"__main__", "5bbb4bf", "cuda:0", 0.91, LoadStatus::cached}}},
    {"processes_os_exit_worker_app.warm.log", {{"__main__", "5bbb4bf", "cuda:0", 9.92, LoadStatus::cached}, {"__main__", "5bbb4bf", "cuda:0", 1.89, LoadStatus::cached}}},
    {"processes_spawn_pool_app.cold.log", {{"__mp_main__", "da70efd", "cuda:0", 405.97, LoadStatus::compiled}, {"__mp_main__", "da70efd", "cuda:0", 376.14, LoadStatus::compiled}, {"__main__", "da70efd", "cuda:0", 473.92, LoadStatus::compiled}}},
    {"processes_spawn_pool_app.warm.log", {{"__mp_main__", "da70efd", "cuda:0", 0.63, LoadStatus::cached}, {"__mp_main__", "da70efd", "cuda:0", 0.61, LoadStatus::cached}, {"__main__", "da70efd", "cuda:0", 0.59, LoadStatus::cached}}},
    {"processes_subprocess_launcher_app.cold.log", {{"__main__", "81495f6", "cuda:0", 385.43, LoadStatus::compiled}, {"__main__", "bc1f989", "cuda:0", 429.37, LoadStatus::compiled}}},
    {"processes_subprocess_launcher_app.warm.log", {{"__main__", "81495f6", "cuda:0", 0.88, LoadStatus::cached}, {"__main__", "bc1f989", "cuda:0", 0.61, LoadStatus::cached}}},
    {"sibling_modules_app.cold.log", {{"physics", "e91ff07", "cuda:0", 463.87, LoadStatus::compiled}, {"shading", "f139896", "cuda:0", 171.54, LoadStatus::compiled}, {"export", "ad477bc", "cuda:0", 480.87, LoadStatus::compiled}}},
    {"sibling_modules_app.warm.log", {{"physics", "e91ff07", "cuda:0", 2.02, LoadStatus::cached}, {"shading", "f139896", "cuda:0", 0.56, LoadStatus::cached}, {"export", "ad477bc", "cuda:0", 0.52, LoadStatus::cached}}},
    {"sibling_modules_fixed.cold.log", {{"grouped", "4e8c442", "cuda:0", 483.04, LoadStatus::compiled}}},
    {"sibling_modules_fixed.warm.log", {{"grouped", "4e8c442", "cuda:0", 15.22, LoadStatus::cached}}},
    {"unique_modules_app.cold.log", {{"fill_a45253e7", "a45253e", "cuda:0", 440.60, LoadStatus::compiled}, {"scale_ff6dff74", "ff6dff7", "cuda:0", 89.46, LoadStatus::compiled}, {"offset_94f34e91", "94f34e9", "cuda:0", 87.65, LoadStatus::compiled}}},
    {"unique_modules_app.warm.log", {{"fill_a45253e7", "a45253e", "cuda:0", 0.76, LoadStatus::cached}, {"scale_ff6dff74", "ff6dff7", "cuda:0", 0.49, LoadStatus::cached}, {"offset_94f34e91", "94f34e9", "cuda:0", 0.71, LoadStatus::cached}}},
    {"unique_modules_fixed.cold.log", {{"__main__", "1666253", "cuda:0", 453.16, LoadStatus::compiled}}},
    {"unique_modules_fixed.warm.log", {{"__main__", "1666253", "cuda:0", 0.81, LoadStatus::cached}}},
    {"unused_backward_app.cold.log", {{"__main__", "d5c14dd", "cuda:0", 991.00, LoadStatus::compiled}}},
    {"unused_backward_app.warm.log", {{"__main__", "d5c14dd", "cuda:0", 0.86, LoadStatus::cached}}},
    {"unused_backward_fixed.cold.log", {{"__main__", "e792cac", "cuda:0", 620.80, LoadStatus::compiled}}},
    {"unused_backward_fixed.warm.log", {{"__main__", "e792cac", "cuda:0", 0.78, LoadStatus::cached}}},
  };
  return loads;
}

std::string read_file(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream content;
  content << file.rdbuf();
  return content.str();
}

parse::LogFacts scan(const std::string& text) {
  parse::LogScanner scanner;
  scanner.feed(text);
  scanner.finish();
  return scanner.facts();
}

TEST(CudaRecorded, EveryBareLogIsInTheTable) {
  std::size_t logs = 0;
  for (const auto& entry : fs::directory_iterator(kRecorded / "bare")) {
    if (entry.path().extension() != ".log") continue;
    ++logs;
    EXPECT_TRUE(expected_loads().contains(entry.path().filename().string())) << entry.path();
  }
  EXPECT_EQ(logs, 58u);
  EXPECT_EQ(expected_loads().size(), 58u);
}

TEST(CudaRecorded, TheLogParserReadsEveryBareLog) {
  for (const auto& [file, loads] : expected_loads()) {
    SCOPED_TRACE(file);
    const std::string text = read_file(kRecorded / "bare" / file);
    ASSERT_FALSE(text.empty());
    const auto facts = scan(text);
    EXPECT_EQ(facts.warp_version, "1.19.0");
    ASSERT_EQ(facts.module_events.size(), loads.size());
    for (std::size_t i = 0; i < loads.size(); ++i) {
      const auto& event = facts.module_events[i];
      EXPECT_EQ(event.name, loads[i].name);
      EXPECT_EQ(event.hash, loads[i].hash);
      EXPECT_EQ(event.device, loads[i].device);
      EXPECT_NEAR(event.ms, loads[i].ms, 1e-9);
      EXPECT_EQ(event.status, loads[i].status);
      EXPECT_FALSE(event.block_dim.has_value()) << "Warp 1.19 prints no block_dim on a CUDA load line";
    }
    EXPECT_TRUE(facts.hash_changes.empty());
    EXPECT_TRUE(facts.find_failures.empty());
  }
}

TEST(CudaRecorded, OnlyTheDestroyedCacheCompilesWhenWarm) {
  std::vector<std::string> compiled_warm;
  for (const auto& [file, loads] : expected_loads()) {
    if (!file.ends_with(".warm.log")) continue;
    for (const auto& event : scan(read_file(kRecorded / "bare" / file)).module_events) {
      if (event.status == LoadStatus::compiled) compiled_warm.push_back(file + " " + event.hash);
    }
  }
  EXPECT_EQ(compiled_warm, std::vector<std::string>{"cache_destroyed_app.warm.log 32a7ee4"});
  // Same fixture, cold: the same identity compiled, 511 ms (README: "511 / 357.0").
  const auto cold = scan(read_file(kRecorded / "bare" / "cache_destroyed_app.cold.log"));
  ASSERT_EQ(cold.module_events.size(), 1u);
  EXPECT_EQ(cold.module_events[0].hash, "32a7ee4");
  EXPECT_NEAR(cold.module_events[0].ms, 510.98, 1e-9);
}

TEST(CudaRecorded, ChurnAndProcessesAsWarpLoggedThem) {
  // late_option: the option set after the first launch rebuilt __main__ under a new hash.
  const auto late_option = scan(read_file(kRecorded / "bare" / "late_option_app.cold.log"));
  ASSERT_EQ(late_option.module_events.size(), 2u);
  EXPECT_EQ(late_option.module_events[0].hash, "e52e9e1");
  EXPECT_EQ(late_option.module_events[1].hash, "d668f51");
  EXPECT_NEAR(late_option.module_events[1].ms, 84.64, 1e-9);
  // spawn pool: the main script's kernels compiled under __main__ and again in the workers.
  const auto spawn = scan(read_file(kRecorded / "bare" / "processes_spawn_pool_app.cold.log"));
  std::vector<std::string> names;
  for (const auto& event : spawn.module_events) names.push_back(event.name);
  EXPECT_EQ(std::count(names.begin(), names.end(), "__mp_main__"), 2);
  EXPECT_EQ(std::count(names.begin(), names.end(), "__main__"), 1);
}

std::vector<fs::path> probe_reports() {
  std::vector<fs::path> paths;
  for (const auto& entry : fs::directory_iterator(kRecorded / "probe")) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(".json") && !name.ends_with(".diag.json")) paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(CudaRecorded, CacheNotReusedOnlyWhereTheWarmRunCompiled) {
  const auto paths = probe_reports();
  ASSERT_EQ(paths.size(), 35u);
  std::vector<std::string> with_cs2, compiled_again;
  for (const auto& path : paths) {
    SCOPED_TRACE(path.filename().string());
    const Report report = load_report(path.string());
    const auto diagnosis = analysis::diagnose(report);
    const std::string name = path.stem().string();
    if (diagnosis.found(Mechanism::cache_not_reused)) with_cs2.push_back(name);
    if (diagnosis.bottleneck.find("compiled again") != std::string::npos) compiled_again.push_back(name);
    // Every finding says what fired it.
    for (const auto& finding : diagnosis.findings) EXPECT_FALSE(finding.trigger.empty()) << code(finding.mechanism);
    if (name != "cache_destroyed_app") {
      // Every warm load was logged (cached): CS-2 is ruled out on that, whatever the warm ms read.
      const auto ruled = std::find_if(diagnosis.ruled_out.begin(), diagnosis.ruled_out.end(),
                                      [](const analysis::RuledOut& r) { return r.mechanism == Mechanism::cache_not_reused; });
      ASSERT_NE(ruled, diagnosis.ruled_out.end());
      EXPECT_THAT(ruled->signal, HasSubstr("every warm load was (cached)"));
    }
  }
  EXPECT_EQ(with_cs2, std::vector<std::string>{"cache_destroyed_app"});
  EXPECT_EQ(compiled_again, std::vector<std::string>{"cache_destroyed_app"});
}

TEST(CudaRecorded, TheDestroyedCacheFindingNamesTheWarmCompile) {
  const Report report = load_report((kRecorded / "probe" / "cache_destroyed_app.json").string());
  const auto diagnosis = analysis::diagnose(report);
  const auto found = std::find_if(diagnosis.findings.begin(), diagnosis.findings.end(),
                                  [](const analysis::Finding& f) { return f.mechanism == Mechanism::cache_not_reused; });
  ASSERT_NE(found, diagnosis.findings.end());
  EXPECT_THAT(found->trigger, HasSubstr("the warm pass logged 1 load(s) as (compiled): __main__ 32a7ee4 on cuda:0"));
  // The fixture points warp.config.kernel_cache_dir at a tempfile.mkdtemp() folder: that cause's fix.
  std::string evidence;
  for (const auto& line : found->evidence) evidence += line + "\n";
  EXPECT_THAT(evidence, HasSubstr("warp.config.kernel_cache_dir = /tmp/warp_cache_i02qnpqz/1.19.0"));
  EXPECT_THAT(found->fix, HasSubstr("never a temporary or per-run one"));
  EXPECT_THAT(found->fix, HasSubstr("--rebuild"));
  EXPECT_THAT(found->fix, Not(HasSubstr("clear_kernel_cache")));
  EXPECT_NEAR(found->cost_ms.value(), 975.6, 0.1);  // the warm compiled load itself
  const auto json = render::diagnosis_to_json(diagnosis);
  bool trigger_in_json = false;
  for (const auto& finding : json.at("findings")) {
    if (finding.at("id") == "CS-2") trigger_in_json = finding.at("trigger").get<std::string>() == found->trigger;
  }
  EXPECT_TRUE(trigger_in_json);
}

TEST(CudaRecorded, TheRecordedMechanismsStillFire) {
  const std::map<std::string, Mechanism> expected{
      {"late_kernel_app", Mechanism::late_kernel},       {"late_option_app", Mechanism::late_option},
      {"late_generic_app", Mechanism::late_generic},     {"closure_factory_app", Mechanism::closure_churn},
      {"granular_modules_app", Mechanism::granular_modules}, {"unique_modules_app", Mechanism::unique_modules},
      {"unused_backward_app", Mechanism::unused_backward}, {"spawn_pool_app", Mechanism::main_script_twice}};
  for (const auto& [name, mechanism] : expected) {
    SCOPED_TRACE(name);
    const auto diagnosis = analysis::diagnose(load_report((kRecorded / "probe" / (name + ".json")).string()));
    EXPECT_TRUE(diagnosis.found(mechanism)) << code(mechanism);
    // One module, one device, one block_dim (256) in every recording: no CS-5.
    EXPECT_FALSE(diagnosis.found(Mechanism::block_dim_spread));
  }
}

TEST(CudaRecorded, SerialBuildsAreReadFromTheLoadIntervals) {
  // sibling_modules_app builds three CUDA modules one after another. The overlap factor was
  // skewed by the inflated warm wall (module work / a too-small elapsed looked like overlap);
  // the instrumentation's load intervals say directly that no two builds overlapped.
  const auto diagnosis = analysis::diagnose(load_report((kRecorded / "probe" / "sibling_modules_app.json").string()));
  const auto found = std::find_if(diagnosis.findings.begin(), diagnosis.findings.end(),
                                  [](const analysis::Finding& f) { return f.mechanism == Mechanism::serial_builds; });
  ASSERT_NE(found, diagnosis.findings.end());
  EXPECT_THAT(found->trigger, HasSubstr("load intervals: 3 CUDA modules, each built once, built one after another"));
}

TEST(CudaRecorded, AWarmRunSlowerThanItsColdRunCreditsNoElapsed) {
  // closure_factory_app, sample 1: cold wall 2958 ms, warm wall 3065 ms.
  const Report report = load_report((kRecorded / "probe" / "closure_factory_app.json").string());
  ASSERT_EQ(report.sample_results.size(), 2u);
  EXPECT_FALSE(sample_compile_elapsed(report.sample_results[0]).ms.has_value());
  EXPECT_THAT(sample_compile_elapsed(report.sample_results[0]).left_out, HasSubstr("not below cold wall"));
  ASSERT_TRUE(sample_compile_elapsed(report.sample_results[1]).ms.has_value());
  const auto credited = credited_compile_elapsed(report);
  ASSERT_TRUE(credited.has_value());
  ASSERT_EQ(credited->values.size(), 1u);
  EXPECT_GT(credited->median, 0.0);
  EXPECT_NEAR(credited->median,
              report.sample_results[1].cold_wall_ms - *report.sample_results[1].warm_wall_ms, 1e-6);
  const auto left_out = elapsed_left_out(report);
  ASSERT_EQ(left_out.size(), 1u);
  EXPECT_THAT(left_out[0], HasSubstr("sample 1"));
}

}  // namespace
}  // namespace wcp
