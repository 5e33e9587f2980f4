"""`measure` on real Warp (CPU): fixtures, isolation, timeouts, bad input."""
import json
import os
import tempfile
import time
import unittest

from probe_testlib import (PYTHON, assert_identities_match, compiled_events, catalog, fixture, launch_runs, measure,
                           pid_alive, run_cli, skip_other_device_fixtures, tree_digest)


class FixtureMeasurements(unittest.TestCase):
    """Every fixture and twin: identities, hashes, warm compiles and launches as catalogued."""

    @classmethod
    def setUpClass(cls):
        cls.scratch_parent = tempfile.mkdtemp(prefix="wcp-it-tmp-")
        cls.fixtures_before = tree_digest(os.path.dirname(fixture("catalog.json")))
        cls.results = {}
        for entry in catalog():
            for role in ("app", "fixed"):
                if not entry.get(role):
                    continue
                result, report = measure([PYTHON, fixture(entry[role])], env={"TMPDIR": cls.scratch_parent})
                cls.results[(entry["name"], role)] = (entry["expect"][role], result, report)

    @classmethod
    def tearDownClass(cls):
        os.rmdir(cls.scratch_parent)  # fails loudly if anything was left behind

    def test_fixtures_for_other_devices_are_skipped_here(self):
        # cuda-only fixtures (catalog.json `devices`): reported skipped, never dropped or passed
        skip_other_device_fixtures(self)

    def test_every_run_measured(self):
        for key, (_, result, report) in self.results.items():
            with self.subTest(fixture=key):
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertIsNotNone(report)
                self.assertEqual(report["failed_samples"], 0)
                self.assertTrue(report["instrumentation"]["attached"])
                self.assertTrue(report["warp_version"].startswith("1."))
                self.assertEqual(len(report["cold_module_ms_values"]), 1)
                self.assertGreater(report["cold_module_ms_median"], 0.0)

    def test_identities_and_hashes_match_the_catalog(self):
        for key, (expect, _, report) in self.results.items():
            with self.subTest(fixture=key):
                self.assertEqual(report["compiled_events"], expect["cold_compiled_modules"])
                assert_identities_match(self, report, expect)

    def test_warm_pass(self):
        for key, (expect, _, report) in self.results.items():
            with self.subTest(fixture=key):
                self.assertEqual(len(compiled_events(report, "warm")), expect["warm_compiles"])
                self.assertEqual(report["sample_results"][0]["warm_compiled_events"], expect["warm_compiles"])
                self.assertIsNotNone(report["sample_results"][0]["warm_wall_ms"])

    def test_launches_recorded(self):
        for key, (expect, _, report) in self.results.items():
            with self.subTest(fixture=key):
                self.assertEqual(sum(run["count"] for run in launch_runs(report)), expect["launches"])
                self.assertEqual(report["launch_count"], expect["launches"])
                for run in launch_runs(report):
                    self.assertEqual(run["device"], "cpu")
                    self.assertTrue(run["kernel"])

    def test_fixed_twins_launch_the_same_topology(self):
        for entry in catalog():
            if not entry.get("fixed"):
                continue
            with self.subTest(fixture=entry["name"]):
                def topology(report):
                    return [(r["dim"], r["device"], r["dtypes"], r["block_dim"], r["adjoint"], r["count"])
                            for r in launch_runs(report)]
                self.assertEqual(topology(self.results[(entry["name"], "app")][2]),
                                 topology(self.results[(entry["name"], "fixed")][2]))

    def test_nothing_left_behind_and_fixtures_untouched(self):
        self.assertEqual(os.listdir(self.scratch_parent), [])
        self.assertEqual(tree_digest(os.path.dirname(fixture("catalog.json"))), self.fixtures_before)

    def test_load_details_name_user_code(self):
        _, _, report = self.results[("late_kernel", "app")]
        cold = compiled_events(report, "cold")
        second = cold[1]["detail"]
        self.assertTrue(second["trigger"]["file"].endswith(os.path.join("late_kernel", "app.py")))
        self.assertGreater(second["trigger"]["line"], 0)
        keys = {kernel["key"] for kernel in second["kernels"]}
        self.assertEqual(len(keys), 2)
        self.assertTrue(cold[0]["built_pch"])

    def test_cache_destroyed_app_is_noted(self):
        _, _, report = self.results[("cache_destroyed", "app")]
        self.assertIsNotNone(report["instrumentation"]["app_kernel_cache_dir"])
        self.assertTrue(any("kernel_cache_dir" in note for note in report["notes"]))


