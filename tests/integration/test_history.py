"""The compile-time history on real Warp: `measure --history` at each commit of the generated
eight-commit repository (history_repo.py), `history show` finding the one step (commit 5, the
late kernel: a structural change), naming the module built twice, and noting the commits that
only edit kernel code without calling them steps; the HTML trend page in headless Chromium,
`check` and `ab` appending, and the compile-budget tests' CTest measurements. The history
file's own safety (concurrent writers, a damaged file) is test_history_store.py."""
import json
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import unittest

from history_repo import BUDGET_PATH, KERNEL_EDITS, REBUILD_COMMIT, make_history_repo
from probe_testlib import CLI, PYTHON, fixture, run_cli
from test_workflow import CHROMIUM, png_rows

NOTE = "kernel code changed in __main__"


def git(root, *args):
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True).stdout.strip()


class HistoryOfEightCommitsTest(unittest.TestCase):
    """Each commit measured once (`--samples 1`). Every assertion is about structure, which no
    load on the machine can flip: with one sample per commit the level rule needs three earlier
    commits before it judges, and the next two of the same structure to confirm, so in this
    history it can only ever agree with the step at commit 5 (the band starts again there and
    three commits follow it). The level rule itself is tested on synthetic series
    (tests/unit/history_trend_test.cpp)."""

    @classmethod
    def setUpClass(cls):
        cls.scratch = pathlib.Path(tempfile.mkdtemp(prefix="wcp_history_"))
        cls.repo = cls.scratch / "repo"
        cls.shas = make_history_repo(str(cls.repo))
        cls.history = cls.scratch / "history.sqlite"
        cls.env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=str(cls.scratch / "cache"))
        cls.exit_codes = []
        for sha in cls.shas:
            git(cls.repo, "checkout", "-q", sha)
            result = run_cli(["measure", "--quiet", "--samples", "1", "--history", str(cls.history), "--",
                              PYTHON, "app.py"], env=cls.env, cwd=str(cls.repo))
            cls.exit_codes.append(result.returncode)
        git(cls.repo, "checkout", "-q", "main")
        cls.json_path = cls.scratch / "history.json"
        cls.html_path = cls.scratch / "history.html"
        cls.show = run_cli(["history", "show", "--history", str(cls.history), "--json", str(cls.json_path),
                            "--html", str(cls.html_path), "--svg", str(cls.scratch / "history.svg"),
                            "--markdown", str(cls.scratch / "summary.md")], env=cls.env)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def series(self):
        document = json.loads(self.json_path.read_text())
        self.assertEqual(len(document["series"]), 1, document["series"])
        return document["series"][0]

    def test_every_commit_was_recorded_and_commit_3_as_failed(self):
        self.assertEqual(self.exit_codes[2], 1)  # commit 3 exits 1 before importing Warp
        self.assertTrue(all(code == 0 for index, code in enumerate(self.exit_codes) if index != 2), self.exit_codes)
        points = self.series()["points"]
        self.assertEqual([point["commit"] for point in points], self.shas)
        self.assertFalse(points[2]["measured"])
        self.assertIsNone(points[2]["cold_module_ms"])  # missing is not zero
        self.assertIsNone(points[2]["identities"])
        self.assertIsNone(points[2]["warm_compiles"])
        self.assertIsNone(points[2]["note"])
        self.assertTrue(all(point["measured"] for index, point in enumerate(points) if index != 2))
        # The warm run compiles nothing and the CPU leaves no LTO artifacts, at every commit.
        self.assertEqual({(p["warm_compiles"], p["lto_artifacts"]) for i, p in enumerate(points) if i != 2}, {(0, 0)})

    def test_the_one_step_is_the_rebuild_at_commit_5(self):
        self.assertEqual(self.show.returncode, 0, self.show.stderr)
        points = self.series()["points"]
        steps = [index + 1 for index, point in enumerate(points) if point["step"]]
        self.assertEqual(steps, [REBUILD_COMMIT], [(p["commit"][:7], p["clock"], p["step"]) for p in points])
        step = points[REBUILD_COMMIT - 1]["step"]
        self.assertTrue(step["structure_changed"])
        self.assertTrue(step["identities_changed"])
        self.assertEqual([module["module"] for module in step["newly_rebuilt"]], ["__main__"])
        self.assertIn("identities 1 → 2", step["summary"])
        self.assertIn("module __main__ built twice", step["summary"])
        self.assertIn(self.shas[REBUILD_COMMIT - 1][:7], step["summary"])
        self.assertIsNone(points[REBUILD_COMMIT - 1]["note"])  # the step says what changed
        # The text table marks it too, and names what changed.
        self.assertIn("module __main__ built twice", self.show.stdout)
        self.assertEqual(len(re.findall(r"\bSTEP\b", self.show.stdout)), 1, self.show.stdout)

    def test_commits_that_only_edit_kernel_code_are_notes_not_steps(self):
        points = self.series()["points"]
        notes = [index + 1 for index, point in enumerate(points) if point["note"]]
        self.assertEqual(notes, list(KERNEL_EDITS), [(p["commit"][:7], p["identity_set"]) for p in points])
        for commit in KERNEL_EDITS:
            point = points[commit - 1]
            self.assertIsNone(point["step"], point)
            self.assertEqual(point["note"]["kind"], "kernel_code_changed")
            self.assertEqual(point["note"]["summary"], NOTE)
            self.assertEqual(point["note"]["modules"], ["__main__"])
            self.assertTrue(point["note"]["identities_added"] and point["note"]["identities_removed"], point["note"])
        # Commit 6 edits the kernel that commit 5 made __main__ build twice: two new hashes, still two.
        self.assertEqual(points[5]["identities"], 2)
        self.assertEqual(len(points[5]["note"]["identities_added"]), 2)
        # The print outside the kernel (7) and the README (8) keep the hashes: nothing to note.
        self.assertEqual(points[6]["identity_set"], points[7]["identity_set"])
        self.assertEqual(points[5]["identity_set"], points[6]["identity_set"])
        self.assertEqual(self.show.stdout.count(NOTE), len(KERNEL_EDITS), self.show.stdout)

    def test_the_machine_and_commit_are_recorded(self):
        series = self.series()
        self.assertEqual(series["name"], "python app.py")
        self.assertTrue(series["machine"]["host"])
        self.assertTrue(series["machine"]["warp_version"].startswith("1."))
        self.assertTrue(all(point["dirty"] is False for point in series["points"]))

    def test_the_markdown_summary_has_a_row_per_commit(self):
        text = (self.scratch / "summary.md").read_text()
        self.assertIn("## Compile-time history", text)
        for sha in self.shas:
            self.assertIn(f"`{sha[:7]}`", text)
        self.assertIn("**", text)  # the step is bold
        self.assertEqual(text.count(f"| {NOTE} |"), len(KERNEL_EDITS), text)

    def test_the_html_trend_page_renders_in_chromium(self):
        self.assertIsNotNone(CHROMIUM, "chromium is installed by ci/setup.sh")
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                 f"--user-data-dir={self.scratch / 'profile'}"]
        dom = subprocess.run([CHROMIUM, *flags, "--dump-dom", self.html_path.as_uri()], capture_output=True,
                             text=True, timeout=180)
        self.assertEqual(dom.returncode, 0, dom.stderr[-2000:])
        self.assertEqual(len(re.findall(r'class="step"', dom.stdout)), 1, dom.stdout[:3000])
        self.assertRegex(dom.stdout, rf'class="step"[^>]*data-commit="{self.shas[4][:7]}"|'
                                     rf'data-commit="{self.shas[4][:7]}"[^>]*class="step"')
        # Each kernel edit: a note in the plot and in the table, never a step.
        for commit in KERNEL_EDITS:
            sha = self.shas[commit - 1][:7]
            self.assertRegex(dom.stdout, rf'class="note"[^>]*data-commit="{sha}"|data-commit="{sha}"[^>]*class="note"')
        self.assertEqual(dom.stdout.count(f'<td class="note">{NOTE}</td>'), len(KERNEL_EDITS))
        self.assertIn("failed", dom.stdout)
        self.assertIn("module __main__ built twice", dom.stdout)
        shot = self.scratch / "history.png"
        subprocess.run([CHROMIUM, *flags, "--window-size=1000,1400", f"--screenshot={shot}", self.html_path.as_uri()],
                       capture_output=True, timeout=180)
        rows = png_rows(shot)
        self.assertEqual(len(rows), 1400)
        self.assertGreater(len(set(rows)), 50, "the page rendered as (nearly) blank")
        svg = (self.scratch / "history.svg").read_text()
        self.assertTrue(svg.startswith("<svg") or svg.startswith("<?xml"), svg[:200])


