#include "measure/build_environment.h"

#include <fmt/format.h>

#include <filesystem>

#include "io/cpu_info.h"
#include "io/file_digest.h"

namespace wcp::measure {
namespace {

// Warp ships its LLVM/Clang as bin/warp-clang.<ext> (1.0 to 1.19 alike). Its bytes identify the
// compiler's version and build; the size is cheap, the CRC settles two libraries of one size.
std::string cpu_compiler_of(const std::string& warp_dir) {
  if (warp_dir.empty()) return "";
  for (const char* name : {"warp-clang.so", "warp-clang.dll", "libwarp-clang.dylib"}) {
    const std::filesystem::path library = std::filesystem::path(warp_dir) / "bin" / name;
    std::error_code error;
    const auto size = std::filesystem::file_size(library, error);
    if (error) continue;
    const auto crc = file_crc64(library);
    if (!crc) return "";
    return fmt::format("{} {} bytes crc64 {}", name, size, *crc);
  }
  return "";
}

}  // namespace

BuildEnvironment build_environment_of(const Report& report) {
  BuildEnvironment environment;
  environment.warp_version = report.warp_version;
  environment.cpu_compiler = cpu_compiler_of(report.instrumentation.warp_dir);
  environment.cuda_toolkit = report.instrumentation.cuda_toolkit_version;
  const CpuInfo cpu = read_cpu_info();
  environment.cpu_model = cpu.model;
  if (!cpu.flags.empty()) {
    Crc64 crc;
    for (const auto& flag : cpu.flags) crc.feed(flag + " ");
    environment.cpu_features = crc.hex();
  }
  return environment;
}

BuildEnvironment BuildEnvironmentReader::read(const Report& report) {
  auto key =
      std::tuple{report.instrumentation.warp_dir, report.warp_version, report.instrumentation.cuda_toolkit_version};
  if (key_ != key) {
    environment_ = build_environment_of(report);
    key_ = std::move(key);
  }
  return environment_;
}

}  // namespace wcp::measure
