#pragma once
// The CUDA sources the calibration compiles, read from cuda_fixtures/: a minimal module, the
// same kernel behind Warp's runtime header, and a family of Warp-shaped modules with 1, 2, 4,
// 8 and 16 kernels generated from one kernel template.
#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace wcp::calibrate {

inline constexpr std::array<int, 5> kFamilyKernelCounts = {1, 2, 4, 8, 16};

struct FixtureTexts {
  std::string minimal;         // minimal.cu
  std::string warp_prelude;    // warp_prelude.cuh
  std::string family_kernel;   // family_kernel.cu.in, with @INDEX@ placeholders
};

struct FixtureSource {
  std::string name;          // "minimal", "warp_module", "family_k4"
  int kernels = 1;
  bool warp_header = false;  // includes Warp's builtin.h, so needs Warp's include path
  std::string source;
};

// --fixtures-dir when given (must exist), else <exe>/../share/warp-compile-probe/cuda_fixtures
// (an installed tool), else the source tree's cuda_fixtures/ (a build tree). Throws UsageError.
std::filesystem::path find_fixtures_dir(const std::optional<std::filesystem::path>& explicit_dir);

// Throws UsageError naming the missing or unreadable file.
FixtureTexts load_fixture_texts(const std::filesystem::path& dir);

std::string family_module_source(const FixtureTexts& texts, int kernels);

// minimal, warp_module, then family_k1 ... family_k16.
std::vector<FixtureSource> calibration_fixtures(const FixtureTexts& texts);

}  // namespace wcp::calibrate
