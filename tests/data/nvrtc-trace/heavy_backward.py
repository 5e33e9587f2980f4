"""How the heavy_backward traces here were recorded: fixtures/cuda_heavy_backward/app.py's module
(kernels `heavy` and `light`, backward on) compiled for sm_86 with NVRTC's time trace, as cubin,
or as PTX with a second argument. Warp 1.19.0, NVRTC 13.4, the project's 2-core machine.

    python tests/data/nvrtc-trace/heavy_backward.py OUT_DIR [ptx]
"""
import os
import runpy
import sys

import warp as wp

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "..", "fixtures", "cuda_heavy_backward", "app.py")

wp.config.quiet = True
runpy.run_path(FIXTURE, run_name="__main__")  # defines the kernels (and runs the fixture once, on the CPU)
module = wp.get_module("__main__")
module.options["compile_time_trace"] = True
print(wp.compile_aot_module(module, arch=86, module_dir=sys.argv[1], use_ptx=len(sys.argv) > 2))