class Isolation(unittest.TestCase):
    def test_home_cache_untouched_and_python_path_token_merged(self):
        with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as lib:
            os.makedirs(os.path.join(home, ".cache", "warp"))
            sentinel = os.path.join(home, ".cache", "warp", "sentinel")
            with open(sentinel, "w") as handle:
                handle.write("user cache")
            before = tree_digest(home)
            # A user sitecustomize must still run (we chain to it), and an `env PYTHONPATH=` token
            # must keep working (we merge into it).
            marker = os.path.join(lib, "user_sitecustomize_ran")
            with open(os.path.join(lib, "sitecustomize.py"), "w") as handle:
                handle.write(f"open({marker!r}, 'a').write('x')\n")
            result, report = measure(["env", f"PYTHONPATH={lib}", PYTHON, fixture("clean/app.py")],
                                     env={"HOME": home, "XDG_CACHE_HOME": os.path.join(home, ".cache")})
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertTrue(report["instrumentation"]["attached"])
            self.assertGreater(sum(r["count"] for r in launch_runs(report)), 0)
            self.assertTrue(os.path.exists(marker), "the user's own sitecustomize did not run")
            self.assertEqual(tree_digest(home), before)

    def test_not_a_warp_program(self):
        result, report = measure([PYTHON, "-c", "print('hello')"], samples=2)
        self.assertEqual(result.returncode, 0, result.stderr)
        # Nothing says whether it imported Warp: its loads were not observed, which is not 0.
        self.assertIsNone(report["identities"])
        self.assertFalse(report["loads_observed"])
        self.assertIn("may never have imported Warp", report["loads_unobserved"])
        self.assertIsNone(report["cold_module_ms_median"])
        self.assertFalse(report["instrumentation"]["attached"])
        self.assertTrue(any("did not attach" in note for note in report["notes"]))
        self.assertEqual(len(report["cold_wall_ms_values"]), 2)


class Failures(unittest.TestCase):
    def test_hanging_command_is_killed_with_its_children(self):
        with tempfile.TemporaryDirectory() as work:
            pid_file = os.path.join(work, "pids")
            script = (
                "import os, subprocess, time\n"
                "child = subprocess.Popen(['sleep', '300'])\n"
                f"open({pid_file!r}, 'w').write(f'{{os.getpid()}} {{child.pid}}')\n"
                "time.sleep(300)\n")
            started = time.monotonic()
            result, report = measure([PYTHON, "-c", script], extra_args=["--timeout", "3"])
            elapsed = time.monotonic() - started
            self.assertEqual(result.returncode, 1, result.stderr)
            self.assertIn("every sample failed", result.stderr)
            self.assertLess(elapsed, 60)
            self.assertEqual(report["timed_out_samples"], 1)
            self.assertIn("timed out", report["sample_results"][0]["failure"])
            with open(pid_file, encoding="utf-8") as handle:
                pids = [int(p) for p in handle.read().split()]
            time.sleep(0.2)
            for pid in pids:
                self.assertFalse(pid_alive(pid), f"process {pid} of the run is still alive")

    def test_some_samples_failing_warns(self):
        with tempfile.TemporaryDirectory() as work:
            counter = os.path.join(work, "count")
            script = (f"import os\np={counter!r}\nn=int(open(p).read()) if os.path.exists(p) else 0\n"
                      "open(p,'w').write(str(n+1))\nraise SystemExit(3 if n == 0 else 0)\n")
            result, report = measure([PYTHON, "-c", script], samples=2)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("1 of 2 samples failed", result.stderr)
            self.assertEqual(report["failed_samples"], 1)
            self.assertIn("exited with status 3", report["sample_results"][0]["failure"])


class BadInput(unittest.TestCase):
    def assert_usage_error(self, args, fragment):
        with tempfile.TemporaryDirectory() as work:
            marker = os.path.join(work, "ran")
            result = run_cli(args(marker) if callable(args) else args)
            self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
            self.assertIn(fragment, result.stderr)
            self.assertFalse(os.path.exists(marker), "the command ran despite a usage error")

    def touch(self, marker):
        return [PYTHON, "-c", f"open({marker!r}, 'w')"]

    def test_no_command(self):
        self.assert_usage_error(["measure", "--"], "command")

    def test_zero_samples(self):
        self.assert_usage_error(lambda m: ["measure", "--samples", "0", "--", *self.touch(m)], "samples")

    def test_negative_timeout(self):
        self.assert_usage_error(lambda m: ["measure", "--timeout=-5", "--", *self.touch(m)], "timeout")

    def test_unwritable_json_path(self):
        self.assert_usage_error(lambda m: ["measure", "--json", "/nonexistent-dir/r.json", "--", *self.touch(m)],
                                "does not exist")

    def test_command_not_found(self):
        self.assert_usage_error(["measure", "--", "no-such-program-xyz"], "command not found")

    def test_not_executable(self):
        self.assert_usage_error(["measure", "--", fixture("clean/app.py")], "not an executable")


if __name__ == "__main__":
    unittest.main()
