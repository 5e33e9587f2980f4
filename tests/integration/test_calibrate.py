"""`calibrate` for real: NVRTC on this GPU-less machine (a CUDA toolkit's, or the nvidia-cuda-nvrtc
wheel in the venv of WCP_PYTHON), and Warp's CPU backend."""
import json
import os
import tempfile
import unittest

from probe_testlib import PYTHON, run_cli


def skip_without_nvrtc(test, result):
    """Skips `test`, with the CLI's own reason, when the CLI found no NVRTC; fails it instead
    where NVRTC is required (WCP_REQUIRE_NVRTC=1: a build ci/setup.sh configured, which
    installs NVRTC)."""
    if result.returncode != 2 or "cannot find NVRTC" not in result.stderr:
        return
    reason = result.stderr.strip().splitlines()[-1]
    if os.environ.get("WCP_REQUIRE_NVRTC", "") not in ("", "0"):
        test.fail(f"NVRTC is required here (WCP_REQUIRE_NVRTC) but: {reason}")
    test.skipTest(reason)


class Calibrate(unittest.TestCase):
    def test_nvrtc_and_warp_cpu_calibration(self):
        with tempfile.TemporaryDirectory() as work:
            out = os.path.join(work, "cal.json")
            # A relative interpreter path means "from here", as it would to a shell.
            relative_python = os.path.relpath(PYTHON, work)
            self.assertIn("/", relative_python)
            result = run_cli(["calibrate", "--samples", "2", "--python", relative_python, "--warp-cpu", "--json", out],
                             timeout=1200, cwd=work)
            skip_without_nvrtc(self, result)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(out, encoding="utf-8") as handle:
                calibration = json.load(handle)
            self.assertEqual((calibration["document"], calibration["version"]), ("calibration", 1))
            self.assertEqual(calibration["schema_version"], 1)
            cuda = calibration["cuda"]
            self.assertGreater(cuda["without_pch"]["fixed_ms"], 0.0)
            self.assertGreater(cuda["without_pch"]["per_kernel_ms"], 0.0)
            cpu = calibration["warp_cpu"]
            self.assertGreater(cpu["without_pch"]["fixed_ms"], 0.0)
            self.assertGreater(cpu["with_pch"]["per_kernel_ms"], 0.0)
            # The header is what use_precompiled_headers saves: every module without it pays more.
            self.assertGreater(cpu["without_pch"]["fixed_ms"], cpu["with_pch"]["fixed_ms"])
            self.assertGreater(cpu["pch_build_ms"], 0.0)
            # The references budgets fall back on and cross-check against, one per backend.
            for section in (cuda, cpu):
                self.assertGreater(section["reference"]["median_ms"], 0.0)
                self.assertEqual(len(section["reference"]["samples_ms"]), 2)
            self.assertIn("Warp CPU backend", result.stdout)

            # A budget in machine units reads this file and says so.
            budget = os.path.join(work, "budget.yaml")
            app = os.path.join(os.environ.get("WCP_SOURCE_DIR", ""), "fixtures", "clean", "app.py")
            with open(budget, "w", encoding="utf-8") as handle:
                handle.write(f"commands:\n  - name: clean\n    command: [{PYTHON!r}, {app!r}]\n    samples: 1\n"
                             "    cold_units: 1000\n")
            checked = run_cli(["check", budget, "--verbose", "--calibration", out, "--quiet"], timeout=600)
            self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)
            self.assertIn("cold_units", checked.stdout)
            self.assertIn(out, checked.stdout)

    def test_a_calibration_named_but_missing_is_a_configuration_error(self):
        with tempfile.TemporaryDirectory() as work:
            budget = os.path.join(work, "budget.yaml")
            with open(budget, "w", encoding="utf-8") as handle:
                handle.write("commands:\n  - name: x\n    command: [true]\n    cold_units: 5\n")
            result = run_cli(["check", budget, "--calibration", os.path.join(work, "missing.json")])
            self.assertEqual(result.returncode, 2)
            self.assertIn("calibrate --warp-cpu", result.stderr)

    def test_no_cuda_alone_is_a_usage_error(self):
        result = run_cli(["calibrate", "--no-cuda"])
        self.assertEqual(result.returncode, 2)
        self.assertIn("--warp-cpu", result.stderr)


if __name__ == "__main__":
    unittest.main()
