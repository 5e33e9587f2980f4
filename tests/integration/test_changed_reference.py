"""The cause of a rebuild whose kernels kept their names (issue 40, item 2), on real Warp.

fixtures/generated_function: a library generates `sdf` into the caller's module with a captured
radius; the second launch rebuilds `__main__`. The load snapshots (schema 10) record the
functions Warp hashed and the values each function's code names, so the diagnosis names the
function and its changed value, never a kernel as if it were added (CS-1). There is no fixed
twin: each captured radius is compiled in, and the radius as a kernel parameter (one build)
changes the launches.
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
FIXTURE = SOURCE / "fixtures" / "generated_function"
SCRATCH = None


def setUpModule():
    global SCRATCH
    SCRATCH = pathlib.Path(tempfile.mkdtemp(prefix="wcp_changed_reference_"))


def tearDownModule():
    shutil.rmtree(SCRATCH, ignore_errors=True)


def measure(which):
    report = SCRATCH / f"{which}.json"
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=str(SCRATCH))
    run = subprocess.run([CLI, "measure", "--samples", "1", "--quiet", "--json", str(report), "--", PYTHON,
                          str(FIXTURE / f"{which}.py")], capture_output=True, text=True, cwd=SOURCE, env=env,
                         timeout=900)
    if run.returncode != 0:
        raise AssertionError(f"measure {which} failed: {run.stdout}\n{run.stderr}")
    diagnosis = SCRATCH / f"{which}.diagnosis.json"
    subprocess.run([CLI, "diagnose", str(report), "--json", str(diagnosis)], check=True, capture_output=True,
                   env=env, timeout=120)
    return run.stdout, json.loads(report.read_text()), json.loads(diagnosis.read_text())


class GeneratedFunction(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.screen, cls.report, cls.diagnosis = measure("app")

    def ids(self, diagnosis):
        return sorted(finding["id"] for finding in diagnosis["findings"])

    def test_names_the_function_and_its_value_not_a_new_kernel(self):
        self.assertNotIn("CS-1", self.ids(self.diagnosis))
        (finding,) = [f for f in self.diagnosis["findings"] if f["id"] == "changed-reference"]
        self.assertEqual(finding["module"], "__main__")
        self.assertEqual(finding["owner"]["owner"], "user")
        self.assertIn("function sphere_sdf__locals__sdf (generated_function/shapelib.py:", finding["headline"])
        self.assertIn("`radius` 1.0 -> 2.0", finding["headline"])
        self.assertIn("rebuilt with it, unchanged: scale", finding["headline"])
        self.assertIn("Each value of `radius`", finding["short_fix"])
        self.assertNotIn("module of its own", finding["short_fix"])

    def test_the_screen_shows_the_cause(self):
        self.assertIn("[changed-reference]", self.screen)
        self.assertIn("`radius` 1.0 -> 2.0", self.screen)

    def test_the_snapshots_carry_functions_and_objects(self):
        loads = [e for e in self.report["module_events"] if e["name"] == "__main__" and e["pass"] == "cold"]
        self.assertEqual(len(loads), 2)
        self.assertGreaterEqual(self.report["schema_version"], 10)
        (before,), (after,) = ([f for f in load["detail"]["functions"] if f["key"].endswith("sdf")] for load in loads)
        self.assertEqual(before["constants"], {"radius": "1.0"})
        self.assertEqual(after["constants"], {"radius": "2.0"})
        self.assertNotEqual(before["hash"], after["hash"])
        objects = [{k["key"]: k["object"] for k in load["detail"]["kernels"]} for load in loads]
        self.assertEqual(objects[0], objects[1])  # the same kernel objects, with new content


if __name__ == "__main__":
    unittest.main()
