// Where the tool looks for NVRTC, and in what order (nvrtc_search.h): the search on a faked
// environment and a faked venv, and one real load of NVRTC out of a venv laid out like the
// nvidia-cuda-nvrtc wheel with the system paths off.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "calibrate/calibration_fixtures.h"
#include "calibrate/gpu_target.h"
#include "calibrate/nvrtc_compiler.h"
#include "calibrate/nvrtc_search.h"
#include "calibrate_test_support.h"
#include "errors.h"
#include "run/scratch_dir.h"

namespace wcp::calibrate {
namespace {

namespace fs = std::filesystem;

// A venv with an executable bin/python and, when asked, the wheels' libraries (empty files).
fs::path make_venv(const fs::path& root, const std::vector<std::string>& libraries) {
  fs::create_directories(root / "bin");
  std::ofstream(root / "bin" / "python") << "#!/bin/sh\n";
  fs::permissions(root / "bin" / "python", fs::perms::owner_all);
  const auto packages = root / "lib" / "python3.11" / "site-packages";
  fs::create_directories(packages);
  for (const auto& library : libraries) {
    fs::create_directories((packages / library).parent_path());
    std::ofstream(packages / library) << "";
  }
  return root / "bin" / "python";
}

std::vector<std::string> origins(const NvrtcSearchPlan& plan) {
  std::vector<std::string> seen;
  for (const auto& candidate : plan.candidates) {
    if (seen.empty() || seen.back() != candidate.origin) seen.push_back(candidate.origin);
  }
  return seen;
}

TEST(NvrtcSearch, TheOptionAloneBeatsEverythingElse) {
  const auto plan = plan_nvrtc_search({fs::path("/opt/x/libnvrtc.so"), "python3"},
                                      lookup_in({{"WCP_NVRTC", "/elsewhere/libnvrtc.so"}, {"CUDA_HOME", "/cuda"}}));
  ASSERT_EQ(plan.candidates.size(), 1u);
  EXPECT_TRUE(plan.explicit_choice);
  EXPECT_EQ(plan.candidates[0].path, "/opt/x/libnvrtc.so");
  EXPECT_EQ(plan.candidates[0].origin, "--nvrtc-library");
}

TEST(NvrtcSearch, TheVariableAloneWithoutTheOption) {
  const auto plan = plan_nvrtc_search({std::nullopt, "python3"},
                                      lookup_in({{"WCP_NVRTC", "/elsewhere/libnvrtc.so"}, {"CUDA_HOME", "/cuda"}}));
  ASSERT_EQ(plan.candidates.size(), 1u);
  EXPECT_TRUE(plan.explicit_choice);
  EXPECT_EQ(plan.candidates[0].path, "/elsewhere/libnvrtc.so");
  EXPECT_EQ(plan.candidates[0].origin, "$WCP_NVRTC");
}

TEST(NvrtcSearch, ToolkitsThenTheLoaderThenTheVenvsWheel) {
  const ScratchDir scratch;
  const auto python = make_venv(scratch.path() / "venv", {"nvidia/cu13/lib/libnvrtc.so.13"});
  const auto plan = plan_nvrtc_search({std::nullopt, python.string()},
                                      lookup_in({{"CUDA_HOME", "/opt/cuda-a"}, {"CUDA_PATH", "/opt/cuda-b"}}));
  EXPECT_FALSE(plan.explicit_choice);
  const std::vector<std::string> expected = {"$CUDA_HOME", "$CUDA_PATH", "/usr/local/cuda", "the loader's search",
                                             "the venv of " + python.string()};
  EXPECT_EQ(origins(plan), expected);
  EXPECT_EQ(plan.candidates.front().path, "/opt/cuda-a/lib64/libnvrtc.so");
  EXPECT_EQ(plan.candidates.back().path,
            scratch.path() / "venv/lib/python3.11/site-packages/nvidia/cu13/lib/libnvrtc.so.13");
  EXPECT_TRUE(plan.notes.empty());
}

// pip installs the tool into <venv>/bin beside the venv's site-packages, where the [nvrtc] extra
// puts the wheel; the interpreter in use may belong to another venv, searched after it.
TEST(NvrtcSearch, ToolkitsThenTheToolsOwnEnvironmentThenTheInterpretersVenv) {
  const ScratchDir scratch;
  make_venv(scratch.path() / "tool", {"nvidia/cu13/lib/libnvrtc.so.13"});
  const auto tool = scratch.path() / "tool" / "bin" / "warp-compile-probe";
  const auto python = make_venv(scratch.path() / "venv", {"nvidia/cu13/lib/libnvrtc.so.13"});
  const auto plan = plan_nvrtc_search({std::nullopt, python.string(), tool}, lookup_in({{"CUDA_HOME", "/opt/cuda"}}));
  const std::vector<std::string> expected = {"$CUDA_HOME", "/usr/local/cuda", "the loader's search",
                                             "the tool's own environment " + (scratch.path() / "tool").string(),
                                             "the venv of " + python.string()};
  EXPECT_EQ(origins(plan), expected);
  EXPECT_TRUE(plan.notes.empty());
  // With the toolkit paths off, the tool's own wheel comes first.
  const auto no_system =
      plan_nvrtc_search({std::nullopt, python.string(), tool}, lookup_in({{"WCP_NVRTC_NO_SYSTEM", "1"}}));
  ASSERT_FALSE(no_system.candidates.empty());
  EXPECT_EQ(no_system.candidates.front().path,
            scratch.path() / "tool/lib/python3.11/site-packages/nvidia/cu13/lib/libnvrtc.so.13");
}

TEST(NvrtcSearch, TheToolsOwnVenvIsTheInterpretersTooAndIsSearchedOnce) {
  const ScratchDir scratch;
  const auto python = make_venv(scratch.path() / "venv", {"nvidia/cu13/lib/libnvrtc.so.13"});
  const auto tool = scratch.path() / "venv" / "bin" / "warp-compile-probe";
  const auto plan = plan_nvrtc_search({std::nullopt, python.string(), tool}, lookup_in({{"WCP_NVRTC_NO_SYSTEM", "1"}}));
  ASSERT_EQ(plan.candidates.size(), 1u);
  EXPECT_EQ(plan.candidates[0].origin, "the tool's own environment " + (scratch.path() / "venv").string());
}

TEST(NvrtcSearch, AToolEnvironmentWithoutTheWheelIsANoteABuildTreeIsNot) {
  const ScratchDir scratch;
  make_venv(scratch.path() / "tool", {});
  const auto in_venv = plan_nvrtc_search({std::nullopt, "", scratch.path() / "tool" / "bin" / "warp-compile-probe"},
                                         lookup_in({{"WCP_NVRTC_NO_SYSTEM", "1"}}));
  EXPECT_TRUE(in_venv.candidates.empty());
  ASSERT_EQ(in_venv.notes.size(), 3u);
  EXPECT_NE(in_venv.notes[1].find("warp-compile-probe[nvrtc]"), std::string::npos) << in_venv.notes[1];
  // A build tree (build/harness/warp-compile-probe) holds no Python packages.
  fs::create_directories(scratch.path() / "build" / "harness");
  const auto in_build = plan_nvrtc_search({std::nullopt, "", scratch.path() / "build/harness/warp-compile-probe"},
                                          lookup_in({{"WCP_NVRTC_NO_SYSTEM", "1"}}));
  EXPECT_EQ(in_build.notes.size(), 2u);
}

TEST(NvrtcSearch, APathIsTriedOnce) {
  const auto plan = plan_nvrtc_search({std::nullopt, ""}, lookup_in({{"CUDA_HOME", "/usr/local/cuda"}}));
  size_t tries = 0;
  for (const auto& candidate : plan.candidates) tries += candidate.path == "/usr/local/cuda/lib64/libnvrtc.so.13";
  EXPECT_EQ(tries, 1u);
  EXPECT_EQ(plan.candidates.front().origin, "$CUDA_HOME");
}

TEST(NvrtcSearch, NoSystemLeavesOnlyTheVenvAndSaysSo) {
  const ScratchDir scratch;
  const auto python = make_venv(scratch.path() / "venv", {"nvidia/cu13/lib/libnvrtc.so.13"});
  const auto plan = plan_nvrtc_search({std::nullopt, python.string()},
                                      lookup_in({{"CUDA_HOME", "/opt/cuda-a"}, {"WCP_NVRTC_NO_SYSTEM", "1"}}));
  ASSERT_EQ(plan.candidates.size(), 1u);
  EXPECT_EQ(plan.candidates[0].origin, "the venv of " + python.string());
  ASSERT_EQ(plan.notes.size(), 1u);
  EXPECT_NE(plan.notes[0].find("WCP_NVRTC_NO_SYSTEM"), std::string::npos) << plan.notes[0];
  // "0" means off, as for the tool's other flags.
  const auto on = plan_nvrtc_search({std::nullopt, python.string()}, lookup_in({{"WCP_NVRTC_NO_SYSTEM", "0"}}));
  EXPECT_EQ(origins(on).front(), "/usr/local/cuda");
}

TEST(NvrtcSearch, NewestWheelGenerationFirstThenCuda12Layout) {
  const ScratchDir scratch;
  const auto python =
      make_venv(scratch.path() / "venv", {"nvidia/cuda_nvrtc/lib/libnvrtc.so.12", "nvidia/cu13/lib/libnvrtc.so.13",
                                          "nvidia/cu13/lib/libnvrtc-builtins.so.13.0",
                                          "nvidia/cu13/lib/libnvrtc.alt.so.13", "nvidia/cu14/lib/libnvrtc.so.14"});
  const auto libraries = wheel_nvrtc_libraries(python.string(), "");
  const auto packages = scratch.path() / "venv/lib/python3.11/site-packages/nvidia";
  const std::vector<fs::path> expected = {packages / "cu14/lib/libnvrtc.so.14", packages / "cu13/lib/libnvrtc.so.13",
                                          packages / "cuda_nvrtc/lib/libnvrtc.so.12"};
  EXPECT_EQ(libraries, expected);
}

TEST(NvrtcSearch, AVenvWithoutTheWheelOrNoInterpreterIsANoteNotAnError) {
  const ScratchDir scratch;
  const auto python = make_venv(scratch.path() / "venv", {});
  const auto plan = plan_nvrtc_search({std::nullopt, python.string()}, lookup_in({{"WCP_NVRTC_NO_SYSTEM", "1"}}));
  EXPECT_TRUE(plan.candidates.empty());
  ASSERT_EQ(plan.notes.size(), 2u);
  EXPECT_NE(plan.notes[1].find("has no nvidia-cuda-nvrtc wheel"), std::string::npos) << plan.notes[1];
  EXPECT_TRUE(wheel_nvrtc_libraries((scratch.path() / "missing/bin/python").string(), "").empty());
  EXPECT_TRUE(wheel_nvrtc_libraries("no-such-python-anywhere", "/nonexistent").empty());
}

// Environment variables of this process for one test, restored afterwards.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~ScopedVariable() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedVariable(const ScopedVariable&) = delete;
  ScopedVariable& operator=(const ScopedVariable&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(NvrtcSearch, LoadsTheWheelLayoutWithTheSystemPathsOff) {
  // The NVRTC this machine has, wherever the tool found it, linked into a venv the way the
  // wheel lays it out, builtins beside it.
  auto found = testing::try_load_nvrtc();
  if (!found.nvrtc) {
    if (testing::nvrtc_required()) GTEST_FAIL() << found.why_not;
    GTEST_SKIP() << found.why_not;
  }
  if (!fs::path(found.nvrtc->path()).has_parent_path()) GTEST_SKIP() << "NVRTC came from the loader's search";
  const auto real = fs::canonical(found.nvrtc->path());
  const auto version = found.nvrtc->version();
  const auto builtins_name = "libnvrtc-builtins.so." + version.text();
  const ScratchDir scratch;
  const auto python = make_venv(scratch.path() / "venv", {});
  const auto lib =
      scratch.path() / "venv/lib/python3.11/site-packages/nvidia" / ("cu" + std::to_string(version.major)) / "lib";
  fs::create_directories(lib);
  fs::create_symlink(real, lib / ("libnvrtc.so." + std::to_string(version.major)));
  fs::create_symlink(real.parent_path() / builtins_name, lib / builtins_name);

  const ScopedVariable no_system("WCP_NVRTC_NO_SYSTEM", "1");
  const ScopedVariable no_variable("WCP_NVRTC", "");
  const auto nvrtc = NvrtcLibrary::load({std::nullopt, python.string()});
  EXPECT_EQ(fs::path(nvrtc.path()).parent_path(), lib);
  EXPECT_EQ(nvrtc.origin(), "the venv of " + python.string());
  EXPECT_EQ(nvrtc.builtins_path(), (lib / builtins_name).string());
  // And it compiles: the builtins are what a compile needs beyond libnvrtc itself.
  CompileRequest request;
  request.source = load_fixture_texts(testing::source_fixtures_dir()).minimal;
  request.name = "minimal.cu";
  const auto target = parse_gpu_target("compute_90", nvrtc.supported_archs());
  request.output = target.output;
  request.options = {target.nvrtc_option()};
  EXPECT_NE(compile(nvrtc, request).output.find(".entry minimal_kernel"), std::string::npos);
}

TEST(NvrtcSearch, NothingFoundNamesWhatWasLeftOut) {
  const ScratchDir scratch;
  const auto python = make_venv(scratch.path() / "venv", {});
  const ScopedVariable no_system("WCP_NVRTC_NO_SYSTEM", "1");
  const ScopedVariable no_variable("WCP_NVRTC", "");
  try {
    NvrtcLibrary::load({std::nullopt, python.string()});
    FAIL() << "NVRTC loaded from nowhere";
  } catch (const UsageError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("cannot find NVRTC (nothing to try; WCP_NVRTC_NO_SYSTEM is set"), std::string::npos)
        << message;
    EXPECT_NE(message.find("has no nvidia-cuda-nvrtc wheel"), std::string::npos) << message;
  }
}

TEST(NvrtcSearch, AWrongPathInTheVariableIsNotPaperedOver) {
  const ScopedVariable named("WCP_NVRTC", "/nonexistent/libnvrtc.so.13");
  try {
    NvrtcLibrary::load({std::nullopt, ""});
    FAIL() << "a missing $WCP_NVRTC fell back to another NVRTC";
  } catch (const UsageError& error) {
    EXPECT_NE(
        std::string(error.what()).find("cannot load NVRTC from /nonexistent/libnvrtc.so.13 (named by $WCP_NVRTC)"),
        std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace wcp::calibrate
