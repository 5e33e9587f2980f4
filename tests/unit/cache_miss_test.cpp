// Why `measure --warm-cache DIR` built a module fresh (measure/cache_miss_explanation.h,
// measure/generated_source.h): generated sources shaped as Warp 1.19 writes them, parsed and
// compared, and cache folders made here, explained, rendered and round-tripped through JSON.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <ctime>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "codec/cache_audit_json.h"
#include "measure/cache_audit.h"
#include "measure/cache_copy.h"
#include "measure/cache_listing.h"
#include "measure/cache_miss_explanation.h"
#include "measure/generated_source.h"
#include "render/cache_audit_text.h"

namespace wcp::measure {
namespace {

namespace fs = std::filesystem;

struct KernelCode {
  std::string key;
  std::string hash;  // 8 hex
  std::string statement = "var_1 = wp::float(var_0);";
  int python_line = 20;
  bool backward = false;
};

// One kernel as Warp's CPU templates write it (codegen.py: codegen_kernel, codegen_module).
std::string cpu_kernel(const KernelCode& kernel) {
  const std::string name = kernel.key + "_" + kernel.hash;
  std::string text = "struct wp_args_" + name + " {\n    wp::array_t<wp::float32> a;\n};\n\n\n";
  text += "template <bool wp_linear_contiguous>\nstatic void " + name +
          "_cpu_kernel_forward(\n    wp::launch_bounds_t<1> dim,\n    size_t task_index,\n    wp_args_" + name +
          " *_wp_args)\n{\n    // forward\n    // i = wp.tid()                                 <L " +
          std::to_string(kernel.python_line) + ">\n    var_0 = builtin_tid1d();\n    " + kernel.statement + "\n}\n\n";
  if (kernel.backward) {
    text += "template <bool wp_linear_contiguous>\nstatic void " + name +
            "_cpu_kernel_backward(\n    wp::launch_bounds_t<1> dim,\n    wp_args_" + name +
            " *_wp_args)\n{\n    // reverse\n    wp::adj_float(var_0, adj_0, adj_1);\n}\n\n";
  }
  text += "static WP_FORCEINLINE void " + name + "_cpu_forward_dispatch(\n    wp_args_" + name +
          " *_wp_args)\n{\n    " + name +
          "_cpu_forward_tasks<true>(dim, _wp_args);\n}\n\nextern \"C\" {\n\n// Python CPU entry points\nWP_API void " +
          name + "_cpu_forward(\n    wp_args_" + name + " *_wp_args)\n{\n    " + name +
          "_cpu_forward_dispatch(dim, _wp_args);\n}\n\n} // extern C\n";
  if (kernel.backward) {
    text += "\nextern \"C\" {\n\nWP_API void " + name + "_cpu_backward(\n    wp_args_" + name + " *_wp_args)\n{\n    " +
            name + "_cpu_backward_dispatch(dim, _wp_args);\n}\n\n} // extern C\n";
  }
  return text;
}

std::string function_code(const std::string& statement = "return a + b;", int line = 9) {
  return "\n// /work/app.py:" + std::to_string(line) +
         "\nstatic wp::float32 helper_0(\n    wp::float32 var_a,\n    wp::float32 var_b)\n{\n    " + statement +
         "\n}\n\n";
}

std::string module_source(const std::vector<KernelCode>& kernels, int block_dim = 1,
                          const std::string& function = function_code()) {
  std::string text = "#define WP_NO_BFLOAT16\n\n#define WP_TILE_BLOCK_DIM " + std::to_string(block_dim) +
                     "\n#define WP_NO_CRT\n#include \"builtin.h\"\n\n#define float(x) cast_float(x)\n\n" + function;
  for (const auto& kernel : kernels) text += cpu_kernel(kernel);
  return text;
}

std::vector<KernelCode> solver_kernels() {
  return {{"integrate", "1a2b3c4d"}, {"collide", "22222222"}, {"apply_forces", "33333333"}, {"clear", "44444444"}};
}

TEST(GeneratedSource, SplitsKernelsFunctionsAndTheSettingsTheOptionsLeave) {
  const auto source = parse_generated_source(module_source(solver_kernels(), 256));
  ASSERT_EQ(source.kernel_forward.size(), 4u);
  EXPECT_TRUE(source.kernel_forward.contains("integrate"));
  EXPECT_TRUE(source.kernel_forward.contains("apply_forces"));
  ASSERT_EQ(source.functions.size(), 1u);
  EXPECT_TRUE(source.functions.contains("helper_0"));
  EXPECT_EQ(source.block_dim, 256);
  EXPECT_FALSE(source.backward);
  EXPECT_FALSE(source.line_directives);
  EXPECT_NE(source.shared.find("#include \"builtin.h\""), std::string::npos);
  EXPECT_EQ(source.shared.find("helper_0"), std::string::npos);  // the function is not shared code
  // The hash suffix is gone: the code compares by key.
  EXPECT_EQ(source.kernel_forward.at("integrate").front().find("1a2b3c4d"), std::string::npos);
  EXPECT_EQ(function_display_name("helper_0"), "helper");
  EXPECT_EQ(function_display_name("helper"), "helper");
}

TEST(GeneratedSource, AKernelThatOnlyMovedInItsFileReadsTheSame) {
  auto moved = solver_kernels();
  moved[0].python_line = 57;
  moved[0].hash = "99999999";
  const auto before = parse_generated_source(module_source(solver_kernels(), 1, function_code("return a + b;", 9)));
  const auto after = parse_generated_source(module_source(moved, 1, function_code("return a + b;", 44)));
  EXPECT_EQ(before.kernel_forward, after.kernel_forward);
  EXPECT_EQ(before.functions, after.functions);
  EXPECT_EQ(before.shared, after.shared);
}

TEST(GeneratedSource, BackwardCodeLeavesEachKernelsForwardCodeAsItWas) {
  auto with_backward = solver_kernels();
  for (auto& kernel : with_backward) kernel.backward = true;
  const auto off = parse_generated_source(module_source(solver_kernels()));
  const auto on = parse_generated_source(module_source(with_backward));
  EXPECT_TRUE(on.backward);
  EXPECT_EQ(off.kernel_forward, on.kernel_forward);
  const auto difference = compare_generated(on, off, {{"enable_backward", "True"}});
  EXPECT_EQ(difference.kernel_differences(), 0u);
  EXPECT_EQ(difference.kernels_identical.size(), 4u);
  ASSERT_EQ(difference.options.size(), 1u);
  EXPECT_EQ(difference.options[0], (OptionChange{"enable_backward", "False", "True"}));
}

TEST(GeneratedSource, LineDirectivesAreASettingNotADifferenceOfCode) {
  std::string with_lines = module_source(solver_kernels());
  for (std::size_t at = with_lines.find("    var_0 = builtin_tid1d();"); at != std::string::npos;
       at = with_lines.find("    var_0 = builtin_tid1d();", at + 40)) {
    with_lines.insert(at, "#line 21 \"/work/app.py\"\n");
  }
  const auto plain = parse_generated_source(module_source(solver_kernels()));
  const auto lined = parse_generated_source(with_lines);
  EXPECT_TRUE(lined.line_directives);
  const auto difference = compare_generated(lined, plain, {{"mode", "'debug'"}, {"lineinfo", "False"}});
  EXPECT_EQ(difference.kernel_differences(), 0u);
  ASSERT_EQ(difference.options.size(), 1u);
  EXPECT_EQ(difference.options[0].option, "mode");
}

// A restored cache DIR and the copy the pass built into, as folders.
class CacheMissTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("wcp-cache-miss-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(root_);
    fs::create_directories(dir());
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path dir() const { return root_ / "dir"; }
  fs::path copy() const { return root_ / "copy"; }

  static void write_entry(const fs::path& cache, const std::string& group, const std::string& name,
                          const std::string& source, const std::string& extension = ".cpp",
                          const std::string& binary = ".cpu202debe6.o") {
    const fs::path folder = group.empty() ? cache / name : cache / group / name;
    fs::create_directories(folder);
    std::ofstream(folder / (name + extension)) << source;
    std::ofstream(folder / (name + binary)) << "binary";
    std::ofstream(folder / (name + ".meta")) << "{}";
  }

  // The private copy, made as the tool makes it (DIR read without touching its access times).
  void ensure_copied() {
    if (!fs::exists(copy())) copy_cache_tree(dir(), copy());
  }

  // What the pass built into the copy.
  void build_fresh(const std::string& name, const std::string& source) {
    ensure_copied();
    write_entry(copy(), "1.19.0", name, source);
  }

  // The audit as the pass leaves it: DIR listed before, the copy after, one compiled load.
  CacheAudit audit_of(const std::string& module, const std::string& hash,
                      std::map<std::string, std::string> options = {}) {
    ensure_copied();
    ModuleEvent load;
    load.name = module;
    load.hash = hash;
    load.device = "cpu";
    load.status = LoadStatus::compiled;
    load.detail = LoadDetail{};
    load.detail->options = std::move(options);
    CacheAudit audit;
    audit.pass_ok = true;
    audit.loads_observed = true;
    audit.run_group = "1.19.0";
    classify_entries(audit, list_cache(dir()), list_cache(copy()), {load}, "1.19.0");
    explain_misses(audit, dir(), copy(), {load});
    return audit;
  }

  static std::string summary(const CacheAudit& audit) {
    std::ostringstream out;
    render::render_cache_audit_summary(audit, out);
    // One line per module however the screen wraps it.
    std::string text;
    bool space = false;
    for (const char c : out.str()) {
      if (c == '\n' || c == ' ') {
        space = true;
        continue;
      }
      if (space && !text.empty()) text += ' ';
      space = false;
      text += c;
    }
    return text;
  }

  fs::path root_;
};

TEST_F(CacheMissTest, NamesTheKernelWhoseSourceDiffersAgainstTheClosestEntry) {
  auto one_changed = solver_kernels();
  one_changed[0] = {"integrate", "0f0f0f0f", "var_1 = wp::float(var_0) * 2.0;"};
  auto two_changed = one_changed;
  two_changed[1] = {"collide", "0e0e0e0e", "var_1 = wp::float(var_0) - 1.0;"};
  write_entry(dir(), "1.19.0", "wp_solver_1a2b3c4", module_source(one_changed));
  write_entry(dir(), "1.19.0", "wp_solver_5d6e7f8", module_source(two_changed));
  write_entry(dir(), "", "wp_solver_0000000", module_source(solver_kernels()));  // Warp 1.9's top level
  write_entry(dir(), "1.19.0", "wp_other_1111111", module_source(solver_kernels()));
  build_fresh("wp_solver_abcdef0", module_source(solver_kernels()));

  const CacheAudit audit = audit_of("solver", "abcdef0");
  ASSERT_EQ(audit.modules.size(), 1u);
  ASSERT_TRUE(audit.modules[0].miss);
  const CacheMiss& miss = *audit.modules[0].miss;
  EXPECT_EQ(miss.cause, MissCause::kernels_differ);
  EXPECT_EQ(miss.build_entry, "wp_solver_abcdef0");
  EXPECT_EQ(miss.same_name_entries, 2u);
  EXPECT_EQ(miss.other_version_entries, 1u);
  ASSERT_EQ(miss.closest.size(), 2u);
  EXPECT_EQ(miss.closest[0].entry, "wp_solver_1a2b3c4");
  EXPECT_EQ(miss.closest[0].kernels_changed, std::vector<std::string>{"integrate"});
  EXPECT_EQ(miss.closest[0].kernels_identical.size(), 3u);
  EXPECT_EQ(miss.closest[1].kernels_changed, (std::vector<std::string>{"collide", "integrate"}));
  EXPECT_NE(summary(audit).find("solver: not served — kernel integrate's generated source differs from the cached "
                                "entry wp_solver_1a2b3c4 (closest of 2); 3 other kernels identical"),
            std::string::npos)
      << summary(audit);
}

TEST_F(CacheMissTest, SeveralChangedKernelsAreNamedTogether) {
  auto changed = solver_kernels();
  changed[0].statement = "var_1 = wp::float(var_0) * 2.0;";
  changed[1].statement = "var_1 = wp::float(var_0) - 1.0;";
  write_entry(dir(), "1.19.0", "wp_solver_1a2b3c4", module_source(changed));
  build_fresh("wp_solver_abcdef0", module_source(solver_kernels()));
  const CacheAudit audit = audit_of("solver", "abcdef0");
  EXPECT_NE(summary(audit).find("solver: not served — the generated source of kernels collide and integrate differs "
                                "from the cached entry wp_solver_1a2b3c4; 2 other kernels identical"),
            std::string::npos)
      << summary(audit);
}

TEST_F(CacheMissTest, AKernelInOneOnlyIsNamedAsNewOrAsOnlyInTheEntry) {
  auto fewer = solver_kernels();
  fewer.pop_back();
  auto renamed = fewer;
  renamed.push_back({"reset", "55555555"});
  write_entry(dir(), "1.19.0", "wp_solver_1a2b3c4", module_source(renamed));
  build_fresh("wp_solver_abcdef0", module_source(solver_kernels()));
  const CacheAudit audit = audit_of("solver", "abcdef0");
  const auto& closest = audit.modules[0].miss->closest[0];
  EXPECT_EQ(closest.kernels_added, std::vector<std::string>{"clear"});
  EXPECT_EQ(closest.kernels_removed, std::vector<std::string>{"reset"});
  EXPECT_NE(summary(audit).find("kernel clear is new, not in the cached entry wp_solver_1a2b3c4; kernel reset is "
                                "only in the entry; 3 other kernels identical"),
            std::string::npos)
      << summary(audit);
}

TEST_F(CacheMissTest, AnOptionOnlyDifferenceIsNamed) {
  write_entry(dir(), "1.19.0", "wp_solver_1a2b3c4", module_source(solver_kernels(), 1));
  build_fresh("wp_solver_abcdef0", module_source(solver_kernels(), 128));
  const CacheAudit audit = audit_of("solver", "abcdef0", {{"block_dim", "128"}});
  const CacheMiss& miss = *audit.modules[0].miss;
  EXPECT_EQ(miss.cause, MissCause::options_differ);
  EXPECT_EQ(miss.closest[0].options, (std::vector<OptionChange>{{"block_dim", "1", "128"}}));
  EXPECT_NE(summary(audit).find("solver: not served — same kernels as the cached entry wp_solver_1a2b3c4, built with "
                                "other options: block_dim 1 -> 128 (entry -> this build)"),
            std::string::npos)
      << summary(audit);
}

TEST_F(CacheMissTest, AChangedFunctionIsNamedWhenTheKernelsAreTheSame) {
  write_entry(dir(), "1.19.0", "wp_solver_1a2b3c4", module_source(solver_kernels(), 1, function_code("return a - b;")));
  build_fresh("wp_solver_abcdef0", module_source(solver_kernels()));
  const CacheAudit audit = audit_of("solver", "abcdef0");
  EXPECT_EQ(audit.modules[0].miss->cause, MissCause::functions_differ);
  EXPECT_NE(summary(audit).find("the generated source of function helper differs"), std::string::npos)
      << summary(audit);
}

TEST_F(CacheMissTest, TheSameSourceIsAnOptionThatReachesOnlyTheCompiler) {
  write_entry(dir(), "1.19.0", "wp_solver_1a2b3c4", module_source(solver_kernels()));
  build_fresh("wp_solver_abcdef0", module_source(solver_kernels()));
  const CacheAudit audit = audit_of("solver", "abcdef0", {{"fast_math", "True"}});
  EXPECT_EQ(audit.modules[0].miss->cause, MissCause::compiler_only);
  EXPECT_NE(summary(audit).find("an option that reaches only the compiler differs"), std::string::npos)
      << summary(audit);
}

TEST_F(CacheMissTest, NoEntryOfThatNameIsSaid) {
  write_entry(dir(), "1.19.0", "wp_other_1111111", module_source(solver_kernels()));
  write_entry(dir(), "1.19.0", "wp_solver_extra_2222222", module_source(solver_kernels()));  // another module
  build_fresh("wp_solver_abcdef0", module_source(solver_kernels()));
  const CacheAudit audit = audit_of("solver", "abcdef0");
  EXPECT_EQ(audit.modules[0].miss->cause, MissCause::no_entry);
  EXPECT_TRUE(audit.modules[0].miss->closest.empty());
  EXPECT_NE(summary(audit).find("solver: not served — DIR has no entry of that name (wp_solver_*) in 1.19.0"),
            std::string::npos)
      << summary(audit);
}

TEST_F(CacheMissTest, TheSameHashWithoutThisDevicesBinaryIsSaid) {
  write_entry(dir(), "1.19.0", "wp_solver_abcdef0", module_source(solver_kernels()), ".cu", ".sm86.cubin");
  const CacheAudit audit = audit_of("solver", "abcdef0");
  const CacheMiss& miss = *audit.modules[0].miss;
  EXPECT_EQ(miss.cause, MissCause::no_device_build);
  EXPECT_NE(miss.detail.find("wp_solver_abcdef0.sm86.cubin"), std::string::npos) << miss.detail;
}

TEST_F(CacheMissTest, DirIsOnlyReadAndItsAccessTimesStay) {
  write_entry(dir(), "1.19.0", "wp_solver_1a2b3c4", module_source(solver_kernels(), 1));
  build_fresh("wp_solver_abcdef0", module_source(solver_kernels(), 64));
  // Two days old: a plain read on a relatime mount would move the access time.
  const fs::path source = dir() / "1.19.0" / "wp_solver_1a2b3c4" / "wp_solver_1a2b3c4.cpp";
  const timespec old_times[2] = {{::time(nullptr) - 2 * 86400, 0}, {::time(nullptr) - 2 * 86400, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, source.c_str(), old_times, 0), 0);
  const auto before = list_cache(dir());
  const CacheAudit audit = audit_of("solver", "abcdef0");
  EXPECT_EQ(audit.modules[0].miss->cause, MissCause::options_differ);  // the source was read
  const auto after = list_cache(dir());
  EXPECT_EQ(before.entries, after.entries);
  EXPECT_EQ(before.others, after.others);
  struct stat status {};
  ASSERT_EQ(::stat(source.c_str(), &status), 0);
  EXPECT_EQ(status.st_atim.tv_sec, old_times[0].tv_sec);
}

TEST(CacheMiss, JsonRoundTrips) {
  CacheAudit audit;
  audit.pass_ok = true;
  audit.loads_observed = true;
  ServedModule module;
  module.identity = {"solver", "abcdef0", "cpu", 1};
  module.served = ServedBy::compiled;
  module.entry = "wp_solver_abcdef0";
  EntryDifference closest;
  closest.entry = "wp_solver_1a2b3c4";
  closest.kernels_changed = {"integrate"};
  closest.kernels_identical = {"collide", "clear"};
  closest.functions_changed = {"helper"};
  closest.options = {{"enable_backward", "False", "True"}};
  module.miss = CacheMiss{MissCause::kernels_differ, "wp_solver_abcdef0", 2, 1, {closest}, ""};
  audit.modules = {module};
  EXPECT_EQ(cache_audit_from_json(cache_audit_to_json(audit)), audit);
  audit.modules[0].miss.reset();
  const auto json = cache_audit_to_json(audit);
  EXPECT_TRUE(json["modules"][0]["miss"].is_null());
  EXPECT_EQ(cache_audit_from_json(json), audit);
}

}  // namespace
}  // namespace wcp::measure
