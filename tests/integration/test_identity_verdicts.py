"""What identity can decide, on real Warp (issue 63): two runs of the same program compile the same
identities with the same compilers and CPU into the same bytes, and `compare` says UNCHANGED after
one run each, whatever the clocks read; a report stripped of the build environment (an older
report) is judged on time as before and says so; `check --against-rev` measures a revision of a
scratch git repository in pairs beside its working tree, decides an unchanged program after one
pair and catches a heavier B twin (about +35 % compile work, the same launches) on its pairs,
removing its worktree afterwards; a revision that names no commit is a usage error before
anything runs. The bench's own B twin (+10-15 %) is not used here: beside a neighbouring ctest job
its paired noise reaches 5 %, so ten pairs can honestly leave it NOT JUDGED (docs/measurement.md
gives the bench's catch rate); a test must fail only when the pairs are wrong. Every repository
lives in a scratch folder. About 12 runs of the twin (2 s
each) plus the fixture's: under a minute on 2 cores."""

import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import unittest

from probe_testlib import measured, run_cli

SOURCE = pathlib.Path(os.environ.get("WCP_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
PYTHON = os.environ.get("WCP_PYTHON", "python3")
TWIN = SOURCE / "tests" / "bench" / "data" / "gate_cost" / "twin_app.py"
CLEAN = SOURCE / "fixtures" / "clean" / "app.py"

BUDGET = """\
version: 1
commands:
  - name: twin
    command: ["{python}", "twin_app.py"]
    device: cpu
    max_identities: 1
    baseline: {{rev: "${{WCP_TEST_REV:-HEAD}}"}}
"""


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), "-c", "user.email=t@example.com", "-c", "user.name=t", *args],
                          check=True, capture_output=True, text=True).stdout


class UnchangedByIdentity(unittest.TestCase):
    def test_two_runs_of_one_program_are_unchanged_after_one_run_each(self):
        first = measured([PYTHON, str(CLEAN)])
        with tempfile.TemporaryDirectory() as scratch:
            second_path = os.path.join(scratch, "second.json")
            result = run_cli(["measure", "--quiet", "--samples", "1", "--json", second_path, "--", PYTHON, str(CLEAN)])
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(second_path, encoding="utf-8") as handle:
                second = json.load(handle)
            environment = second["build_environment"]
            self.assertTrue(environment["cpu_compiler"].startswith("warp-clang."), environment)
            self.assertEqual(environment["warp_version"], second["warp_version"])
            for module in second["module_sources"]:
                self.assertRegex(module["source_digest"], "^[0-9a-f]{16}$")
                self.assertRegex(module["output_digest"], "^[0-9a-f]{16}$")
                self.assertGreater(module["output_bytes"], 0)

            judged = os.path.join(scratch, "judged.json")
            compare = run_cli(["compare", first.report_path, second_path, "--json", judged])
            self.assertEqual(compare.returncode, 0, compare.stdout + compare.stderr)
            self.assertIn("Verdict: UNCHANGED", compare.stdout)
            with open(judged, encoding="utf-8") as handle:
                judgement = json.load(handle)
            self.assertEqual(judgement["verdict"], "UNCHANGED")
            self.assertTrue(judgement["identity_decision"]["decided"])
            self.assertGreaterEqual(judgement["identity_decision"]["modules_checked"], 1)
            # Time is still measured and reported beside it, with what it could have seen.
            self.assertIsNotNone(judgement["cold_module_work"]["delta_ms"])
            self.assertIsNotNone(judgement["detectable_percent"])

            # An older report (no build environment) is judged on time, as before, and says so.
            with open(first.report_path, encoding="utf-8") as handle:
                older = json.load(handle)
            older.pop("build_environment")
            older["schema_version"] = older["version"] = 14
            older_path = os.path.join(scratch, "older.json")
            with open(older_path, "w", encoding="utf-8") as handle:
                json.dump(older, handle)
            compare = run_cli(["compare", older_path, second_path, "--verbose"])
            self.assertEqual(compare.returncode, 0, compare.stdout + compare.stderr)
            self.assertNotIn("UNCHANGED", compare.stdout.splitlines()[0])
            self.assertIn("judged on time as before", compare.stdout)
            self.assertIn("could detect", compare.stdout)


class AgainstARevision(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="wcp-against-rev-")
        self.repo = pathlib.Path(self.scratch) / "repo"
        self.repo.mkdir()
        git(self.repo, "init", "-q")
        shutil.copy(TWIN, self.repo / "twin_app.py")
        (self.repo / "budgets.yaml").write_text(BUDGET.format(python=PYTHON), encoding="utf-8")
        git(self.repo, "add", ".")
        git(self.repo, "commit", "-qm", "the A twin")

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def check(self, *extra):
        out = os.path.join(self.scratch, "check.json")
        result = run_cli(["check", str(self.repo / "budgets.yaml"), "--json", out, *extra])
        document = None
        if os.path.exists(out):
            with open(out, encoding="utf-8") as handle:
                document = json.load(handle)
        return result, document

    def baseline_outcome(self, document):
        (command,) = document["commands"]
        (outcome,) = [item for item in command["outcomes"] if item["budget"] == "baseline"]
        return command, outcome

    def test_an_unchanged_tree_is_decided_after_one_pair_and_a_changed_one_on_its_pairs(self):
        result, document = self.check()
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        command, outcome = self.baseline_outcome(document)
        self.assertEqual(outcome["judgement"]["verdict"], "UNCHANGED", outcome)
        self.assertIn("decided after 1 pair", command["sampling"]["summary"])
        self.assertEqual(git(self.repo, "worktree", "list").count("\n"), 1, "the scratch worktree was removed")

        # The B twin in the working tree: an extra kernel compiled, never launched, with four times
        # the bench's loop rounds so that the change stands well clear of a busy runner's noise.
        path = self.repo / "twin_app.py"
        source = path.read_text(encoding="utf-8")
        heavier = source.replace('get("WCP_GATE_TWIN", "a")', 'get("WCP_GATE_TWIN", "b")').replace(
            "for _k in range(3):", "for _k in range(12):")
        self.assertNotEqual(heavier.count("range(12)"), 0, "the twin's loop is where this test expects it")
        path.write_text(heavier, encoding="utf-8")
        result, document = self.check()
        command, outcome = self.baseline_outcome(document)
        judgement = outcome["judgement"]
        self.assertEqual(judgement["verdict"], "REGRESSION", result.stdout)
        self.assertEqual(result.returncode, 1)
        self.assertIsNotNone(judgement["cold_module_work"]["paired"])
        self.assertIn("measured in pairs in this job", outcome["note"])
        self.assertEqual(git(self.repo, "status", "--short").strip(), "M twin_app.py", "the checkout was not touched")
        self.assertEqual(git(self.repo, "worktree", "list").count("\n"), 1)

    def test_a_revision_that_names_no_commit_stops_before_anything_runs(self):
        result, document = self.check("--against-rev", "no-such-branch")
        self.assertEqual(result.returncode, 2)
        self.assertIsNone(document)
        self.assertIn("--against-rev no-such-branch: not a commit of", result.stderr)
        self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)


if __name__ == "__main__":
    unittest.main()
