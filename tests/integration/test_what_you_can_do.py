"""`measure`'s screen on a program whose compile time is all in a dependency (issue 40 item 4):
fixtures/dependency_only runs an installed library's example the way its users do (`python -m
simlib.examples.pendulum` from a site-packages with simlib 0.3.0's dist-info), and every module it
builds is the library's. The screen leads with what this user can do: the entry-point setting that
reaches the library's modules (wp.config.enable_backward = False, its saving labelled an estimate,
and the `levers` command that measures it) and keeping the kernel cache (the warm run's figure);
the library's findings are one line for its maintainers, never "things to do" that begin "Not
yours to change". One measurement (--samples 1, about 10 s on 2 cores)."""

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
SITE = SOURCE / "fixtures" / "dependency_only" / "site-packages"


class DependencyOnlyScreenTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = pathlib.Path(tempfile.mkdtemp(prefix="wcp_dependency_only_"))
        cls.env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=str(cls.scratch))
        cls.report = cls.scratch / "dep.json"
        measured = subprocess.run([CLI, "measure", "--samples", "1", "--quiet", "--json", str(cls.report), "--cwd",
                                   str(SITE), "--", PYTHON, "-m", "simlib.examples.pendulum"],
                                  capture_output=True, text=True, env=cls.env, timeout=600)
        if measured.returncode != 0:
            raise AssertionError(f"measure failed: {measured.stdout}\n{measured.stderr}")
        cls.screen = measured.stdout
        cls.brief = cls.screen.split("\nDiagnosis\n")[1]
        cls.flat = " ".join(cls.brief.split())
        diagnosis_path = cls.scratch / "diagnosis.json"
        subprocess.run([CLI, "diagnose", str(cls.report), "--json", str(diagnosis_path)], check=True,
                       capture_output=True, env=cls.env, timeout=120)
        cls.diagnosis = json.loads(diagnosis_path.read_text())

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def test_every_finding_is_the_librarys(self):
        self.assertTrue(self.diagnosis["findings"])
        for finding in self.diagnosis["findings"]:
            self.assertEqual(finding["owner"]["owner"], "dependency", finding)
            self.assertEqual(finding["owner"]["package"], {"name": "simlib", "version": "0.3.0"}, finding)

    def test_the_screen_leads_with_the_entry_point_setting_and_the_cache(self):
        actions = self.diagnosis["actions"]
        self.assertEqual([s["lever"] for s in actions["entry_point_settings"]], ["backward-off"])
        setting = actions["entry_point_settings"][0]
        self.assertEqual(sorted(setting["modules"]), ["simlib.contacts", "simlib.forces", "simlib.solver"])
        self.assertIn("What you can do (2):", self.brief)
        self.assertIn(setting["advice"], self.flat)
        self.assertIn("wp.config.enable_backward = False", self.flat)
        if setting["saving_ms"] is not None:
            self.assertTrue(setting["saving_is_estimate"])
            self.assertIn("(estimate", self.flat)
        else:
            self.assertIn("Saving not estimated", self.flat)
        self.assertIn(f"`warp-compile-probe levers -- {PYTHON} -m simlib.examples.pendulum` measures it", self.flat)
        cache = actions["keep_cache"]
        self.assertIsNotNone(cache, "the warm run succeeded and compiled nothing")
        self.assertIn("Keep the kernel cache between runs", self.flat)
        self.assertLess(cache["warm_wall_ms"], cache["cold_wall_ms"])

    def test_the_librarys_findings_are_one_line_for_its_maintainers(self):
        count = len(self.diagnosis["findings"])
        self.assertIn(f"simlib 0.3.0: {count} finding{'s' if count != 1 else ''} for its maintainers; "
                      "`diagnose` lists them", self.flat)
        self.assertNotIn("Not yours to change", self.brief)
        self.assertNotIn("  [", self.brief)
        self.assertLess(self.brief.index("What you can do"), self.brief.index("In code you do not own"))

    def test_the_screen_fits(self):
        lines = self.screen.splitlines()
        self.assertLessEqual(len(lines), 40, self.screen)
        for line in lines:
            self.assertLessEqual(len(line), 100, line)
        for placeholder in ("<N>", "<module>", "<file>"):
            self.assertNotIn(placeholder, self.screen)
        self.assertNotIn("…", self.brief)


if __name__ == "__main__":
    unittest.main()
