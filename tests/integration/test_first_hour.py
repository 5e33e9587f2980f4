"""The small things a new user meets in the first hour (issue 50, item 7), on the real CLI and
the real clean fixture: a mistyped subcommand or budget key gets "did you mean"; `check --list`
lists a budget file whose baselines do not exist yet (CMake's configure step runs it before any
baseline was made); a first `--update-baseline` run does not print "baseline no baseline yet";
every budget line keeps its columns aligned, however long its note."""

import json
import os
import pathlib
import pty
import re
import shutil
import subprocess
import tempfile
import unittest

CLI = os.environ.get("WCP_CLI", "warp-compile-probe")
SOURCE = pathlib.Path(os.environ.get("WCP_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
PYTHON = os.environ.get("WCP_PYTHON", "python3")
CLEAN = SOURCE / "fixtures" / "clean"
VERDICT_LINE = re.compile(r"^  (PASS|FAIL|IMPROVED|ACCEPTED|INCONCLUSIVE)\b")


def run(args, cwd, env, timeout=600):
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


class FirstHourTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = pathlib.Path(tempfile.mkdtemp(prefix="wcp_first_hour_"))
        cls.env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=str(cls.scratch / "cache"))
        cls.budget = cls.scratch / "budget.yaml"
        # warm_near_zero's note ("warm compiles 0; limit max(5% of cold …)") is long enough to
        # overflow the line; the baseline does not exist yet.
        cls.budget.write_text(f"""version: 1
commands:
  - name: clean
    command: ["{PYTHON}", "app.py"]
    cwd: {CLEAN}
    max_identities: 1
    warm_near_zero: true
    cold_seconds: 120
    max_generated_source_bytes: 100000
    baseline: {cls.scratch / 'baselines' / 'clean.json'}
""")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def test_a_mistyped_subcommand_gets_a_suggestion(self):
        for words, expected in ((["mesure", "--", PYTHON, "app.py"], "unknown subcommand 'mesure' (did you mean 'measure'?)"),
                                (["chek", "budget.yaml"], "unknown subcommand 'chek' (did you mean 'check'?)"),
                                (["history", "shwo"], "unknown subcommand 'shwo' of 'history' (did you mean 'show'?)"),
                                (["deploy"], "unknown subcommand 'deploy'")):
            with self.subTest(words=words):
                result = run([CLI, *words], self.scratch, self.env)
                self.assertEqual(result.returncode, 2, result.stderr)
                self.assertEqual(result.stderr.strip(), f"warp-compile-probe: error: {expected}")
        self.assertNotIn("did you mean", run([CLI, "deploy"], self.scratch, self.env).stderr)

    def test_a_mistyped_budget_key_gets_a_suggestion(self):
        typo = self.scratch / "typo.yaml"
        typo.write_text(self.budget.read_text().replace("max_identities", "max_identites"))
        result = run([CLI, "check", str(typo)], self.scratch, self.env)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(f"{typo}:6: unknown key 'max_identites' in a command entry (did you mean 'max_identities'?)",
                      result.stderr)

    def test_list_works_before_any_baseline_exists(self):
        budget = self.scratch / "unmade.yaml"
        budget.write_text(self.budget.read_text().replace("clean.json", "never-made.json"))
        listed = run([CLI, "check", str(budget), "--list"], self.scratch, self.env)
        self.assertEqual(listed.returncode, 0, listed.stderr)
        self.assertEqual(listed.stdout.strip().split(";")[0], "clean")
        # The check itself still refuses a missing baseline, before anything runs.
        checked = run([CLI, "check", str(budget)], self.scratch, self.env)
        self.assertEqual(checked.returncode, 2, checked.stderr)
        self.assertIn("does not exist (run `check --update-baseline` to create it)", checked.stderr)

    def test_a_first_baseline_run_reads_plainly_and_its_columns_align(self):
        result = run([CLI, "check", str(self.budget), "--update-baseline"], self.scratch, self.env)
        self.assertEqual(result.returncode, 0, f"{result.stdout}\n{result.stderr}")
        self.assertNotIn("baseline no baseline yet", result.stdout)
        # The first run's sampling line and the baseline's own line say it plainly.
        self.assertIn("baseline has none yet (this run becomes it)", result.stdout)
        self.assertRegex(result.stdout, r"ACCEPTED +baseline +[0-9.]+ s  \(none yet: this run becomes it\)")
        verdict_lines = [line for line in result.stdout.splitlines() if VERDICT_LINE.match(line)]
        budgets = {line.split()[1] for line in verdict_lines}
        self.assertTrue({"max_identities", "warm_near_zero", "cold_seconds", "baseline"} <= budgets, result.stdout)
        # Each budget's name starts in one column, and so does its value.
        name_columns = {line.index(line.split()[1]) for line in verdict_lines}
        value_columns = {line.index(line.split()[2], line.index(line.split()[1]) + len(line.split()[1]))
                         for line in verdict_lines}
        self.assertEqual(len(name_columns), 1, result.stdout)
        self.assertEqual(len(value_columns), 1, result.stdout)
        self.assertTrue(all(len(line) <= 100 for line in result.stdout.splitlines()), result.stdout)

    def test_compare_names_a_block_dim_move(self):
        app = self.scratch / "shift.py"
        app.write_text("""import sys
import warp as wp


@wp.kernel
def shift(values: wp.array(dtype=float)):
    i = wp.tid()
    values[i] = values[i] + 1.0


values = wp.zeros(64, dtype=float, device="cpu")
wp.launch(shift, dim=64, inputs=[values], device="cpu", block_dim=int(sys.argv[1]))
print(values.numpy()[0])
""")
        reports = []
        for block_dim in ("256", "64"):
            report = self.scratch / f"shift-{block_dim}.json"
            measured = run([CLI, "measure", "--samples", "1", "--quiet", "--json", str(report), "--", PYTHON, str(app),
                            block_dim], self.scratch, self.env)
            self.assertEqual(measured.returncode, 0, measured.stderr)
            reports.append(str(report))
        judgement = self.scratch / "judgement.json"
        compared = run([CLI, "compare", *reports, "--json", str(judgement)], self.scratch, self.env)
        self.assertEqual(compared.returncode, 1, compared.stdout)
        flat = " ".join(compared.stdout.split())
        self.assertIn("Verdict: INVALID", flat)
        self.assertIn("first divergence at launch #1: block_dim 256 → 64 for shift", flat)
        changes = json.loads(judgement.read_text())["workload"]["first_divergence"]["changes"]
        self.assertEqual(changes, [{"field": "block_dim", "baseline": "256", "candidate": "64"}])

    def test_progress_ticks_on_a_terminal_and_the_first_eta_comes_from_the_history(self):
        history = self.scratch / "history.sqlite"
        command = [CLI, "measure", "--samples", "1", "--history", str(history), "--", PYTHON, "app.py"]
        # In a log (a pipe): one line per pass, and no estimate before a pass of this run finished.
        first = run(command, CLEAN, self.env)
        self.assertEqual(first.returncode, 0, first.stderr)
        progress = [line for line in first.stderr.splitlines() if line.startswith("sample ")]
        self.assertEqual([line.split("  ")[0] for line in progress], ["sample 1/1 cold", "sample 1/1 warm"])
        self.assertIn("ETA unknown", progress[0])
        # On a terminal: the line is redrawn inside the cold pass, its time in the pass growing;
        # the first estimate is the history's (the run above).
        leader, follower = pty.openpty()
        try:
            second = subprocess.run(command, cwd=CLEAN, env=self.env, stdout=subprocess.PIPE, stderr=follower,
                                    timeout=600)
            os.close(follower)
            drawn = b""
            while True:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                drawn += chunk
        finally:
            os.close(leader)
        self.assertEqual(second.returncode, 0)
        cold_draws = [part for part in drawn.decode(errors="replace").split("\r") if "sample 1/1 cold" in part]
        # The first draw and at least one tick (how many more depends on how long this machine
        # takes to build the clean app: about 2 s here), the pass's time growing with each.
        self.assertGreaterEqual(len(cold_draws), 2, cold_draws)
        pass_seconds = [float(re.search(r"sample 1/1 cold\s+([0-9.]+) s", draw).group(1)) for draw in cold_draws]
        self.assertEqual(pass_seconds, sorted(set(pass_seconds)), cold_draws)
        self.assertIn("(from the history)", cold_draws[0])
        self.assertNotIn("ETA unknown", cold_draws[0])


if __name__ == "__main__":
    unittest.main()