class CheckAndAbAppendTest(unittest.TestCase):
    def setUp(self):
        self.scratch = pathlib.Path(tempfile.mkdtemp(prefix="wcp_history_append_"))
        self.env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=str(self.scratch / "cache"),
                        WCP_PYTHON=PYTHON)

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def test_check_appends_each_entry_with_its_verdict_and_ab_appends_both_arms(self):
        repo = self.scratch / "repo"
        make_history_repo(str(repo))
        history = self.scratch / "history.sqlite"
        check = run_cli(["check", str(repo / BUDGET_PATH), "--quiet", "--history", str(history)], env=self.env)
        self.assertEqual(check.returncode, 1, check.stdout)  # the last commit builds __main__ twice
        app = fixture("clean")
        ab = run_cli(["ab", "--quiet", "--samples", "1", "--history", str(history), "--", PYTHON, "app.py", "--vs",
                      PYTHON, "app.py"], env=self.env, cwd=app)
        self.assertIn(ab.returncode, (0, 1), ab.stderr)
        shown = self.scratch / "shown.json"
        self.assertEqual(run_cli(["history", "show", "--history", str(history), "--json", str(shown)]).returncode, 0)
        points = {(s["name"], p["source"]): p for s in json.loads(shown.read_text())["series"] for p in s["points"]}
        self.assertEqual(points[("app", "check")]["verdict"], "fail")
        self.assertEqual(points[("app", "check")]["rebuilt_modules"], [{"module": "__main__", "builds": 2}])
        # Both arms ran the same command in the same checkout: one series, one point, two results.
        arms = [p for (name, source), p in points.items() if name == "python app.py"]
        self.assertEqual(len(arms), 1, points.keys())
        self.assertEqual(arms[0]["results"], 2)


class CTestMeasurementsTest(unittest.TestCase):
    def test_compile_budget_tests_print_their_figures_as_ctest_measurements(self):
        build = pathlib.Path(CLI).resolve().parents[1]
        if not (build / "CTestTestfile.cmake").exists():
            self.skipTest("WCP_CLI is not inside a CMake build tree")
        result = subprocess.run(["ctest", "--no-tests=error", "-L", "compile-budget", "-R", "^compile-budget/fixtures/clean$", "-V"],
                                cwd=build, capture_output=True, text=True, timeout=900)
        self.assertEqual(result.returncode, 0, result.stdout[-3000:])
        measurements = dict(re.findall(
            r'<CTestMeasurement type="numeric/double" name="([a-z_.]+)">([-0-9.e+]+)</CTestMeasurement>',
            result.stdout))
        for budget in ("max_modules", "max_identities", "max_builds_per_module", "cold_seconds", "warm_near_zero"):
            self.assertIn(budget, measurements, result.stdout[-3000:])
            self.assertIn(budget + ".limit", measurements)
        self.assertEqual(float(measurements["max_identities"]), 1.0)
        self.assertGreater(float(measurements["cold_seconds"]), 0.0)


if __name__ == "__main__":
    unittest.main()
