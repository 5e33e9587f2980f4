#include "calibrate/warp_cpu_app.h"

#include <fmt/format.h>

#include <fstream>

#include "errors.h"

namespace wcp::calibrate {
namespace {

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream file(path);
  file << text;
  if (!file) throw RunError("cannot write " + path.string());
}

}  // namespace

std::string warp_module_source(const std::string& name, int kernels) {
  std::string source = "import warp as wp\n\n";
  for (int k = 0; k < kernels; ++k) {
    source += fmt::format(
        "@wp.kernel\n"
        "def {0}_k{1}(a: wp.array(dtype=float), b: wp.array(dtype=float)):\n"
        "    i = wp.tid()\n"
        "    x = a[i] * {2}.0 + b[i]\n"
        "    for _ in range(4):\n"
        "        x = wp.sin(x) * {3}.5 + wp.cos(x)\n"
        "    a[i] = x\n\n",
        name, k, k + 2, k + 1);
  }
  source += "KERNELS = [";
  for (int k = 0; k < kernels; ++k) source += fmt::format("{}_k{}, ", name, k);
  source += "]\n";
  return source;
}

void write_warp_cpu_driver(const std::filesystem::path& directory, const std::vector<GeneratedModule>& modules) {
  std::string imports;
  std::string names;
  for (const auto& module : modules) {
    write_file(directory / (module.name + ".py"), warp_module_source(module.name, module.kernels));
    imports += "import " + module.name + "\n";
    names += (names.empty() ? "" : ", ") + module.name;
  }
  write_file(directory / "driver.py",
             "import sys\n"
             "import warp as wp\n\n"
             "wp.config.use_precompiled_headers = sys.argv[1] == \"1\"\n" +
                 imports +
                 "\n"
                 "a = wp.ones(64, dtype=float, device=\"cpu\")\n"
                 "b = wp.ones(64, dtype=float, device=\"cpu\")\n"
                 "for module in [" + names + "]:\n"
                 "    for kernel in module.KERNELS:\n"
                 "        wp.launch(kernel, dim=64, inputs=[a, b], device=\"cpu\")\n"
                 "wp.synchronize()\n");
}

}  // namespace wcp::calibrate
