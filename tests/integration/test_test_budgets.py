"""Test budgets end to end (docs/budgets.md#test-budgets): `check` on a real pytest suite, the
fixture catalogue, with per-test limits a test breaks: the failure names that test, in the
text, the JSON and the CTest measurements; a limit every test keeps passes."""

import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import textwrap
import unittest

CLI = os.environ.get("WCP_CLI", "warp-compile-probe")
SOURCE = pathlib.Path(os.environ.get("WCP_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
PYTHON = os.environ.get("WCP_PYTHON", "python3")
FIXTURES = SOURCE / "fixtures"

# closure_factory builds its module three times (a closure re-made per call); clean builds once.
SELECTION = "clean or closure_factory"
CHURNING_TEST = "test_fixture_apps.py::test_app_runs[closure_factory]"


class TestBudgetsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = pathlib.Path(tempfile.mkdtemp(prefix="wcp_test_budgets_"))
        budget = cls.directory / "budgets.yaml"
        budget.write_text(textwrap.dedent(f"""\
            commands:
              - name: catalogue
                command: [{PYTHON}, -m, pytest, -q, -p, no:cacheprovider, -k, "{SELECTION}", test_fixture_apps.py]
                cwd: {FIXTURES / "pytest_catalogue"}
                samples: 1
                allow_rebuilds: {{fixture_closure_factory: "the fixture's own churn"}}
                max_test_builds: 1
                max_test_cold_seconds: 600
                no_builds_after: collection
            """))
        environment = dict(os.environ, WCP_PYTHON=PYTHON, PYTHONDONTWRITEBYTECODE="1")
        cls.result = subprocess.run([CLI, "check", str(budget), "--verbose", "--json", str(cls.directory / "out.json")],
                                    capture_output=True, text=True, env=environment, timeout=900)
        cls.document = json.loads((cls.directory / "out.json").read_text()) if (cls.directory / "out.json").exists() else None

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.directory, ignore_errors=True)

    def outcome(self, budget):
        self.assertIsNotNone(self.document, self.result.stderr)
        for command in self.document["commands"]:
            for outcome in command["outcomes"]:
                if outcome["budget"] == budget:
                    return outcome
        self.fail(f"no outcome {budget}: {self.result.stdout}")

    def test_the_check_fails_on_a_test_budget(self):
        self.assertEqual(self.result.returncode, 1, self.result.stdout + self.result.stderr)

    def test_max_test_builds_names_the_churning_test(self):
        builds = self.outcome("max_test_builds")
        self.assertEqual(builds["verdict"], "fail")
        tests = [offender["test"] for offender in builds["offenders"]]
        self.assertEqual(len(tests), 1, builds)
        self.assertTrue(tests[0].endswith(CHURNING_TEST), tests)
        self.assertIn(f"test {tests[0]}", self.result.stdout)

    def test_a_limit_every_test_keeps_passes(self):
        self.assertEqual(self.outcome("max_test_cold_seconds")["verdict"], "pass")

    def test_builds_inside_tests_break_no_builds_after_collection(self):
        late = self.outcome("no_builds_after")
        self.assertEqual(late["verdict"], "fail")
        named = {offender["test"].rsplit("::", 1)[-1] for offender in late["offenders"]}
        self.assertEqual(named, {"test_app_runs[clean]", "test_app_runs[closure_factory]"}, late)


if __name__ == "__main__":
    unittest.main()
