"""Security properties: commands run as argv (never a shell), private 0700 scratch
directories, and an environment that is the caller's plus only the documented variables."""
import json
import os
import re
import shutil
import stat
import tempfile
import textwrap
import unittest

from probe_testlib import PYTHON, SOURCE_DIR, run_cli

# Records its argv, environment and where its caches are, then exits 0.
DUMP = textwrap.dedent('''
    import json, os, sys
    cache = os.environ.get("WARP_CACHE_PATH", "")
    scratch = os.path.dirname(cache) if cache else ""
    info = {"argv": sys.argv[1:], "env": dict(os.environ), "scratch": scratch}
    if scratch:
        st = os.stat(scratch)
        info["scratch_mode"] = st.st_mode & 0o7777
        info["scratch_uid"] = st.st_uid
        info["cache_mode"] = os.stat(cache).st_mode & 0o7777
    with open(os.path.join(os.environ["DUMP_DIR"], f"run-{os.getpid()}.json"), "w") as handle:
        json.dump(info, handle)
''')

HOSTILE = ["a;b", "; touch {pwned}", "$(touch {pwned})", "`touch {pwned}`", "x && touch {pwned}", "| cat",
           "'quoted'", "\"double\"", "*", "~", "$HOME", "a\\b", ""]



def documented_variables():
    """What the tool adds to the caller's environment, read from the table in docs/cli.md
    ("measure"), so the documentation and the behaviour cannot drift apart unnoticed."""
    with open(os.path.join(SOURCE_DIR, "docs", "cli.md"), encoding="utf-8") as handle:
        text = handle.read()
    table = text[text.index("plus exactly these variables:"):]
    table = table[:table.index("\n\n", table.index("|"))]
    names = set()
    for line in table.splitlines():
        if line.startswith("| `"):
            names.update(re.findall(r"`([A-Z_]+)`", line.split("|")[1]))
    return names


DOCUMENTED = documented_variables()


