#pragma once
// A machine's compile-cost calibration: what one module costs before its first kernel
// (fixed) and what each kernel adds (per kernel), measured on this machine. Other stages
// read it to turn module counts into milliseconds: merging k modules into one saves about
// (k − 1) × fixed, and budgets divide cold module work by fixed to get machine-independent
// units. Stored as JSON, one file per host, under the user's cache directory.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "calibrate/machine_info.h"
#include "codec/document_kind.h"
#include "model/reference.h"
#include "stats/summary.h"

namespace wcp::calibrate {

// The major version of the file format; a reader refuses any other. One home: the document table.
inline constexpr int kCalibrationSchemaVersion = document_version(DocumentKind::calibration);

inline constexpr double kNoisyRelativeMad = 0.03;

// cost = fixed + kernels × per_kernel, fitted over the kernel-count family. The MADs are the
// spread of that fit across sample rounds, so they say how far to trust the two numbers.
struct CostModel {
  double fixed_ms = 0.0;
  double fixed_mad_ms = 0.0;
  double per_kernel_ms = 0.0;
  double per_kernel_mad_ms = 0.0;
  double r_squared = 0.0;
};

struct FixtureTiming {
  std::string name;  // "minimal", "warp_module", "family_k4", ...
  int kernels = 1;
  bool warp_header = false;
  bool precompiled_header = false;
  bool pch_reused = false;  // every sample found the precompiled header (meaningful with precompiled_header)
  double median_ms = 0.0;
  double mad_ms = 0.0;
  // Process CPU time during the compile. Far below median_ms means the compile waited for a
  // CPU: the machine was busy and wall times are inflated.
  double cpu_median_ms = 0.0;
  std::optional<double> front_end_ms;  // medians of NVRTC's own phase timing, when it offers one
  std::optional<double> back_end_ms;
  std::vector<double> samples_ms;
};

// The machine reference (model/reference.h) as `calibrate` measured it: what budgets fall back
// to when a run took no reference of its own, and what a run's reference is checked against.
struct StoredReference {
  std::string name;  // MachineReference::name; only a reference of the same name is comparable
  std::string description;
  Summary cost_ms;
};

struct CudaCalibration {
  std::string nvrtc_version;  // "13.0"
  std::string nvrtc_library;  // the path that was loaded
  std::string arch;           // "sm_90"
  std::string output;         // "cubin" or "ptx"
  int samples = 0;
  bool no_cache = false;  // whether NVRTC's in-process cache could be switched off
  bool phase_timing = false;
  bool precompiled_headers = false;  // whether this NVRTC supports automatic PCH
  CostModel without_pch;
  std::optional<CostModel> with_pch;
  std::optional<double> pch_build_ms;  // the compile that created the precompiled header
  double header_share_ms = 0.0;        // warp_module − minimal: what Warp's runtime header costs
  // The largest MAD / median over the fixtures; above kNoisyRelativeMad the machine was too
  // busy for the numbers to be trusted to better than that.
  double max_relative_mad = 0.0;
  std::vector<FixtureTiming> fixtures;
  std::optional<StoredReference> reference;  // the NVRTC reference
};

// The same model for Warp's CPU backend (clang), filled by `calibrate --warp-cpu`.
struct WarpCpuCalibration {
  CostModel without_pch;              // use_precompiled_headers=False
  std::optional<CostModel> with_pch;  // use_precompiled_headers=True
  std::optional<double> pch_build_ms;
  std::optional<StoredReference> reference;  // the Warp CPU reference
};

struct Calibration {
  int schema_version = kCalibrationSchemaVersion;
  std::string tool_version;
  std::string created_at;  // UTC, ISO 8601
  MachineInfo machine;
  double wall_ms = 0.0;                // how long the calibration itself took
  std::optional<double> load_average;  // 1-minute load average when it started
  CudaCalibration cuda;
  std::optional<WarpCpuCalibration> warp_cpu;

  // The CUDA fixed per-module cost. Warp uses automatic PCH by default where NVRTC has it, and
  // then every module after the first pays only the with-PCH fixed cost.
  double cuda_fixed_ms(bool precompiled_headers) const;
  // The stored reference of that kind; nullptr when this calibration has none.
  const StoredReference* reference_for(ReferenceKind kind) const;
};

void to_json(nlohmann::json& json, const Calibration& calibration);
void from_json(const nlohmann::json& json, Calibration& calibration);  // no schema check

// $XDG_CACHE_HOME/warp-compile-probe/calibration-<hostname>.json, else ~/.cache/... .
std::filesystem::path default_calibration_path();

// nullopt when the file does not exist. Throws UsageError when it is unreadable, is not a
// calibration, or has an unsupported schema version.
std::optional<Calibration> load_calibration(const std::filesystem::path& path);
std::optional<Calibration> load_default_calibration();

// Writes through a temporary file in the same directory and renames it into place, so a
// reader never sees half a file. Creates missing parent directories. Throws RunError.
void write_calibration(const Calibration& calibration, const std::filesystem::path& path);

std::string utc_timestamp_now();

}  // namespace wcp::calibrate
