"""The CUDA build measured without a GPU (`measure --cuda-arch`, issue 64), on real Warp with the
NVRTC it ships: each loaded module identity compiled for sm_86 after the program's work, its
CPU time, NVRTC's phases, output bytes and per-kernel forward and backward times; the ranking on
the screen; the unused-backward finding's measured CUDA cost; the program's output unchanged;
and the identities equal to what Warp loaded on a real GPU (tests/data/cuda-recorded, the
fixtures' files unchanged since); a budget below the measured CUDA time fails naming the module
and kernel. About 70 s on 2 cores."""

import json
import os
import tempfile
import unittest

from probe_testlib import FIXTURES, PYTHON, SOURCE_DIR, diagnose, measure, run_cli

HEAVY = os.path.join(FIXTURES, "cuda_heavy_backward", "app.py")
RECORDED = os.path.join(SOURCE_DIR, "tests", "data", "cuda-recorded", "probe")


def kernels_of(module):
    return {kernel["kernel"]: kernel for kernel in module["kernels"]}


class HeavyBackward(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.result, cls.report = measure([PYTHON, HEAVY], samples=2, extra_args=("--cuda-arch", "sm_86",
                                                                                  "--check-output"))

    def test_each_loaded_identity_has_its_cuda_cost_phases_and_kernels(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        report = self.report
        self.assertEqual(report["schema_version"], 16)
        build = report["cuda_build"]
        self.assertEqual(build["archs"], [86])
        self.assertEqual(build["unavailable"], "")
        (module,) = build["modules"]
        self.assertEqual((module["module"], module["arch"], module["block_dim"]), ("__main__", 86, 256))
        self.assertRegex(module["hash"], "^[0-9a-f]{7}$")
        self.assertIn(module["output_kind"], ("cubin", "ptx"))
        self.assertGreater(module["output_bytes"], 0)
        self.assertGreater(module["cpu_ms"], 0)
        phases = module["phases"]
        for name in ("front_end_ms", "headers_ms", "optimizer_ms", "codegen_ms", "total_ms"):
            self.assertGreater(phases[name], 0, name)
        self.assertLess(phases["headers_ms"], phases["front_end_ms"])
        kernels = kernels_of(module)
        self.assertEqual(set(kernels), {"heavy", "light"})
        heavy = kernels["heavy"]
        self.assertEqual(module["kernels"][0]["kernel"], "heavy", "costliest first")
        self.assertGreater(heavy["backward_optimizer_ms"], heavy["forward_optimizer_ms"])
        for phase, field in (("optimizer_ms", "optimizer_ms"), ("codegen_ms", "codegen_ms")):
            summed = sum((kernel[f"forward_{field}"] or 0) + (kernel[f"backward_{field}"] or 0)
                         for kernel in module["kernels"])
            self.assertLessEqual(summed, phases[phase] + 1e-6, phase)
        # Its noise, over both samples, and each sample's build window left out of its cold wall.
        summary = report["cuda_compile_cpu_ms"]["86"]
        self.assertEqual(summary["n"], 2)
        for sample in report["sample_results"]:
            self.assertGreater(sample["cuda_compile_cpu_ms"]["86"], 0)
            self.assertGreater(sample["cuda_build_wall_ms"], 0)
            self.assertGreater(sample["cold_wall_ms"], 0)
        # Warm runs build nothing for CUDA: their walls are the program's.
        self.assertLess(report["warm_wall_ms_median"], report["cold_wall_ms_median"])

    def test_the_program_runs_as_without_the_probe(self):
        # Cold and warm, without the probe and under it with the CUDA builds: the same output and status.
        check = self.report["output_check"]
        self.assertTrue(check["same"], check)
        self.assertEqual([item["pass"] for item in check["passes"]], ["cold", "warm"])

    def test_the_screen_ranks_kernels_and_modules(self):
        screen = self.result.stdout
        self.assertIn("sm_86", screen)
        self.assertRegex(screen, r"Costliest kernels: heavy \(__main__\) backward \d+ ms \+ forward \d+ ms")
        self.assertRegex(screen, r"Warp's headers: \d+ ms per module × 1 module")

    def test_unused_backward_carries_its_measured_cuda_cost(self):
        diagnosis = diagnose(self.report)
        (finding,) = [item for item in diagnosis["findings"] if item["id"] == "CS-10"]
        module = self.report["cuda_build"]["modules"][0]
        backward = sum(kernel["backward_ms"] for kernel in module["kernels"] if kernel["backward_ms"] is not None)
        self.assertAlmostEqual(finding["cost_ms"], backward, delta=0.5)
        self.assertFalse(finding["cost_is_estimate"])
        self.assertIn("CUDA build for sm_86", finding["cost_basis"])
        self.assertTrue(any("heavy" in line and "backward code" in line for line in finding["evidence"]), finding)


class Budget(unittest.TestCase):
    def test_a_budget_below_the_measured_cuda_time_fails_naming_the_module_and_kernel(self):
        with tempfile.TemporaryDirectory() as scratch:
            budgets = os.path.join(scratch, "budgets.yaml")
            with open(budgets, "w", encoding="utf-8") as handle:
                handle.write("version: 1\ncommands:\n  - name: heavy\n"
                             f"    command: [{json.dumps(PYTHON)}, {json.dumps(HEAVY)}]\n"
                             "    device: cpu\n    samples: 1\n    cuda_arch: sm_86\n"
                             "    max_kernel_cuda_compile_ms: 1000\n    max_cuda_compile_seconds: 600\n")
            out = os.path.join(scratch, "check.json")
            result = run_cli(["check", budgets, "--json", out])
            self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
            self.assertRegex(result.stdout, r"FAIL +max_kernel_cuda_compile_ms")
            self.assertRegex(result.stdout, r"kernel heavy \(sm_86, hash [0-9a-f]{7}\): backward \d+ ms \+ forward")
            self.assertRegex(result.stdout, r"PASS +max_cuda_compile_seconds")


class Identities(unittest.TestCase):
    def test_the_identities_compiled_are_those_warp_loaded_on_a_gpu(self):
        # Recorded on an H200 with Warp 1.19.0; the module files are unchanged since, so each CUDA
        # identity (block_dim 256) must be the one Warp loaded there.
        with tempfile.TemporaryDirectory() as scratch:
            trace_path = os.path.join(scratch, "trace.json")
            result, report = measure([PYTHON, os.path.join(FIXTURES, "granular_modules", "app.py")],
                                     extra_args=("--cuda-arch", "90", "--trace", trace_path))
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(trace_path, encoding="utf-8") as handle:
                trace = json.load(handle)
        # `--trace` shows each exit-time build as a slice of its thread's track.
        events = trace["traceEvents"] if isinstance(trace, dict) else trace
        slices = sorted(event["name"] for event in events if event.get("cat") == "cuda_aot")
        self.assertEqual(slices, sorted(f"{m['module']} {m['hash']} sm_90" for m in report["cuda_build"]["modules"]))
        with open(os.path.join(RECORDED, "granular_modules_app.json"), encoding="utf-8") as handle:
            recorded = json.load(handle)
        on_gpu = {(event["name"], event["hash"]) for event in recorded["module_events"] if event["pass"] == "cold"}
        built = {(module["module"], module["hash"]) for module in report["cuda_build"]["modules"]}
        self.assertEqual(built, on_gpu)
        self.assertEqual(len(built), 4)
        # The CPU identities (block_dim 1 on CPU) are another thing, and stay as they were.
        on_cpu = {(event["name"], event["hash"]) for event in report["module_events"] if event["pass"] == "cold"}
        self.assertEqual({name for name, _ in on_cpu}, {name for name, _ in built})
        self.assertNotEqual(on_cpu, built)

    def test_an_arch_that_is_not_one_is_a_usage_error(self):
        result = run_cli(["measure", "--cuda-arch", "sm_eighty", "--", PYTHON, "-c", "pass"])
        self.assertEqual(result.returncode, 2)
        self.assertIn("--cuda-arch sm_eighty: not a CUDA architecture", result.stderr)
        self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)


if __name__ == "__main__":
    unittest.main()
