"""No sentence is cut in the default output of any command (issue 50, item 4).

A brief view holds short, complete sentences; it never ends a fix or an observation with "…" in
the middle. Every app of the fixture catalogue that runs on the CPU is measured once (the default `measure` screen,
which carries the diagnosis in brief) and diagnosed (the default `diagnose` view); three app →
fixed pairs are compared, and the fixture budgets are checked, each on its default screen. No
line of any of them may hold "…". The field-quick programs get the same scan from
tests/field/run_field.py."""

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
FIXTURES = SOURCE / "fixtures"
COMPARED = ("unique_pipeline", "closure_factory", "option_deadline")


def cut_lines(text):
    return [line for line in text.splitlines() if "…" in line]


class NoCutSentencesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = pathlib.Path(tempfile.mkdtemp(prefix="wcp_no_cut_"))
        cls.env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=str(cls.scratch / "cache"))
        # The apps this machine can run: a catalogue entry with `devices` names the ones it needs.
        cls.catalogue = [entry for entry in json.loads((FIXTURES / "catalog.json").read_text())
                         if "cpu" in entry.get("devices", ["cpu"])]
        cls.screens = {}  # "measure late_kernel/app.py" -> its default output
        cls.reports = {}
        for entry in cls.catalogue:
            scripts = [entry["app"]] + ([entry["fixed"]] if entry["name"] in COMPARED and entry.get("fixed") else [])
            for script in scripts:
                report = cls.scratch / (script.replace("/", "_") + ".json")
                result = cls.run_cli(["measure", "--samples", "1", "--quiet", "--json", str(report), "--", PYTHON,
                                      str(FIXTURES / script)])
                cls.screens[f"measure {script}"] = result.stdout
                cls.reports[script] = report
                cls.screens[f"diagnose {script}"] = cls.run_cli(["diagnose", str(report)]).stdout

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    @classmethod
    def run_cli(cls, args, codes=(0,)):
        result = subprocess.run([CLI, *args], capture_output=True, text=True, env=cls.env, cwd=SOURCE, timeout=900)
        if result.returncode not in codes:
            raise AssertionError(f"{args}: exit {result.returncode}\n{result.stdout}\n{result.stderr}")
        return result

    def test_measure_and_diagnose_screens_cut_nothing(self):
        self.assertEqual(len([name for name in self.screens if name.startswith("diagnose")]),
                         len(self.catalogue) + len(COMPARED))
        for name, text in self.screens.items():
            with self.subTest(screen=name):
                self.assertIn("Diagnosis", text)
                self.assertEqual(cut_lines(text), [], text)

    def test_each_finding_has_a_whole_fix_and_the_status_of_its_cause(self):
        for name, text in self.screens.items():
            if not name.startswith("diagnose"):
                continue
            with self.subTest(screen=name):
                lines = text.splitlines()
                headings = [i for i, line in enumerate(lines) if line.startswith("[")]
                for i in headings:
                    block = lines[i + 1:next((j for j in headings if j > i), len(lines))]
                    fixes = [line for line in block if line.lstrip().startswith("fix")]
                    causes = [line for line in block if line.startswith("  cause: ")]
                    self.assertTrue(fixes, "\n".join(lines[i:i + 8]))
                    self.assertEqual(len(causes), 1, "\n".join(lines[i:i + 8]))
                    status = causes[0][len("  cause: "):]
                    self.assertTrue(status.startswith(("confirmed — ", "inferred — ", "this run cannot tell — ")),
                                    causes[0])

    def test_compare_and_check_screens_cut_nothing(self):
        for name in COMPARED:
            entry = next(e for e in self.catalogue if e["name"] == name)
            with self.subTest(compare=name):
                result = self.run_cli(["compare", str(self.reports[entry["app"]]), str(self.reports[entry["fixed"]])],
                                      codes=(0, 1))
                self.assertIn("Verdict", result.stdout)
                self.assertEqual(cut_lines(result.stdout), [], result.stdout)
        budget = self.scratch / "budget.yaml"
        budget.write_text(f"""version: 1
commands:
  - name: unique_pipeline
    command: ["{PYTHON}", "app.py"]
    cwd: {FIXTURES / 'unique_pipeline'}
    samples: 1
    max_identities: 1
    warm_near_zero: true
    max_builds_per_module: 1
""")
        checked = self.run_cli(["check", str(budget)], codes=(0, 1))
        self.assertIn("FAIL", checked.stdout)  # it has offenders to explain
        self.assertEqual(cut_lines(checked.stdout), [], checked.stdout)


if __name__ == "__main__":
    unittest.main()
