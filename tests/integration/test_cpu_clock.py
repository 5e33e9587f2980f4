"""The CPU clock of module work (issue 49) on real Warp: load beside the build doubles its wall,
and barely moves its CPU.

Two busy loops of the test's own (stopped when it ends, and bounded in time whatever happens)
share one CPU with the measured program: the program then gets about a third of that CPU, so
its builds' wall clock grows about threefold while the CPU seconds they use stay put. The test
asserts only ratios, with a wide margin: the wall must grow by at least 50 %, and the CPU clock
by under a third of what the wall grew. The exact figures belong to the bench
(tests/bench/gate_cost.py --load, docs/measurement.md#which-clock).
"""
import os
import subprocess
import sys
import unittest

from probe_testlib import FIXTURES, PYTHON, measure

APP = os.path.join(FIXTURES, "clean", "app.py")
# A loop that stops itself: if the test dies before it stops the loops, they end anyway.
BUSY_LOOP = "import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end:\n    pass\n"


def one_cpu():
    allowed = sorted(os.sched_getaffinity(0))
    return {allowed[0]}


def pin(cpus):
    return lambda: os.sched_setaffinity(0, cpus)


def _measure_pinned(cpus):
    old = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cpus)  # inherited by the CLI and the program it measures
    try:
        return measure([PYTHON, APP], samples=2, extra_args=["--timeout", "300"])
    finally:
        os.sched_setaffinity(0, old)


@unittest.skipUnless(hasattr(os, "sched_setaffinity"), "needs CPU affinity (Linux)")
class CpuClockUnderLoad(unittest.TestCase):
    def test_the_cpu_clock_moves_far_less_than_the_wall_under_two_busy_loops(self):
        cpus = one_cpu()
        quiet_result, quiet = _measure_pinned(cpus)
        self.assertEqual(quiet_result.returncode, 0, quiet_result.stderr)
        loops = [subprocess.Popen([sys.executable, "-c", BUSY_LOOP.format(seconds=240)], preexec_fn=pin(cpus))
                 for _ in range(2)]
        try:
            loaded_result, loaded = _measure_pinned(cpus)
        finally:
            for loop in loops:
                loop.kill()
                loop.wait()
        self.assertEqual(loaded_result.returncode, 0, loaded_result.stderr)
        for report in (quiet, loaded):
            self.assertIsNotNone(report["cold_module_cpu_ms_median"], report.get("module_cpu_unavailable"))
            self.assertGreater(report["cold_module_cpu_ms_median"], 0)
        wall_ratio = loaded["cold_module_ms_median"] / quiet["cold_module_ms_median"]
        cpu_ratio = loaded["cold_module_cpu_ms_median"] / quiet["cold_module_cpu_ms_median"]
        figures = f"wall ×{wall_ratio:.2f}, CPU ×{cpu_ratio:.2f}"
        print(f"\ncold module work on one CPU, quiet -> beside two busy loops: {figures}", file=sys.stderr)
        self.assertGreater(wall_ratio, 1.5, f"the loops did not load the build ({figures})")
        self.assertLess(abs(cpu_ratio - 1.0), (wall_ratio - 1.0) / 3.0, figures)


if __name__ == "__main__":
    unittest.main()
