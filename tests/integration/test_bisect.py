"""`bisect GOOD BAD BUDGET.yaml` end to end on the generated eight-commit history
(history_repo.py): git bisect run in a scratch worktree with `check` at each commit, the first
bad commit and its structure difference, skipped commits, aborts, and the user's checkout left
exactly as it was. Each visited commit runs real Warp on the CPU (samples: 1), so there are
only two real bisections, and one more real check (BAD tested when git did not)."""

import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import unittest

from history_repo import BUDGET_PATH, _git, make_history_repo

CLI = os.environ.get("WCP_CLI", "warp-compile-probe")
PYTHON = os.environ.get("WCP_PYTHON", "python3")
USAGE = 2


class BisectTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.root = pathlib.Path(tempfile.mkdtemp(prefix="wcp_bisect_"))
        cls.repo = cls.root / "repo"
        cls.shas = make_history_repo(str(cls.repo))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.root, ignore_errors=True)

    def setUp(self):
        # The scratch directory goes under TMPDIR: a private one shows whether it was removed.
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="tmp_", dir=self.root))

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def bisect(self, *arguments, repo=None, cwd=None):
        environment = dict(os.environ, WCP_PYTHON=PYTHON, PYTHONDONTWRITEBYTECODE="1", TMPDIR=str(self.tmp))
        return subprocess.run([CLI, "bisect", *arguments], capture_output=True, text=True, env=environment,
                              cwd=cwd or repo or self.repo, timeout=1800, stdin=subprocess.DEVNULL)

    def assert_checkout_untouched(self, repo, head):
        self.assertEqual(_git(str(repo), "status", "--porcelain"), "")
        self.assertEqual(_git(str(repo), "rev-parse", "HEAD"), head)
        self.assertEqual(len(_git(str(repo), "worktree", "list", "--porcelain").split("\n\n")), 1,
                         _git(str(repo), "worktree", "list"))
        self.assertEqual(_git(str(repo), "for-each-ref", "refs/bisect"), "")
        self.assertFalse((repo / ".git" / "BISECT_LOG").exists())
        self.assertEqual(list(self.tmp.iterdir()), [], "the scratch directory was left behind")

    def short(self, number):
        return self.shas[number - 1][:7]

    # --- real bisections ------------------------------------------------------------------

    def test_names_commit_5_between_1_and_6_skipping_the_broken_commit_3(self):
        head = _git(str(self.repo), "rev-parse", "HEAD")
        json_path = self.tmp.parent / "bisect_1_6.json"
        result = self.bisect(self.shas[0], self.shas[5], BUDGET_PATH, "--json", str(json_path))
        output = result.stdout
        self.assertEqual(result.returncode, 0, output + result.stderr)
        self.assertIn(f"First bad commit: {self.short(5)} commit 5", output)
        self.assertIn("budget failed: app max_builds_per_module (measured 2, limit 1)", output)
        self.assertIn(f"Parent: {self.short(4)} commit 4 (good)", output)
        self.assertIn(f"Skipped:\n  {self.short(3)} commit 3: app: every sample failed", output)  # exits 1 early
        visited = [line.split()[:2] for line in output.split("Visited (in order):\n")[1].splitlines()
                   if line.startswith("  ") and not line.startswith("   ")]
        self.assertEqual(visited[:3], [["skip", self.short(3)], ["good", self.short(4)], ["bad", self.short(5)]])
        # The structure difference: one identity and one hash of module __main__ become two.
        self.assertIn("Structure (baseline -> candidate)", output)
        identities = next(line for line in output.splitlines() if line.strip().startswith("compiled identities"))
        self.assertEqual(identities.split()[2:5], ["1", "->", "2"])
        main_row = next(line for line in output.splitlines() if "__main__" in line and "->" in line)
        before, after = main_row.split("->")
        self.assertEqual(len(before.split()[-1].split(",")), 1, main_row)
        self.assertEqual(len(after.split()[0].split(",")), 2, main_row)
        self.assert_checkout_untouched(self.repo, head)

        with open(json_path, encoding="utf-8") as handle:
            report = json.load(handle)
        self.assertEqual((report["document"], report["version"]), ("bisect", 1))  # docs/documents.md
        self.assertEqual(report["result"], "first_bad")
        self.assertEqual(report["first_bad"]["sha"], self.shas[4])
        self.assertEqual(report["parent"]["sha"], self.shas[3])
        self.assertEqual([skip["sha"] for skip in report["skipped"]], [self.shas[2]])
        self.assertTrue(report["skipped"][0]["reason"].startswith("app: every sample failed"), report["skipped"])
        self.assertEqual([v["outcome"] for v in report["visited"]], ["skip", "good", "bad"])
        counts = {c["count"]: (c["parent"], c["first_bad"]) for c in report["structure"][0]["counts"]}
        self.assertEqual(counts["compiled identities"], (1, 2))
        main_module = next(m for m in report["structure"][0]["modules"] if m["module"].startswith("__main__"))
        self.assertEqual((len(main_module["parent_hashes"]), len(main_module["first_bad_hashes"])), (1, 2))

    def test_names_commit_5_between_1_and_8(self):
        head = _git(str(self.repo), "rev-parse", "HEAD")
        result = self.bisect(self.shas[0], self.shas[7], BUDGET_PATH, "--only", "app")
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn(f"First bad commit: {self.short(5)} commit 5", result.stdout)
        self.assertNotIn("Skipped:", result.stdout)
        self.assertIn("bisect-step:", result.stderr)  # progress, one line per visited commit
        self.assert_checkout_untouched(self.repo, head)

    def test_no_single_first_bad_commit_exits_1_and_says_why(self):
        head = _git(str(self.repo), "rev-parse", "HEAD")
        # BAD = commit 3 fails every sample: only a skipped commit is left (no Warp runs).
        skipped = self.bisect(self.shas[1], self.shas[2], BUDGET_PATH, "--quiet")
        self.assertEqual(skipped.returncode, 1, skipped.stdout + skipped.stderr)
        self.assertIn("only skipped commits are left to test", skipped.stdout)
        self.assertIn(f"{self.short(3)} commit 3 (skipped: app: every sample failed", skipped.stdout)
        # BAD = commit 4 passes: git lists it untested beside the skipped commit 3; bisect tests it.
        not_bad = self.bisect(self.shas[1], self.shas[3], BUDGET_PATH, "--quiet")
        self.assertEqual(not_bad.returncode, 1, not_bad.stdout + not_bad.stderr)
        self.assertIn(f"BAD {self.short(4)} commit 4 is not bad (good: every budget passed)", not_bad.stdout)
        self.assert_checkout_untouched(self.repo, head)

    # --- aborts and usage errors ----------------------------------------------------------

    def test_a_budget_check_cannot_read_aborts_with_its_exit_code(self):
        repo = self.root / "broken_budget"
        repo.mkdir()
        _git(str(repo), "init", "-q", "-b", "main")
        (repo / "perf").mkdir()
        (repo / "perf" / "compile_budget.yaml").write_text("version: 1\ncommands:\n  - name: app\n    bogus_key: 1\n")
        shas = []
        for commit in range(1, 4):
            (repo / "app.py").write_text(f"print({commit})\n")
            _git(str(repo), "add", "-A")
            _git(str(repo), "commit", "-q", "-m", f"commit {commit}")
            shas.append(_git(str(repo), "rev-parse", "HEAD"))
        result = self.bisect(shas[0], shas[2], BUDGET_PATH, repo=repo)
        self.assertEqual(result.returncode, USAGE, result.stdout + result.stderr)
        self.assertIn("the bisection was aborted at", result.stderr)
        self.assertIn("check exited 2", result.stderr)
        self.assertIn("compile_budget.yaml", result.stderr)  # check's own error, naming the file
        self.assert_checkout_untouched(repo, shas[2])

    def test_usage_errors_create_nothing(self):
        head = _git(str(self.repo), "rev-parse", "HEAD")
        outside = self.root / "outside.yaml"
        outside.write_text("version: 1\n")
        cases = [
            ([self.shas[0], self.shas[5], str(outside)], "outside the repository"),
            (["no-such-commit", self.shas[5], BUDGET_PATH], "GOOD 'no-such-commit' is not a commit"),
            ([self.shas[0], "0" * 40, BUDGET_PATH], "is not a commit"),
            ([self.shas[5], self.shas[0], BUDGET_PATH], "is not an ancestor of BAD"),
        ]
        for arguments, message in cases:
            with self.subTest(message=message):
                result = self.bisect(*arguments)
                self.assertEqual(result.returncode, USAGE, result.stdout + result.stderr)
                self.assertIn(message, result.stderr)
                self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)
                self.assert_checkout_untouched(self.repo, head)
        not_a_repo = self.bisect(self.shas[0], self.shas[5], BUDGET_PATH, cwd=self.tmp)
        self.assertEqual(not_a_repo.returncode, USAGE, not_a_repo.stderr)
        self.assertIn("not inside a git repository", not_a_repo.stderr)


if __name__ == "__main__":
    unittest.main()
