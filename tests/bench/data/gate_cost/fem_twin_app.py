"""A/B twin of Warp's fem diffusion example for tests/bench/gate_cost.py (issue 49).

Both twins run `warp.examples.fem.example_diffusion` unchanged (on the CPU, headless, quiet, at
resolution 10), as `python -m` would. The B twin (WCP_GATE_TWIN=b) first compiles one more
module of its own, fem_twin_extra.py, whose kernels are never launched: the same launches, more
compile work. STEPS in fem_twin_extra.py sizes it; aim for 10-15 % (the bench prints the ratio it
measured; not yet calibrated on a host that holds its speed). A twin of a real program shows
what a fixture cannot: the gate judged against the noise of a program of many modules.
"""

import os
import runpy
import sys

import warp as wp

HERE = os.path.dirname(os.path.abspath(__file__))

if os.environ.get("WCP_GATE_TWIN", "a") == "b":
    sys.path.insert(0, HERE)
    import fem_twin_extra

    wp.load_module(fem_twin_extra, device="cpu")  # compiled, never launched
    sys.path.remove(HERE)

sys.argv = ["example_diffusion", "--device", "cpu", "--headless", "--quiet", "--resolution", "10"]
runpy.run_module("warp.examples.fem.example_diffusion", run_name="__main__", alter_sys=True)
