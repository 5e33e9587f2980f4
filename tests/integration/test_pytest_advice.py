"""Advice under pytest points into this user's suite, never into pytest (issue 50, items 2 and 3).

A checkout's tests of an installed Warp-based package: the package (its kernels never
differentiated) sits on PYTHONPATH under a site-packages folder, so every kernel is installed
code, and the suite (with a pytest.ini, so its folder is pytest's rootdir) only calls it. Run as
a maintainer runs it, `python -m pytest tests/linalg/test_….py`, the entry file is pytest's own
__main__.py. The advice must name the rootdir's conftest.py instead, nothing under pytest's
install may be called "your code", and the long test id is shown whole in the slowest-tests
table, broken only after a "::" or "/"."""

import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import unittest

CLI = os.environ.get("WCP_CLI", "warp-compile-probe")
PYTHON = os.environ.get("WCP_PYTHON", "python3")

PACKAGE = '''import warp as wp


@wp.kernel
def scale(values: wp.array(dtype=float), factor: float):
    i = wp.tid()
    values[i] = values[i] * factor


def run_scale(n=16):
    values = wp.ones(n, dtype=float, device="cpu")
    wp.launch(scale, dim=n, inputs=[values, 2.0], device="cpu")
    return values.numpy()
'''

TEST_FILE = '''import unittest

import wcpdemo


class DenseLUFactorisationRegressionTests(unittest.TestCase):
    def test_lu_solve_with_partial_pivoting_on_a_small_system(self):
        self.assertEqual(float(wcpdemo.run_scale()[0]), 2.0)
'''
TEST_ID = ("tests/linalg/test_dense_factorisations_math.py::DenseLUFactorisationRegressionTests::"
           "test_lu_solve_with_partial_pivoting_on_a_small_system")


class PytestAdviceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = pathlib.Path(tempfile.mkdtemp(prefix="wcp_pytest_advice_"))
        site = cls.scratch / "venv" / "lib" / "python3.11" / "site-packages"
        (site / "wcpdemo").mkdir(parents=True)
        (site / "wcpdemo" / "__init__.py").write_text(PACKAGE)
        cls.project = cls.scratch / "proj"
        (cls.project / "tests" / "linalg").mkdir(parents=True)
        (cls.project / "pytest.ini").write_text("[pytest]\n")
        (cls.project / TEST_ID.split("::")[0]).write_text(TEST_FILE)
        cls.env = dict(os.environ, PYTHONPATH=str(site), PYTHONDONTWRITEBYTECODE="1",
                       XDG_CACHE_HOME=str(cls.scratch / "cache"))
        cls.report = cls.scratch / "report.json"
        measured = subprocess.run([CLI, "measure", "--samples", "1", "--json", str(cls.report), "--", PYTHON, "-m",
                                   "pytest", "-q", "-p", "no:cacheprovider", TEST_ID.split("::")[0]],
                                  cwd=cls.project, env=cls.env, capture_output=True, text=True, timeout=900)
        if measured.returncode != 0:
            raise AssertionError(f"measure failed:\n{measured.stdout}\n{measured.stderr}")
        cls.measure_screen = measured.stdout
        cls.diagnosis_path = cls.scratch / "diagnosis.json"
        cls.diagnose_screen = cls.diagnose([]).stdout
        cls.diagnose_verbose = cls.diagnose(["--verbose", "--json", str(cls.diagnosis_path)]).stdout
        cls.diagnosis = json.loads(cls.diagnosis_path.read_text())

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    @classmethod
    def diagnose(cls, extra):
        result = subprocess.run([CLI, "diagnose", str(cls.report), *extra], env=cls.env, capture_output=True,
                                text=True, timeout=120)
        if result.returncode != 0:
            raise AssertionError(f"diagnose {extra}: exit {result.returncode}\n{result.stderr}")
        return result

    def outputs(self):
        return {"measure": self.measure_screen, "diagnose": self.diagnose_screen,
                "diagnose --verbose": self.diagnose_verbose, "diagnose --json": json.dumps(self.diagnosis)}

    def test_no_advice_points_into_pytest(self):
        for name, text in self.outputs().items():
            with self.subTest(output=name):
                self.assertNotIn("pytest/__main__.py", text)
                self.assertNotIn("_pytest/", text)
                self.assertNotIn("your code at pytest", text)

    def test_the_setting_goes_into_the_rootdirs_conftest(self):
        conftest = self.project / "conftest.py"
        wanted = f"Set wp.config.enable_backward = False at the top of {conftest}"
        # The screen wraps lines; compare with the breaks taken out.
        for name in ("measure", "diagnose"):
            with self.subTest(output=name):
                flat = " ".join(self.outputs()[name].split())
                self.assertIn(wanted, flat)
        # In the JSON, it is the user's action (the finding itself is a fact for the package's owner).
        self.assertIn(str(conftest), json.dumps(self.diagnosis["actions"]))
        self.assertFalse(conftest.exists())  # named, never written: the tool writes nothing into the project

    def test_the_test_id_is_shown_whole(self):
        lines = self.measure_screen.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("Slowest tests by compile"))
        rows = lines[start + 1:start + 3]
        # The id's parts, rejoined without the line break and the continuation's indent.
        joined = rows[0].split("build", 1)[1].strip() + rows[1].strip()
        self.assertEqual(joined, TEST_ID, "\n".join(rows))
        self.assertTrue(rows[0].rstrip().endswith(("::", "/")), rows[0])
        self.assertTrue(all(len(line) <= 100 for line in rows), "\n".join(rows))


if __name__ == "__main__":
    unittest.main()
