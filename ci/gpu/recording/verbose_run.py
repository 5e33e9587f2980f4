"""Runs a fixture as __main__ with Warp's verbose module timers on, as the recordings of
tests/data/cuda-recorded/bare were made: python verbose_run.py SCRIPT [ARGS...]

The script's folder goes first on sys.path, as `python SCRIPT` would put it (the first recording's
runner left it out, so the fixtures that import a sibling module were missing)."""
import os
import runpy
import sys
import time

t0 = time.perf_counter()
import warp as wp  # noqa: E402

wp.config.verbose = True
sys.argv = sys.argv[1:]
sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))
runpy.run_path(sys.argv[0], run_name="__main__")
print(f"WALL_IN_PROCESS {1e3 * (time.perf_counter() - t0):.1f} ms")
