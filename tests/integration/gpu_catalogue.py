"""The fixture catalogue on a CUDA device (CTest label `gpu`, test gpu/catalogue).

Measures every catalogued fixture whose `devices` list "cuda" (fixtures/README.md), app and
twin, with the real CLI on WCP_FIXTURE_DEVICE (cuda:0 unless CTest's resource allocation
names another GPU) and checks the CUDA expectations (`expect_cuda` over `expect`). Fixtures
that do not run on CUDA are reported as skipped subtests.

Run as a script (`python gpu_catalogue.py`), not through the `test_*.py` glob of the
`integration` label: without CUDA hardware (tests/cuda_device.py: no /dev/nvidiaN, nvidia-smi
lists no GPU) it prints `no CUDA device: ...` and exits 77, which tests/CMakeLists.txt maps to
Skipped (SKIP_RETURN_CODE), never Passed. CUDA hardware on which Warp does not initialise (or
reports no CUDA device) is a failure, exit 1. The catalogue's findings on CUDA are asserted by
gpu/findings (ci/gpu/checks/fixture_findings.py); this test only requires that every fixture
that runs on CUDA has them.
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/cuda_device.py
import cuda_device  # noqa: E402


def device_from_environment():
    # `ctest --resource-spec-file` hands each test its GPU as CTEST_RESOURCE_GROUP_0_GPUS=id:N,slots:1
    allocation = os.environ.get("CTEST_RESOURCE_GROUP_0_GPUS", "")
    for field in allocation.split(","):
        if field.startswith("id:"):
            return f"cuda:{field[3:]}"
    return os.environ.get("WCP_FIXTURE_DEVICE", "cuda:0")


DEVICE = device_from_environment()
os.environ["WCP_FIXTURE_DEVICE"] = DEVICE  # the CLI and the apps it runs inherit it

from probe_testlib import (PYTHON, assert_identities_match, catalog, compiled_events, expectations,  # noqa: E402
                           fixture, launch_runs, measure, skip_other_device_fixtures)


class GpuCatalogue(unittest.TestCase):
    """Every fixture that lists "cuda", app and twin: builds, hashes, warm pass, launches and
    LTO artifacts as catalogued for CUDA."""

    @classmethod
    def setUpClass(cls):
        cls.results = {}
        for entry in catalog(DEVICE):
            for role in ("app", "fixed"):
                if not entry.get(role):
                    continue
                result, report = measure([PYTHON, fixture(entry[role])])
                cls.results[(entry["name"], role)] = (expectations(entry, role, DEVICE), result, report)

    def test_fixtures_for_other_devices_are_skipped_here(self):
        skip_other_device_fixtures(self, DEVICE)

    def test_every_cuda_fixture_has_findings_expectations(self):
        for key, (expect, _, _) in self.results.items():
            with self.subTest(fixture=key):
                self.assertIn("findings", expect or {}, "no expect_cuda findings in catalog.json")

    def test_every_run_measured(self):
        for key, (expect, result, report) in self.results.items():
            with self.subTest(fixture=key):
                self.assertIsNotNone(expect, "no CUDA expectations in catalog.json")
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertIsNotNone(report)
                self.assertEqual(report["failed_samples"], 0)
                self.assertTrue(report["instrumentation"]["attached"])

    def test_identities_and_hashes_match_the_catalog(self):
        for key, (expect, _, report) in self.results.items():
            with self.subTest(fixture=key):
                assert_identities_match(self, report, expect)

    def test_warm_pass(self):
        for key, (expect, _, report) in self.results.items():
            with self.subTest(fixture=key):
                self.assertEqual(len(compiled_events(report, "warm")), expect["warm_compiles"])

    def test_launches_on_the_device(self):
        for key, (expect, _, report) in self.results.items():
            with self.subTest(fixture=key):
                runs = launch_runs(report)
                self.assertEqual(sum(run["count"] for run in runs), expect["launches"])
                for run in runs:
                    self.assertTrue(run["device"].startswith("cuda"), run)

    def test_lto_artifacts(self):
        for key, (expect, _, report) in self.results.items():
            if "lto" not in expect:
                continue
            with self.subTest(fixture=key):
                if expect["lto"]:
                    self.assertGreater(report["lto_artifacts"], 0)
                else:
                    self.assertEqual(report["lto_artifacts"], 0)

    def test_fixed_twins_launch_the_same_topology(self):
        def topology(report):
            return [(r["dim"], r["device"], r["dtypes"], r["block_dim"], r["adjoint"], r["count"])
                    for r in launch_runs(report)]
        for entry in catalog(DEVICE):
            if not entry.get("fixed"):
                continue
            with self.subTest(fixture=entry["name"]):
                self.assertEqual(topology(self.results[(entry["name"], "app")][2]),
                                 topology(self.results[(entry["name"], "fixed")][2]))


if __name__ == "__main__":
    state, why, _ = cuda_device.status(PYTHON)
    if state == "absent":
        # No GPU is a reason to skip; a Warp that WCP_PYTHON cannot import is not: CMake was told
        # that interpreter has Warp, so that is a failure even here.
        warp = cuda_device.warp_cuda(PYTHON)
        if "error" in warp:
            print(f"gpu/catalogue FAILED: {warp['error']}; WCP_PYTHON is the interpreter CMake expects to have Warp",
                  flush=True)
            sys.exit(1)
        print(f"{why}; gpu/catalogue skipped", flush=True)
        sys.exit(cuda_device.SKIP)
    if state == "broken":
        print(f"gpu/catalogue FAILED: {why}", flush=True)
        sys.exit(1)
    print(f"gpu/catalogue on {DEVICE} ({why})", flush=True)
    unittest.main(verbosity=2)
