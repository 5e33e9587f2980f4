"""`check BUDGET.yaml` end to end on real fixture runs (samples: 1), the configuration errors
it reports before running anything, --update-baseline, device skipping, and the downstream
example configured against the installed CMake package."""

import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import textwrap
import unittest
import xml.etree.ElementTree as ElementTree

CLI = os.environ.get("WCP_CLI", "warp-compile-probe")
SOURCE = pathlib.Path(os.environ.get("WCP_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
PYTHON = os.environ.get("WCP_PYTHON", "python3")
FIXTURES = SOURCE / "fixtures"
NOT_RUN = 77


def check(budget_file, *arguments, env=None):
    environment = dict(os.environ, WCP_PYTHON=PYTHON, PYTHONDONTWRITEBYTECODE="1")
    environment.update(env or {})
    return subprocess.run([CLI, "check", str(budget_file), "--verbose", "--quiet", *arguments], capture_output=True, text=True,
                          env=environment, timeout=900)


class BudgetsTest(unittest.TestCase):
    def setUp(self):
        self.directory = pathlib.Path(tempfile.mkdtemp(prefix="wcp_budgets_"))

    def tearDown(self):
        shutil.rmtree(self.directory, ignore_errors=True)

    def write(self, text, name="budgets.yaml"):
        path = self.directory / name
        path.write_text(textwrap.dedent(text).replace("FIXTURES", str(FIXTURES)))
        return path

    # --- configuration errors: exit 2 with FILE:LINE, before anything runs ---------------

    def test_unknown_key_is_a_configuration_error_with_line(self):
        path = self.write("""\
            commands:
              - name: clean
                command: ${WCP_PYTHON} app.py
                cwd: FIXTURES/clean
                max_module: 1
            """)
        result = check(path)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(f"{path}:5: unknown key 'max_module'", result.stderr)

    def test_duplicate_name_and_missing_baseline_are_errors(self):
        path = self.write("""\
            commands:
              - name: a
                command: [sh, -c, "true"]
              - name: a
                command: [sh, -c, "true"]
            """)
        result = check(path)
        self.assertEqual(result.returncode, 2)
        self.assertIn(f"{path}:4: duplicate command name 'a' (first at line 2)", result.stderr)
        path = self.write("""\
            commands:
              - name: a
                command: [sh, -c, "true"]
                baseline: reports/none.json
            """)
        result = check(path)
        self.assertEqual(result.returncode, 2)
        self.assertIn(f"{path}:4: command 'a': baseline report", result.stderr)

    def test_list_prints_merged_entries(self):
        path = self.write("""\
            defaults: {samples: 2, timeout: 30}
            commands:
              - name: one
                command: [sh, -c, "true"]
              - name: two
                command: [sh, -c, "true"]
                samples: 5
                device: cuda
            """)
        result = check(path, "--list")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.splitlines(), ["one;2;30;any", "two;5;30;cuda"])

    def test_cuda_entry_is_not_run_without_a_device(self):
        path = self.write("""\
            commands:
              - name: gpu
                command: [sh, -c, "exit 1"]
                device: cuda
            """)
        result = check(path, "--only", "gpu", env={"WCP_CUDA_DEVICE": "0"})
        self.assertEqual(result.returncode, NOT_RUN, result.stdout + result.stderr)
        self.assertIn("NOT RUN", result.stdout)

    # --- real fixture runs ---------------------------------------------------------------

    def test_update_baseline_then_a_second_check_passes(self):
        # The tolerance keeps this test about the mechanism, not about a shared machine's noise.
        path = self.write("""\
            defaults:
              samples: 1
              timeout: 120
            commands:
              - name: clean
                command: ["${WCP_PYTHON}", app.py]
                cwd: FIXTURES/clean
                max_modules: 1
                max_identities: 1
                max_builds_per_module: 1
                cold_seconds: 120
                compile_elapsed_seconds: 120
                warm_near_zero: true
                max_generated_source_bytes: 10000000
                max_lto_artifacts: 0
                baseline: reports/clean.json
                baseline_tolerance_percent: 200
            """)
        first = check(path, "--update-baseline", "--json", str(self.directory / "first.json"))
        self.assertEqual(first.returncode, 0, first.stdout + first.stderr)
        baseline = self.directory / "reports" / "clean.json"
        self.assertTrue(baseline.is_file())
        self.assertIn("baseline updated", first.stdout)
        self.assertEqual(json.loads(baseline.read_text())["modules"], 1)

        markdown = self.directory / "summary.md"
        second = check(path, "--json", str(self.directory / "second.json"), "--markdown", str(markdown))
        self.assertEqual(second.returncode, 0, second.stdout + second.stderr)
        result = json.loads((self.directory / "second.json").read_text())
        verdicts = {o["budget"]: o["verdict"] for o in result["commands"][0]["outcomes"]}
        self.assertEqual(set(verdicts), {"max_modules", "max_identities", "max_builds_per_module", "cold_seconds",
                                         "compile_elapsed_seconds", "warm_near_zero", "baseline",
                                         "max_generated_source_bytes", "max_lto_artifacts"})
        self.assertTrue(all(v in ("pass", "improved") for v in verdicts.values()), verdicts)
        self.assertIn("**All budgets passed.**", markdown.read_text())

    def test_churn_fixture_fails_with_the_mechanism_named(self):
        path = self.write("""\
            commands:
              - name: churn
                command: ${WCP_PYTHON} app.py
                cwd: FIXTURES/closure_factory
                samples: 1
                max_modules: 1
                max_identities: 1
                cold_seconds: 0.001
                max_generated_source_bytes: 1
                max_lto_artifacts: 0
            """)
        out = self.directory / "result.json"
        result = check(path, "--json", str(out))
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        verdicts = {o["budget"]: o for o in json.loads(out.read_text())["commands"][0]["outcomes"]}
        self.assertEqual(verdicts["max_modules"]["verdict"], "pass")
        self.assertEqual(verdicts["max_lto_artifacts"]["verdict"], "pass")
        for failing in ("max_identities", "max_builds_per_module", "cold_seconds", "max_generated_source_bytes"):
            self.assertEqual(verdicts[failing]["verdict"], "fail", failing)
        builds = verdicts["max_builds_per_module"]
        self.assertEqual(builds["measured"], 4)
        self.assertEqual(builds["offenders"][0]["module"], "__main__")
        self.assertIn("identity churn", builds["offenders"][0]["finding"])
        self.assertRegex(result.stdout, r"FAIL +max_builds_per_module +4 > 1")

    def test_warm_budget_catches_a_destroyed_cache(self):
        path = self.write("""\
            defaults: {samples: 1, timeout: 120}
            commands:
              - name: destroyed
                command: ${WCP_PYTHON} app.py
                cwd: FIXTURES/cache_destroyed
                warm_near_zero: true
            """)
        result = check(path)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertRegex(result.stdout, r"FAIL +warm_near_zero")
        self.assertIn("compiled again on a warm run", result.stdout)

    # --- warp_add_compile_budgets(WILL_FAIL / MUST_BREAK): must break for the right reason --

    def test_must_break_tests_pass_only_when_the_named_budget_breaks(self):
        # Programs that print Warp's load lines themselves (no Warp, so this costs seconds): one
        # module built twice with two hashes, once, or two modules once each; and one that crashes.
        line = "Module {} {} load on device 'cpu' took 5.00 ms  (compiled)"
        programs = {
            "churn.py": f"print({line.format('__main__', '1234abc')!r})\nprint({line.format('__main__', '5678def')!r})\n",
            "once.py": f"print({line.format('__main__', '1234abc')!r})\n",
            "two_modules.py": f"print({line.format('a', '1234abc')!r})\nprint({line.format('b', '5678def')!r})\n",
            "crash.py": "import os\nos.abort()\n",
        }
        for name, text in programs.items():
            (self.directory / name).write_text(text)
        entries = {"churn": "churn.py", "crash": "crash.py", "holds": "once.py", "wrong_budget": "two_modules.py"}
        gate = "defaults: {samples: 1, timeout: 60, device: cpu}\ncommands:\n" + "".join(
            f"  - {{name: {name}, command: ['${{WCP_PYTHON}}', {script}], max_modules: 1}}\n"
            for name, script in entries.items())
        (self.directory / "named.yaml").write_text(gate)
        (self.directory / "any.yaml").write_text(gate)
        (self.directory / "CMakeLists.txt").write_text(textwrap.dedent(f"""\
            cmake_minimum_required(VERSION 3.20)
            project(MustBreak LANGUAGES NONE)
            enable_testing()
            include([==[{SOURCE / "cmake" / "WarpCompileBudget.cmake"}]==])
            warp_add_compile_budgets(named.yaml MUST_BREAK max_builds_per_module CLI [==[{CLI}]==]
                                     ENVIRONMENT "WCP_PYTHON={PYTHON}")
            warp_add_compile_budgets(any.yaml WILL_FAIL CLI [==[{CLI}]==] ENVIRONMENT "WCP_PYTHON={PYTHON}")
            """))
        build = self.directory / "build"
        configured = subprocess.run(["cmake", "-S", str(self.directory), "-B", str(build)], capture_output=True,
                                    text=True, timeout=300)
        self.assertEqual(configured.returncode, 0, configured.stdout + configured.stderr)
        junit = self.directory / "junit.xml"
        ran = subprocess.run(["ctest", "--test-dir", str(build), "--no-tests=error", "--output-junit", str(junit)],
                             capture_output=True, text=True, timeout=600)
        self.assertNotEqual(ran.returncode, 0, ran.stdout)  # the crashes and the wrong reasons fail
        # CMake wraps its messages: compare the output with its whitespace collapsed.
        outcome = {case.get("name"): ("failed" if case.find("failure") is not None else case.get("status"),
                                      " ".join((case.findtext("system-out") or "").split()))
                   for case in ElementTree.parse(junit).getroot().iter("testcase")}
        self.assertEqual({name: status for name, (status, _) in outcome.items()}, {
            # Breaks max_builds_per_module (and nothing else): the gate bites, both ways of asking.
            "compile-budget/named/churn": "run", "compile-budget/any/churn": "run",
            # Every sample failed: the command failing is not a budget breaking.
            "compile-budget/named/crash": "failed", "compile-budget/any/crash": "failed",
            # Every budget held.
            "compile-budget/named/holds": "failed", "compile-budget/any/holds": "failed",
            # max_modules broke, not the budget named: a pass only when any budget may break.
            "compile-budget/named/wrong_budget": "failed", "compile-budget/any/wrong_budget": "run",
        }, ran.stdout)
        # JUnit keeps only 1 KiB of a passed test's output; ctest's own log keeps all of it.
        log = " ".join((build / "Testing" / "Temporary" / "LastTest.log").read_text().split())
        self.assertIn("'churn' broke as required (failed: max_builds_per_module)", log)
        self.assertIn("could not be measured (every sample failed", outcome["compile-budget/named/crash"][1])
        self.assertIn("every budget held", outcome["compile-budget/named/holds"][1])
        self.assertIn("max_builds_per_module did not fail (failed: max_modules;",
                      outcome["compile-budget/named/wrong_budget"][1])

    # --- the downstream example against the installed package ----------------------------

    def test_downstream_example_from_the_installed_package(self):
        build = pathlib.Path(CLI).resolve().parents[1]
        if not (build / "CMakeCache.txt").is_file() or shutil.which("cmake") is None:
            self.skipTest("needs the CLI's CMake build tree and cmake")
        result = subprocess.run([str(SOURCE / "ci" / "downstream_check.sh"), str(build)], capture_output=True,
                                text=True, env=dict(os.environ, WCP_PYTHON=PYTHON, WCP_CUDA_DEVICE="0"), timeout=900)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("downstream check passed", result.stdout)


if __name__ == "__main__":
    unittest.main()
