"""Verdicts that never credit missing data, on real Warp runs and on real reports of the
original probe (tests/data/interop):

- a twin of the clean app that fails every warm run is never IMPROVED (nor, swapped, a
  REGRESSION), its missing warm figures are null, and `compare` and a `baseline:` budget agree;
- the original probe's report of an app and ours of the same app keep the workload;
- `diagnose` reads the original probe's reports with every field they have, and the headline
  of an app whose cache is destroyed every run says the warm run compiled again.
"""

import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import unittest

from probe_testlib import CLI, PYTHON, SOURCE_DIR, run_cli

SOURCE = pathlib.Path(SOURCE_DIR)
FIXTURES = SOURCE / "fixtures"
INTEROP = SOURCE / "tests" / "data" / "interop"


class VerdictTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = pathlib.Path(tempfile.mkdtemp(prefix="wcp_verdicts_"))
        cls.env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=str(cls.scratch))
        cls.reports = {}
        cls.outputs = {}
        for name, script, samples in [
            ("clean", "clean/app.py", 2),
            ("warm_fails", "clean/fails_when_warm.py", 2),
            ("late_kernel", "late_kernel/app.py", 1),
            ("late_kernel_fixed", "late_kernel/fixed.py", 1),
            ("closure_factory", "closure_factory/app.py", 1),
            ("cache_destroyed", "cache_destroyed/app.py", 1),
        ]:
            path = cls.scratch / f"{name}.json"
            # Run from the repository root with relative paths, as the interop reports were.
            result = subprocess.run([CLI, "measure", "--verbose", "--samples", str(samples), "--quiet", "--json", str(path), "--",
                                     PYTHON, f"fixtures/{script}"], capture_output=True, text=True, cwd=SOURCE,
                                    env=cls.env, timeout=900)
            if result.returncode != 0:
                raise AssertionError(f"measure {name} failed: {result.stdout}\n{result.stderr}")
            cls.reports[name] = path
            cls.outputs[name] = result.stdout

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def report(self, name):
        return json.loads(self.reports[name].read_text())

    def compare(self, baseline, candidate):
        out = self.scratch / "comparison.json"
        out.unlink(missing_ok=True)
        result = run_cli(["compare", "--verbose", str(baseline), str(candidate), "--json", str(out)], env=self.env)
        return result, json.loads(out.read_text()) if out.exists() else None

    def diagnose(self, report_path):
        out = self.scratch / "diagnosis.json"
        out.unlink(missing_ok=True)
        result = run_cli(["diagnose", str(report_path), "--verbose", "--json", str(out)], env=self.env)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        return result, json.loads(out.read_text())

    # --- a candidate whose warm runs all fail -------------------------------------------------

    def test_failed_warm_runs_are_null_in_the_report(self):
        report = self.report("warm_fails")
        self.assertEqual(report["failed_samples"], 0)  # every cold run succeeded
        for field in ("warm_module_ms_median", "warm_wall_ms_median", "compile_elapsed_ms_median", "overlap_factor"):
            self.assertIsNone(report[field], field)
        for sample in report["sample_results"]:
            self.assertIsNone(sample["warm_wall_ms"])
            self.assertIn("exited with status 3", sample["warm_failure"])
        self.assertIn("Warm wall         unavailable", self.outputs["warm_fails"])
        self.assertIn("2 sample(s), 0 failed, 2 warm run(s) failed", self.outputs["warm_fails"])

    def test_a_candidate_without_warm_runs_is_never_credited(self):
        # Its samples failed on their warm run: rule 1, the candidate is not valid evidence.
        result, comparison = self.compare(self.reports["clean"], self.reports["warm_fails"])
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertEqual(comparison["verdict"], "INVALID", result.stdout)
        self.assertIn("2 of 2 warm runs failed", comparison["reason"])
        self.assertEqual(comparison["workload"]["status"], "preserved")
        elapsed = comparison["compile_elapsed"]
        self.assertIsNone(elapsed["candidate"])
        self.assertIsNone(elapsed["delta_ms"])
        self.assertEqual(elapsed["direction"], "unavailable")
        self.assertTrue(any("warm runs failed" in note for note in comparison["notes"]), comparison["notes"])
        self.assertIn("unavailable", result.stdout)

    def test_swapped_it_is_no_false_regression(self):
        result, comparison = self.compare(self.reports["warm_fails"], self.reports["clean"])
        self.assertNotEqual(comparison["verdict"], "REGRESSION", result.stdout)
        self.assertIsNone(comparison["compile_elapsed"]["baseline"])

    def test_a_baseline_budget_reaches_the_same_verdict(self):
        budget = self.scratch / "budget.yaml"
        budget.write_text(f"""\
commands:
  - name: warm_fails
    command: ["{PYTHON}", "fixtures/clean/fails_when_warm.py"]
    cwd: {SOURCE}
    samples: 2
    baseline: {self.reports["clean"]}
""")
        out = self.scratch / "check.json"
        result = run_cli(["check", str(budget), "--verbose", "--quiet", "--json", str(out)], env=self.env, timeout=900)
        outcome = [o for o in json.loads(out.read_text())["commands"][0]["outcomes"] if o["budget"] == "baseline"][0]
        judged = outcome["judgement"]
        # The budget measured its own candidate; compare that same report with the same baseline.
        self.assertNotEqual(judged["verdict"], "IMPROVED")
        self.assertIsNone(judged["compile_elapsed"]["candidate"])
        self.assertEqual(result.returncode, judged["exit_code"], result.stdout)

    # --- reports of the original probe ---------------------------------------------------------

    def test_the_original_probes_report_and_ours_keep_the_same_workload(self):
        for ours, theirs in [("clean", "clean-app"), ("late_kernel", "late_kernel-app"),
                             ("late_kernel_fixed", "late_kernel-fixed"), ("closure_factory", "closure_factory-app")]:
            for baseline, candidate in [(INTEROP / f"{theirs}.json", self.reports[ours]),
                                        (self.reports[ours], INTEROP / f"{theirs}.json")]:
                result, comparison = self.compare(baseline, candidate)
                self.assertNotEqual(comparison["verdict"], "INVALID", f"{baseline} -> {candidate}\n{result.stdout}")
                self.assertEqual(comparison["workload"]["status"], "preserved", f"{theirs}\n{result.stdout}")

    def test_reports_without_the_cpu_clock_are_judged_on_the_wall_and_say_so(self):
        # Ours against ours: both have the CPU clock (schema 13), so module work is judged on it
        # and the wall comparison is kept beside it.
        result, comparison = self.compare(self.reports["clean"], self.reports["clean"])
        self.assertEqual(comparison["judged_on"], "cold module CPU", result.stdout)
        self.assertIsNotNone(comparison["cold_module_cpu"]["baseline"]["median_ms"])
        self.assertIsNotNone(comparison["cold_module_work"]["baseline"]["median_ms"])
        self.assertNotIn("Clock:", result.stdout)
        # The original probe's report: no CPU clock, so the wall, and the first note says why.
        for baseline, candidate in [(INTEROP / "clean-app.json", self.reports["clean"]),
                                    (self.reports["clean"], INTEROP / "clean-app.json")]:
            result, comparison = self.compare(baseline, candidate)
            self.assertEqual(comparison["judged_on"], "cold module work", result.stdout)
            self.assertIsNone(comparison["cold_module_cpu"])
            self.assertIn("the original probe measures no CPU clock", comparison["notes"][0])
        # A report of this tool from before the clock (schema 12): the same, naming its schema.
        older = self.report("clean")
        older["schema_version"] = 12
        for key in [k for k in older if k.startswith(("cold_module_cpu_ms", "warm_module_cpu_ms"))]:
            del older[key]
        del older["module_cpu_unavailable"]
        for sample in older["sample_results"]:
            sample.pop("cold_module_cpu_ms", None)
            sample.pop("warm_module_cpu_ms", None)
        older_path = self.scratch / "clean-schema12.json"
        older_path.write_text(json.dumps(older))
        result, comparison = self.compare(older_path, self.reports["clean"])
        self.assertEqual(comparison["judged_on"], "cold module work", result.stdout)
        self.assertIn("the report predates the CPU clock (schema 12)", comparison["notes"][0])
        self.assertNotEqual(comparison["verdict"], "INVALID", result.stdout)

    def test_an_original_fix_against_our_app_is_compared_field_by_field(self):
        # Timings taken at different times on a shared machine decide nothing here; the
        # structure and the unknowns must come through exactly.
        result, comparison = self.compare(self.reports["late_kernel"], INTEROP / "late_kernel-fixed.json")
        self.assertEqual(comparison["counts"]["compiled identities"], {"baseline": 2, "candidate": 1})
        self.assertEqual(comparison["counts"]["compiled events (warm)"], {"baseline": 0, "candidate": None})
        self.assertIsNone(comparison["compile_elapsed"]["candidate"]["n"])  # a median kept without its values
        self.assertIsNotNone(comparison["compile_elapsed"]["candidate"]["mad_ms"])
        self.assertTrue(any("compiled identities 2 → 1" in note for note in comparison["notes"]), comparison["notes"])

    def test_diagnose_reads_every_original_report_like_ours(self):
        # What ours names precisely, the original's log-only report can only call identity churn.
        expected = {
            "clean-app": ("clean", set(), set()),
            "late_kernel-fixed": ("late_kernel_fixed", set(), set()),
            "late_kernel-app": ("late_kernel", {"CS-1"}, {"identity-churn"}),
            "closure_factory-app": ("closure_factory", {"closure-churn"}, {"identity-churn"}),
            "cache_destroyed-app": ("cache_destroyed", {"CS-2"}, {"CS-2"}),
        }
        for theirs, (ours, ours_findings, theirs_findings) in expected.items():
            _, mine = self.diagnose(self.reports[ours])
            _, original = self.diagnose(INTEROP / f"{theirs}.json")
            self.assertEqual({f["id"] for f in mine["findings"]}, ours_findings, theirs)
            self.assertEqual({f["id"] for f in original["findings"]}, theirs_findings, theirs)
            if theirs_findings == {"identity-churn"}:
                # It says which mechanisms its evidence cannot tell apart.
                self.assertTrue({"CS-1", "CS-3", "CS-6", "closure-churn"} <=
                                {n["id"] for n in original["not_checked"]}, original["not_checked"])

    def test_an_original_report_of_a_destroyed_cache_is_cs2_with_the_right_headline(self):
        result, diagnosis = self.diagnose(INTEROP / "cache_destroyed-app.json")
        self.assertIn("CS-2", {f["id"] for f in diagnosis["findings"]}, result.stdout)
        self.assertIn("in every run", diagnosis["bottleneck"])
        self.assertIn("the warm run compiled again", diagnosis["bottleneck"])
        self.assertNotIn("not the bottleneck", diagnosis["bottleneck"])

    def test_our_measure_headline_of_a_destroyed_cache(self):
        output = self.outputs["cache_destroyed"]
        self.assertIn("of module work in every run", output)
        self.assertIn("the warm run compiled again (see CS-2)", output)
        self.assertNotIn("Compilation is not the bottleneck", output)
        # Module work over a small elapsed is large here, but the warm run compiled too: not overlap.
        self.assertNotIn("BUILDS OVERLAPPED", output)


if __name__ == "__main__":
    unittest.main()