class SecurityTestCase(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="wcp-security-")
        self.work = os.path.join(self.root, "work")
        self.dumps = os.path.join(self.root, "dumps")
        self.tmpdir = os.path.join(self.root, "tmp")
        for path in (self.work, self.dumps, self.tmpdir):
            os.makedirs(path)
        self.pwned = os.path.join(self.root, "pwned")
        with open(os.path.join(self.work, "dump.py"), "w", encoding="utf-8") as handle:
            handle.write(DUMP)
        self.env = {"DUMP_DIR": self.dumps, "TMPDIR": self.tmpdir}

    def tearDown(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def runs(self):
        found = []
        for name in sorted(os.listdir(self.dumps)):
            with open(os.path.join(self.dumps, name), encoding="utf-8") as handle:
                found.append(json.load(handle))
        return found

    def hostile(self):
        return [word.format(pwned=self.pwned) for word in HOSTILE]


class CommandsAreArgv(SecurityTestCase):
    def test_measure_passes_shell_syntax_literally(self):
        words = self.hostile()
        result = run_cli(["measure", "--verbose", "--quiet", "--samples", "1", "--cwd", self.work, "--", PYTHON, "dump.py", *words],
                         env=self.env)
        self.assertEqual(result.returncode, 0, result.stderr)
        runs = self.runs()
        self.assertEqual(len(runs), 2)  # cold + warm
        for run in runs:
            self.assertEqual(run["argv"], words)
        self.assertFalse(os.path.exists(self.pwned), "a shell ran part of the command")

    def budget(self, command_yaml):
        path = os.path.join(self.root, "budget.yaml")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(f"version: 1\ncommands:\n  - name: hostile\n    command: {command_yaml}\n"
                         f"    cwd: {self.work}\n    samples: 1\n")
        return path

    def test_budget_command_string_is_split_not_shelled(self):
        # A YAML string command is split into words like a shell would split them, and that is all:
        # `;`, `&&`, `|`, `$(...)` (written `$$(` since `$` starts ${NAME}) and backticks stay text.
        command = (f"'{PYTHON}' dump.py a;b ; touch {self.pwned} && touch {self.pwned} '|' cat "
                   f"'$$(touch {self.pwned})' \"`touch {self.pwned}`\" '*' x\\ y")
        budget = self.budget(json.dumps(command))
        result = run_cli(["check", budget, "--verbose", "--quiet"], env=self.env)
        self.assertIn(result.returncode, (0, 1), result.stderr)
        runs = self.runs()
        self.assertGreaterEqual(len(runs), 1)
        self.assertEqual(runs[0]["argv"], ["a;b", ";", "touch", self.pwned, "&&", "touch", self.pwned, "|", "cat",
                                           f"$(touch {self.pwned})", f"`touch {self.pwned}`", "*", "x y"])
        self.assertFalse(os.path.exists(self.pwned), "a shell ran part of the budget's command")

    def test_budget_command_list_is_passed_verbatim(self):
        words = [w.replace("$", "$$") for w in self.hostile()]
        budget = self.budget(json.dumps([PYTHON, "dump.py", *words]))
        result = run_cli(["check", budget, "--verbose", "--quiet"], env=self.env)
        self.assertIn(result.returncode, (0, 1), result.stderr)
        self.assertEqual(self.runs()[0]["argv"], self.hostile())
        self.assertFalse(os.path.exists(self.pwned))

    def test_budget_bare_dollar_paren_is_rejected_not_run(self):
        budget = self.budget(json.dumps(f"{PYTHON} dump.py $(touch {self.pwned})"))
        result = run_cli(["check", budget, "--verbose", "--quiet"], env=self.env)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("budget.yaml:", result.stderr)
        self.assertEqual(self.runs(), [])
        self.assertFalse(os.path.exists(self.pwned))


class ScratchAndEnvironment(SecurityTestCase):
    def measure_dump(self, extra_env=None):
        env = dict(self.env, **(extra_env or {}))
        result = run_cli(["measure", "--verbose", "--quiet", "--samples", "2", "--cwd", self.work, "--", PYTHON, "dump.py"], env=env)
        self.assertEqual(result.returncode, 0, result.stderr)
        return self.runs()

    def test_scratch_is_private_and_unpredictable(self):
        runs = self.measure_dump()
        self.assertEqual(len(runs), 4)
        scratches = {run["scratch"] for run in runs}
        self.assertEqual(len(scratches), 2, "each sample gets its own scratch directory")
        for run in runs:
            self.assertEqual(os.path.dirname(run["scratch"]), self.tmpdir, "scratch must live under $TMPDIR")
            self.assertEqual(run["scratch_mode"], 0o700, oct(run["scratch_mode"]))
            self.assertEqual(run["cache_mode"], 0o700, oct(run["cache_mode"]))
            self.assertEqual(run["scratch_uid"], os.getuid())
            suffix = os.path.basename(run["scratch"])[-6:]
            self.assertRegex(suffix, r"^[A-Za-z0-9]{6}$")  # mkdtemp's random part
        self.assertEqual(os.listdir(self.tmpdir), [])

    def test_environment_is_the_callers_plus_documented_variables(self):
        caller = dict(os.environ, **self.env, WCP_SECURITY_MARKER="kept as is", PYTHONPATH="/caller/path")
        runs = self.measure_dump({"WCP_SECURITY_MARKER": "kept as is", "PYTHONPATH": "/caller/path"})
        for run in runs:
            env = run["env"]
            added = set(env) - set(caller)
            self.assertLessEqual(added, DOCUMENTED, f"undocumented variables: {added - DOCUMENTED}")
            self.assertEqual(set(caller) - set(env), set(), "caller variables were dropped")
            changed = {name for name in caller if env.get(name) != caller[name]}
            self.assertLessEqual(changed, DOCUMENTED, f"caller variables changed: {changed - DOCUMENTED}")
            # PYTHONPATH: the instrumentation's directory first, then the caller's path intact.
            first, _, rest = env["PYTHONPATH"].partition(os.pathsep)
            self.assertTrue(first.startswith(run["scratch"]), first)
            self.assertEqual(rest, "/caller/path")
            for name in ("WARP_CACHE_PATH", "CUDA_CACHE_PATH", "WCP_EVENT_DIR"):
                self.assertTrue(env[name].startswith(run["scratch"] + os.sep), f"{name}={env[name]}")
            self.assertEqual(env["PYTHONDONTWRITEBYTECODE"], "1")


if __name__ == "__main__":
    unittest.main()
