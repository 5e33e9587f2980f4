#include "calibrate/calibration_fixtures.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <sstream>
#include <system_error>

#include "errors.h"

#ifndef WCP_CUDA_FIXTURES_SOURCE_DIR
#define WCP_CUDA_FIXTURES_SOURCE_DIR ""
#endif

namespace wcp::calibrate {
namespace {

constexpr const char* kFixtureFiles[] = {"minimal.cu", "warp_prelude.cuh", "family_kernel.cu.in"};

bool has_fixtures(const std::filesystem::path& dir) {
  std::error_code ignored;
  for (const char* file : kFixtureFiles) {
    if (!std::filesystem::is_regular_file(dir / file, ignored)) return false;
  }
  return true;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read calibration fixture " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

}  // namespace

std::filesystem::path find_fixtures_dir(const std::optional<std::filesystem::path>& explicit_dir) {
  if (explicit_dir) {
    if (!has_fixtures(*explicit_dir)) {
      throw UsageError("--fixtures-dir " + explicit_dir->string() +
                       " does not hold the calibration fixtures (minimal.cu, warp_prelude.cuh, family_kernel.cu.in)");
    }
    return *explicit_dir;
  }
  std::vector<std::filesystem::path> candidates;
  std::error_code error;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) candidates.push_back(exe.parent_path().parent_path() / "share" / "warp-compile-probe" / "cuda_fixtures");
  if (*WCP_CUDA_FIXTURES_SOURCE_DIR != '\0') candidates.emplace_back(WCP_CUDA_FIXTURES_SOURCE_DIR);
  std::vector<std::string> tried;
  for (const auto& candidate : candidates) {
    if (has_fixtures(candidate)) return candidate;
    tried.push_back(candidate.string());
  }
  throw UsageError(fmt::format("cannot find the calibration fixtures (looked in {}); pass --fixtures-dir DIR",
                               fmt::join(tried, ", ")));
}

FixtureTexts load_fixture_texts(const std::filesystem::path& dir) {
  FixtureTexts texts;
  texts.minimal = read_text(dir / "minimal.cu");
  texts.warp_prelude = read_text(dir / "warp_prelude.cuh");
  texts.family_kernel = read_text(dir / "family_kernel.cu.in");
  if (texts.family_kernel.find("@INDEX@") == std::string::npos) {
    throw UsageError((dir / "family_kernel.cu.in").string() +
                     " has no @INDEX@ placeholder, so its kernels would collide when repeated");
  }
  return texts;
}

std::string family_module_source(const FixtureTexts& texts, int kernels) {
  std::string source = texts.warp_prelude;
  for (int index = 0; index < kernels; ++index) {
    source += replace_all(texts.family_kernel, "@INDEX@", std::to_string(index));
  }
  return source;
}

std::vector<FixtureSource> calibration_fixtures(const FixtureTexts& texts) {
  std::vector<FixtureSource> fixtures;
  fixtures.push_back({"minimal", 1, false, texts.minimal});
  // The prelude comes first byte for byte, as in a generated module, so the precompiled
  // header NVRTC builds for one Warp-shaped fixture applies to all of them.
  fixtures.push_back({"warp_module", 1, true, texts.warp_prelude + texts.minimal});
  for (int kernels : kFamilyKernelCounts) {
    fixtures.push_back({"family_k" + std::to_string(kernels), kernels, true, family_module_source(texts, kernels)});
  }
  return fixtures;
}

}  // namespace wcp::calibrate
