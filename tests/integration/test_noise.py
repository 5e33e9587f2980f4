"""Issue 42 end to end on real fixture runs: a verdict is never weighed against noise nobody
measured, and `samples: auto` takes no more runs than its budgets need.

- `compare` of two one-sample reports with no history judges only a change beyond the
  gross-change bound and says its noise was not measured; with a history of three earlier runs
  of the same command (3 samples each: a spread of few values widens the band by Student's t,
  and 3 values alone would rarely beat the gross bound) it weighs the change against that
  history and says so.
- `check` with the default `samples: auto` decides structural budgets and a far-off
  `cold_seconds` after one run and says how; an explicit `samples: 2` is still honoured.
"""

import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import unittest

CLI = os.environ.get("WCP_CLI", "warp-compile-probe")
SOURCE = pathlib.Path(os.environ.get("WCP_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
PYTHON = os.environ.get("WCP_PYTHON", "python3")
CLEAN = SOURCE / "fixtures" / "clean" / "app.py"


class NoiseTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = pathlib.Path(tempfile.mkdtemp(prefix="wcp_noise_"))
        # No calibration in a private XDG cache, and no WCP_HISTORY: the only noise is the one a test gives.
        cls.env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=str(cls.scratch))
        cls.env.pop("WCP_HISTORY", None)
        cls.history = cls.scratch / "history.db"
        cls.reports = []
        for index in range(4):
            path = cls.scratch / f"clean{index}.json"
            # The first three runs are the history; the fourth is not recorded in it.
            history = ["--history", str(cls.history)] if index < 3 else []
            samples = "3" if index < 3 else "1"
            result = subprocess.run([CLI, "measure", "--samples", samples, "--quiet", "--json", str(path), *history,
                                     "--", PYTHON, str(CLEAN)], capture_output=True, text=True, cwd=SOURCE, env=cls.env,
                                    timeout=900)
            if result.returncode != 0:
                raise AssertionError(f"measure failed: {result.stdout}\n{result.stderr}")
            cls.reports.append(path)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def compare(self, *extra):
        """The fourth report against a copy of itself without its build environment (a schema-14
        report): the same run, judged on time, as identity can no longer decide it (issue 63)."""
        out = self.scratch / "comparison.json"
        out.unlink(missing_ok=True)
        older = self.scratch / "older.json"
        document = json.loads(self.reports[3].read_text())
        document.pop("build_environment", None)
        document["schema_version"] = document["version"] = 14
        older.write_text(json.dumps(document))
        result = subprocess.run([CLI, "compare", str(self.reports[3]), str(older), "--json", str(out), *extra],
                                capture_output=True, text=True, env=self.env, timeout=120)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        return result, json.loads(out.read_text())

    def test_one_sample_pair_without_history_measured_no_noise(self):
        result, comparison = self.compare()
        noise = comparison["noise"]
        self.assertEqual(noise["source"], "none", noise)
        self.assertIsNone(noise["relative_mad"])
        self.assertEqual(noise["gross_change_bound"], 0.35)
        self.assertEqual(comparison["verdict"], "INCONCLUSIVE")
        self.assertEqual(comparison["detectable_percent"], 35.0)
        self.assertEqual(comparison["identity_decision"]["sameness"], "not_recorded")
        # The band is the gross-change bound, not 1 % of the median.
        work = comparison["cold_module_work"]
        self.assertAlmostEqual(work["band_ms"], 0.35 * work["baseline"]["median_ms"], places=3)
        self.assertEqual(comparison["samples_to_decide"], 3)
        self.assertIn("noise not measured", comparison["reason"])
        self.assertIn("would measure its noise", comparison["reason"])

    def test_the_same_pair_with_a_history_uses_it_and_says_so(self):
        result, comparison = self.compare("--history", str(self.history))
        noise = comparison["noise"]
        self.assertEqual(noise["source"], "history", noise)
        self.assertEqual(noise["runs"], 3)
        self.assertIn("3 earlier runs of this command", noise["summary"])
        self.assertIn("history: 3 earlier runs", comparison["reason"])
        # The band is the history's: Student's t at (values - 1) for the 9 values the three runs
        # pooled (3.355), × 1.4826 × relative MAD × median × √(1/1 + 1/1), at least 1 %. Whether it
        # beats the gross bound depends on the host's noise that day, so that is not asserted.
        self.assertEqual(noise["values"], 9)
        self.assertAlmostEqual(noise["band_quantile"], 3.355)
        work = comparison["cold_module_cpu"] or comparison["cold_module_work"]  # the judged clock's band
        median = work["baseline"]["median_ms"]
        expected = max(0.01 * median, 3.355 * 1.4826 * noise["relative_mad"] * median * 2 ** 0.5)
        self.assertAlmostEqual(work["band_ms"], expected, delta=1e-6 * median)

    def test_the_history_is_only_read(self):
        before = self.history.read_bytes()
        self.compare("--history", str(self.history))
        self.assertEqual(self.history.read_bytes(), before)

    def check(self, samples_line):
        budget = self.scratch / "budget.yaml"
        budget.write_text(f"""version: 1
commands:
  - name: clean
    command: ["{PYTHON}", "{CLEAN}"]
    env: {{PYTHONDONTWRITEBYTECODE: "1"}}
{samples_line}    max_identities: 1
    warm_near_zero: true
    cold_seconds: 600
""")
        out = self.scratch / "check.json"
        result = subprocess.run([CLI, "check", str(budget), "--quiet", "--json", str(out), "--ctest-measurements"],
                                capture_output=True, text=True, env=self.env, timeout=900)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        return result, json.loads(out.read_text())["commands"][0]

    def test_auto_decides_structure_and_a_far_limit_after_one_run(self):
        result, command = self.check("")
        sampling = command["sampling"]
        self.assertEqual((sampling["mode"], sampling["runs"], sampling["max_runs"]), ("auto", 1, 5), sampling)
        self.assertTrue(sampling["summary"].startswith("decided after 1 run: "), sampling)
        outcomes = {outcome["budget"]: outcome for outcome in command["outcomes"]}
        self.assertEqual(outcomes["max_identities"]["decided_by"], "exact after one run")
        self.assertTrue(outcomes["cold_seconds"]["decided"])
        self.assertIn("beyond the gross-change bound", outcomes["cold_seconds"]["decided_by"])
        self.assertIn('name="runs">1<', result.stdout)

    def test_a_fixed_count_is_honoured(self):
        result, command = self.check("    samples: 2\n")
        sampling = command["sampling"]
        self.assertEqual((sampling["mode"], sampling["runs"]), ("fixed", 2), sampling)

    def test_ab_auto_stops_within_its_most_pairs_and_says_why(self):
        out = self.scratch / "ab.json"
        result = subprocess.run([CLI, "ab", "--samples", "auto", "--quiet", "--json", str(out), "--", PYTHON, str(CLEAN),
                                 "--vs", PYTHON, str(CLEAN)], capture_output=True, text=True, cwd=SOURCE, env=self.env,
                                timeout=900)
        self.assertIn("Pairs (--samples auto, at most 10): ", result.stdout)
        document = json.loads(out.read_text())
        # An A/A run's verdict is the machine's noise to give; its exit status must match it.
        verdict = document["comparison"]["verdict"]
        self.assertEqual(result.returncode, 1 if verdict in ("REGRESSION", "INVALID") else 0,
                         result.stdout + result.stderr)
        pairs = len(document["order"])
        self.assertLessEqual(pairs, 10)
        self.assertEqual(document["baseline"]["samples"], pairs)
        self.assertIn(f"Interleaved in A B B A order, {pairs} pair(s)", result.stdout)

    def test_ab_refuses_a_sample_count_that_is_not_one(self):
        result = subprocess.run([CLI, "ab", "--samples", "many", "--", PYTHON, str(CLEAN), "--vs", PYTHON, str(CLEAN)],
                                capture_output=True, text=True, cwd=SOURCE, env=self.env, timeout=60)
        self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
        self.assertIn("--samples must be auto or a whole number", result.stderr)


if __name__ == "__main__":
    unittest.main()
