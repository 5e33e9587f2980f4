"""cold_units from a reference measured in the same run: `check` interleaves reference builds
with the command's samples, divides pair by pair, says which reference it used, and keeps the
reference in the report it writes (so a baseline in units carries over between machines)."""
import json
import os
import tempfile
import unittest

from probe_testlib import PYTHON, SOURCE_DIR, fixture, run_cli


def budget_file(work, app, extra=""):
    path = os.path.join(work, "budget.yaml")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("commands:\n"
                     f"  - name: clean\n    command: [{PYTHON!r}, {app!r}]\n    samples: 2\n    device: cpu\n"
                     "    cold_units: 1000\n    baseline: baseline.json\n" + extra)
    return path


class ReferenceUnits(unittest.TestCase):
    def setUp(self):
        self.work_dir = tempfile.TemporaryDirectory()
        self.work = self.work_dir.name
        # No calibration from the developer's machine: units must come from this run alone.
        self.env = {"XDG_CACHE_HOME": os.path.join(self.work, "cache"), "WCP_PYTHON": PYTHON}

    def tearDown(self):
        self.work_dir.cleanup()

    def test_check_measures_the_reference_in_the_same_run_and_divides_pair_by_pair(self):
        budget = budget_file(self.work, fixture("clean/app.py"))
        out = os.path.join(self.work, "result.json")
        result = run_cli(["check", budget, "--verbose", "--quiet", "--update-baseline", "--json", out], env=self.env, timeout=900)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("reference (this run): warp_cpu", result.stdout)
        with open(out, encoding="utf-8") as handle:
            outcome = next(o for o in json.load(handle)["commands"][0]["outcomes"] if o["budget"] == "cold_units")
        reference = outcome["reference"]
        self.assertTrue(reference["same_run"])
        self.assertEqual(reference["kind"], "warp_cpu")
        self.assertEqual(reference["samples"], 2)
        self.assertEqual(len(reference["units_values"]), 2)
        self.assertGreater(reference["median_ms"], 0.0)
        self.assertAlmostEqual(outcome["measured"], reference["units_median"])

        # The report written as the baseline holds the reference samples: each unit is that
        # sample's cold module work over the reference work (a header build and four modules)
        # taken right after it.
        with open(os.path.join(self.work, "baseline.json"), encoding="utf-8") as handle:
            report = json.load(handle)
        stored = report["reference"]
        self.assertEqual(stored["name"], reference["name"])
        self.assertEqual([s["after_sample"] for s in stored["samples"]], [1, 2])
        for sample, partner, units in zip(report["sample_results"], stored["samples"], reference["units_values"]):
            self.assertEqual(len(partner["builds_ms"]), 5)
            self.assertAlmostEqual(units, sample["cold_module_ms"] / sum(partner["builds_ms"]))

        # Checked again against that baseline, the judgement is made in reference units.
        again = run_cli(["check", budget, "--verbose", "--quiet"], env=self.env, timeout=900)
        self.assertIn("judged in reference units", again.stdout, again.stdout + again.stderr)

    def test_units_from_the_calibration_alone_need_one(self):
        budget = budget_file(self.work, fixture("clean/app.py"))
        result = run_cli(["check", budget, "--units-reference", "calibration", "--update-baseline"], env=self.env)
        self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
        self.assertIn("calibrate --warp-cpu", result.stderr)

    def test_a_missing_reference_interpreter_stops_before_anything_runs(self):
        budget = budget_file(self.work, fixture("clean/app.py"))
        result = run_cli(["check", budget, "--update-baseline", "--reference-python", "no-such-python-here"],
                         env=self.env)
        self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
        self.assertIn("no-such-python-here", result.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.work, "baseline.json")))

    def test_the_reference_runs_with_the_commands_own_interpreter(self):
        # Where `python3` on PATH has no Warp and WCP_PYTHON is unset, the reference must still
        # run: with the interpreter the command starts with, a relative path anchored at the
        # command's working directory (not the directory `check` was started in).
        bin_dir = os.path.join(self.work, "bin")
        os.mkdir(bin_dir)
        os.symlink("/usr/bin/python3", os.path.join(bin_dir, "python3"))
        interpreter = os.path.relpath(PYTHON, SOURCE_DIR)
        path = os.path.join(self.work, "budget.yaml")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("commands:\n"
                         f"  - name: clean\n    command: [{interpreter!r}, 'fixtures/clean/app.py']\n"
                         f"    cwd: {SOURCE_DIR!r}\n    samples: 1\n    device: cpu\n    cold_units: 1000\n")
        out = os.path.join(self.work, "result.json")
        env = dict(self.env, WCP_PYTHON="", PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
        result = run_cli(["check", path, "--verbose", "--quiet", "--json", out], env=env, timeout=900, cwd=self.work)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("reference (this run): warp_cpu", result.stdout)
        with open(out, encoding="utf-8") as handle:
            outcome = next(o for o in json.load(handle)["commands"][0]["outcomes"] if o["budget"] == "cold_units")
        reference = outcome["reference"]
        self.assertTrue(reference["same_run"], reference)
        self.assertEqual(len(reference["units_values"]), 1, reference)
        self.assertGreater(reference["median_ms"], 0.0)


if __name__ == "__main__":
    unittest.main()
