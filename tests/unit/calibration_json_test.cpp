#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "calibrate/calibration.h"
#include "errors.h"
#include "run/scratch_dir.h"

namespace wcp::calibrate {
namespace {

Calibration sample_calibration() {
  Calibration calibration;
  calibration.tool_version = "0.1.0";
  calibration.created_at = "2025-01-02T03:04:05Z";
  calibration.machine = {"builder-7", "AMD EPYC 9654 96-Core Processor", 2};
  calibration.wall_ms = 31234.5;
  auto& cuda = calibration.cuda;
  cuda.nvrtc_version = "13.0";
  cuda.nvrtc_library = "/usr/local/cuda/lib64/libnvrtc.so";
  cuda.arch = "sm_90";
  cuda.output = "cubin";
  cuda.samples = 5;
  cuda.no_cache = true;
  cuda.phase_timing = true;
  cuda.precompiled_headers = true;
  cuda.without_pch = {262.5, 3.25, 41.0, 0.5, 0.998};
  cuda.with_pch = CostModel{107.0, 2.0, 40.5, 0.75, 0.997};
  cuda.pch_build_ms = 460.25;
  cuda.header_share_ms = 221.0;
  FixtureTiming minimal;
  minimal.name = "minimal";
  minimal.median_ms = 44.0;
  minimal.mad_ms = 0.5;
  minimal.front_end_ms = 16.0;
  minimal.back_end_ms = 20.0;
  minimal.samples_ms = {44.0, 43.5, 44.5, 45.0, 43.0};
  FixtureTiming family;
  family.name = "family_k4";
  family.kernels = 4;
  family.warp_header = true;
  family.precompiled_header = true;
  family.pch_reused = true;
  family.median_ms = 270.0;
  family.samples_ms = {270.0};
  cuda.fixtures = {minimal, family};
  return calibration;
}

TEST(CalibrationJson, RoundTripsThroughAFile) {
  const ScratchDir dir;
  const auto path = dir.path() / "nested" / "calibration-test.json";
  auto original = sample_calibration();
  original.warp_cpu =
      WarpCpuCalibration{{900.0, 1.0, 120.0, 2.0, 0.99}, CostModel{300.0, 1.0, 118.0, 2.0, 0.98}, 2500.0, std::nullopt};
  write_calibration(original, path);

  const auto loaded = load_calibration(path);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(loaded->schema_version, 1);
  EXPECT_EQ(loaded->machine.hostname, "builder-7");
  EXPECT_EQ(loaded->machine.cpu_cores, 2);
  EXPECT_DOUBLE_EQ(loaded->wall_ms, 31234.5);
  EXPECT_EQ(loaded->cuda.arch, "sm_90");
  EXPECT_EQ(loaded->cuda.nvrtc_version, "13.0");
  EXPECT_DOUBLE_EQ(loaded->cuda.without_pch.fixed_ms, 262.5);
  EXPECT_DOUBLE_EQ(loaded->cuda.without_pch.fixed_mad_ms, 3.25);
  EXPECT_DOUBLE_EQ(loaded->cuda.without_pch.per_kernel_ms, 41.0);
  EXPECT_DOUBLE_EQ(loaded->cuda.without_pch.r_squared, 0.998);
  ASSERT_TRUE(loaded->cuda.with_pch.has_value());
  EXPECT_DOUBLE_EQ(loaded->cuda.with_pch->fixed_ms, 107.0);
  EXPECT_DOUBLE_EQ(*loaded->cuda.pch_build_ms, 460.25);
  EXPECT_DOUBLE_EQ(loaded->cuda.header_share_ms, 221.0);
  ASSERT_EQ(loaded->cuda.fixtures.size(), 2u);
  EXPECT_EQ(loaded->cuda.fixtures[0].samples_ms, original.cuda.fixtures[0].samples_ms);
  EXPECT_DOUBLE_EQ(*loaded->cuda.fixtures[0].front_end_ms, 16.0);
  EXPECT_FALSE(loaded->cuda.fixtures[1].front_end_ms.has_value());
  EXPECT_TRUE(loaded->cuda.fixtures[1].pch_reused);
  ASSERT_TRUE(loaded->warp_cpu.has_value());
  EXPECT_DOUBLE_EQ(loaded->warp_cpu->without_pch.fixed_ms, 900.0);
  EXPECT_DOUBLE_EQ(loaded->warp_cpu->with_pch->per_kernel_ms, 118.0);
  EXPECT_DOUBLE_EQ(*loaded->warp_cpu->pch_build_ms, 2500.0);
  EXPECT_DOUBLE_EQ(loaded->cuda_fixed_ms(true), 107.0);
  EXPECT_DOUBLE_EQ(loaded->cuda_fixed_ms(false), 262.5);
  // Nothing but the target is left behind by the atomic write.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(path.parent_path()), {}), 1);
}

TEST(CalibrationJson, OptionalSectionsStayAbsent) {
  auto original = sample_calibration();
  original.cuda.with_pch.reset();
  original.cuda.pch_build_ms.reset();
  const nlohmann::json json = original;
  EXPECT_FALSE(json.contains("warp_cpu"));
  EXPECT_FALSE(json.at("cuda").contains("with_pch"));
  EXPECT_EQ(json.at("schema_version"), 1);
  const auto back = json.get<Calibration>();
  EXPECT_FALSE(back.warp_cpu.has_value());
  EXPECT_FALSE(back.cuda.with_pch.has_value());
  EXPECT_DOUBLE_EQ(back.cuda_fixed_ms(true), 262.5);  // falls back to the no-PCH cost
}

TEST(CalibrationJson, StoredReferencesRoundTripPerBackend) {
  auto original = sample_calibration();
  original.cuda.reference =
      StoredReference{"nvrtc/sm_90/pch/3x4-kernel-module/v1", "NVRTC", *summarize({300.0, 310.0, 290.0})};
  original.warp_cpu =
      WarpCpuCalibration{{900.0, 1.0, 120.0, 2.0, 0.99},
                         std::nullopt,
                         std::nullopt,
                         StoredReference{"warp_cpu/pch/4x2-kernel-module/v1", "CPU", *summarize({500.0, 520.0})}};
  const Calibration back = nlohmann::json(original).get<Calibration>();
  ASSERT_NE(back.reference_for(ReferenceKind::nvrtc), nullptr);
  EXPECT_EQ(back.reference_for(ReferenceKind::nvrtc)->name, "nvrtc/sm_90/pch/3x4-kernel-module/v1");
  EXPECT_DOUBLE_EQ(back.reference_for(ReferenceKind::nvrtc)->cost_ms.median, 300.0);
  EXPECT_DOUBLE_EQ(*back.reference_for(ReferenceKind::nvrtc)->cost_ms.mad, 10.0);
  ASSERT_NE(back.reference_for(ReferenceKind::warp_cpu), nullptr);
  EXPECT_DOUBLE_EQ(back.reference_for(ReferenceKind::warp_cpu)->cost_ms.median, 510.0);
  // A calibration from before references existed has none: nothing to fall back on, not 0.
  EXPECT_EQ(sample_calibration().reference_for(ReferenceKind::nvrtc), nullptr);
  EXPECT_EQ(nlohmann::json(sample_calibration()).get<Calibration>().reference_for(ReferenceKind::warp_cpu), nullptr);
}

TEST(CalibrationJson, MissingFileIsNotAnError) {
  const ScratchDir dir;
  EXPECT_FALSE(load_calibration(dir.path() / "absent.json").has_value());
}

TEST(CalibrationJson, OtherSchemaVersionIsRefused) {
  const ScratchDir dir;
  const auto path = dir.path() / "future.json";
  nlohmann::json json = sample_calibration();
  json["schema_version"] = 2;
  std::ofstream(path) << json.dump();
  try {
    load_calibration(path);
    FAIL() << "schema 2 was accepted";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("unsupported schema version 2"), std::string::npos) << error.what();
  }
}

TEST(CalibrationJson, MinorRevisionOfSameMajorIsRead) {
  const ScratchDir dir;
  const auto path = dir.path() / "minor.json";
  nlohmann::json json = sample_calibration();
  json["schema_version"] = "1.3";
  std::ofstream(path) << json.dump();
  EXPECT_TRUE(load_calibration(path).has_value());
}

TEST(CalibrationJson, GarbageIsAClearError) {
  const ScratchDir dir;
  const auto path = dir.path() / "garbage.json";
  std::ofstream(path) << "{ not json";
  EXPECT_THROW(load_calibration(path), UsageError);
  std::ofstream(path, std::ios::trunc) << R"({"schema_version": 1, "machine": {}})";
  EXPECT_THROW(load_calibration(path), UsageError);  // no cuda section
}

TEST(CalibrationJson, DefaultPathHonoursXdgCacheHome) {
  const char* previous = std::getenv("XDG_CACHE_HOME");
  const std::string saved = previous != nullptr ? previous : "";
  ::setenv("XDG_CACHE_HOME", "/some/cache", 1);
  const auto path = default_calibration_path();
  if (previous != nullptr) {
    ::setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  } else {
    ::unsetenv("XDG_CACHE_HOME");
  }
  EXPECT_EQ(path.parent_path(), std::filesystem::path("/some/cache/warp-compile-probe"));
  EXPECT_EQ(path.filename().string().rfind("calibration-", 0), 0u);
  EXPECT_EQ(path.extension(), ".json");
}

}  // namespace
}  // namespace wcp::calibrate
