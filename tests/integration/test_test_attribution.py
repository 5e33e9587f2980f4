"""Which test built what (issue 41, item 1), on real Warp through the real CLI.

fixtures/pytest_catalogue runs each catalogued app as one parametrized test; its
expected_tests.json says which test builds which modules and how often. Every cold build of
`measure` on it, plainly and under `pytest -n 2`, must be filed under that test (a build filed
under collection or import, or under another test, fails), the report's `tests` rows must add up
to the run's cold module work, and the screen ranks the tests. fixtures/unittest_suite shows
unittest's attribution: an import-phase build, and a test that defines a kernel inside itself
named as the trigger of the rebuild it causes.
"""

import json
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import unittest

CLI = os.environ.get("WCP_CLI", "warp-compile-probe")
SOURCE = pathlib.Path(os.environ.get("WCP_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
PYTHON = os.environ.get("WCP_PYTHON", "python3")
CATALOGUE = SOURCE / "fixtures" / "pytest_catalogue"
UNITTEST_SUITE = SOURCE / "fixtures" / "unittest_suite"
EXPECTED = json.loads((CATALOGUE / "expected_tests.json").read_text())["builds"]
SCRATCH = None


def setUpModule():
    global SCRATCH
    SCRATCH = pathlib.Path(tempfile.mkdtemp(prefix="wcp_test_attribution_"))


def tearDownModule():
    shutil.rmtree(SCRATCH, ignore_errors=True)


def measure(name, command):
    report = SCRATCH / f"{name}.json"
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=str(SCRATCH))
    env.pop("PYTEST_CURRENT_TEST", None)
    env.pop("PYTEST_XDIST_WORKER", None)
    run = subprocess.run([CLI, "measure", "--samples", "1", "--quiet", "--json", str(report), "--", *command],
                         capture_output=True, text=True, cwd=SOURCE, env=env, timeout=900)
    if run.returncode != 0:
        raise AssertionError(f"measure {name} failed: {run.stdout}\n{run.stderr}")
    return run.stdout, json.loads(report.read_text())


def block_lines(text):
    return text.splitlines()[:11]


def cold_builds(report):
    return [e for e in report["module_events"] if e["pass"] == "cold" and e["status"] == "compiled"]


def app_of(test):
    """The catalogued app a test id runs ("...::test_app_runs[late_kernel]" -> "late_kernel"); a
    phase of the suite as "(collection)"."""
    if not test["id"]:
        return "(" + test["phase"] + ")"
    found = re.fullmatch(r"fixtures/pytest_catalogue/test_fixture_apps\.py::test_app_runs\[(.+)\]", test["id"])
    return found.group(1) if found else test["id"]


def module_of(name):
    return re.sub(r"_[0-9a-f]{8}$", "", name)  # a module="unique" module without its content hash


class CatalogueAttribution:
    """Shared by the plain and the -n 2 runs."""

    XDIST = ()

    @classmethod
    def setUpClass(cls):
        cls.screen, cls.report = measure("catalogue" + "".join(cls.XDIST), [
            PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", *cls.XDIST, str(CATALOGUE)])

    def test_every_build_is_filed_under_the_test_that_made_it(self):
        built = {}
        for event in cold_builds(self.report):
            test = (event.get("detail") or {}).get("test")
            self.assertIsNotNone(test, f"{event['name']}: no test recorded")
            app = app_of(test)
            counts = built.setdefault(app, {})
            counts[module_of(event["name"])] = counts.get(module_of(event["name"]), 0) + 1
            self.assertIn(test["phase"], ("setup", "call", "teardown"), f"{event['name']} filed under {test}")
        self.assertEqual(built, EXPECTED)

    def test_rows_add_up_to_the_cold_module_work(self):
        rows = self.report["tests"]
        self.assertIsNotNone(rows)
        cold = self.report["sample_results"][0]["cold_module_ms"]
        self.assertAlmostEqual(sum(row["cold_module_ms"] for row in rows), cold, delta=cold * 0.01)
        self.assertEqual(sum(row["builds"] for row in rows), len(cold_builds(self.report)))
        self.assertEqual({app_of({"id": row["id"], "phase": row["suite_phase"]}) for row in rows}, set(EXPECTED))
        self.assertGreaterEqual(self.report["schema_version"], 11)

    def test_the_screen_ranks_the_tests(self):
        self.assertIn(f"Slowest tests by compile (5 of {len(EXPECTED)} test(s) that built", self.screen)
        ranked = sorted((row for row in self.report["tests"] if row["id"]), key=lambda row: -row["cold_module_ms"])
        # An id too long for its line continues on the next, broken only after a "::" or "/"
        # (issue 50: never inside a name); rejoined here without the break.
        block = ""
        for line in block_lines(self.screen[self.screen.index("Slowest tests by compile"):]):
            block += line.strip() if block.endswith(("::", "/")) else " " + line.strip()
        block += " "
        places = [block.find(row["id"] + " ") for row in ranked[:5]]
        self.assertTrue(all(place > 0 for place in places) and places == sorted(places), (places, block))
        self.assertTrue(all(len(line) <= 100 for line in self.screen.splitlines()), self.screen)


class CataloguePlain(CatalogueAttribution, unittest.TestCase):
    def test_no_worker_is_named(self):
        self.assertEqual({e["detail"]["test"]["worker"] for e in cold_builds(self.report)}, {""})


class CatalogueUnderXdist(CatalogueAttribution, unittest.TestCase):
    XDIST = ("-n", "2")

    def test_both_workers_are_named(self):
        self.assertEqual({e["detail"]["test"]["worker"] for e in cold_builds(self.report)}, {"gw0", "gw1"})
        self.assertEqual(len(self.report["processes"]), 2)


class UnittestSuite(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.screen, cls.report = measure("unittest", [PYTHON, "-m", "unittest", "discover", "-s", str(UNITTEST_SUITE),
                                                      "-t", str(UNITTEST_SUITE)])

    def test_import_and_each_test(self):
        filed = [(e["hash"], e["detail"]["test"]["id"], e["detail"]["test"]["phase"]) for e in cold_builds(self.report)]
        self.assertEqual([(test, phase) for _, test, phase in filed],
                         [("", "import"), ("test_solver.TestSolver.test_double", "call"),
                          ("test_solver.TestSolver.test_triple", "call")])
        rows = {row["id"]: row for row in self.report["tests"]}
        (rebuild,) = rows["test_solver.TestSolver.test_triple"]["rebuilt"]
        self.assertEqual(rebuild["earlier_test"], "test_solver.TestSolver.test_double")
        self.assertEqual((rebuild["earlier"]["hash"], rebuild["identity"]["hash"]), (filed[1][0], filed[2][0]))
        (rebuild,) = rows["test_solver.TestSolver.test_double"]["rebuilt"]
        self.assertEqual((rebuild["earlier_test"], rebuild["earlier_suite_phase"]), ("", "import"))
        self.assertIn("Outside tests: (import)", self.screen)

    def test_the_finding_names_the_test_that_rebuilt(self):
        path = SCRATCH / "unittest.json"
        run = subprocess.run([CLI, "diagnose", str(path), "--verbose"], capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("rebuilt by test_solver.TestSolver.test_double (call)", run.stdout)
        self.assertIn("rebuilt by test_solver.TestSolver.test_triple (call)", run.stdout)


if __name__ == "__main__":
    unittest.main()
