"""`diagnose` for a person (issue 29): on fixtures/unique_pipeline (three factory-made unique
stages, a plugin kernel that stays unique, a module option that never arrives, backward code
nobody uses) the default text fits one screen — at most 40 lines, none over 100 columns — and
says nothing `--verbose` does not; `--verbose` is the full text, every finding's trigger,
evidence and fix and every ruled-out and not-checked reason of `diagnose --json`; `--explain ID`
is one mechanism's full text, and an unknown id is a usage error. One measurement (--samples 1)."""

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
APP = SOURCE / "fixtures" / "unique_pipeline" / "app.py"
MS_FIGURE = re.compile(r"\d+(?:\.\d+)? (?:ms|s)\b")


class ScreenTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = pathlib.Path(tempfile.mkdtemp(prefix="wcp_screen_"))
        cls.env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=str(cls.scratch))
        cls.report = cls.scratch / "up.json"
        measured = subprocess.run([CLI, "measure", "--samples", "1", "--quiet", "--json", str(cls.report), "--",
                                   PYTHON, str(APP)], capture_output=True, text=True, cwd=SOURCE, env=cls.env,
                                  timeout=900)
        if measured.returncode != 0:
            raise AssertionError(f"measure failed: {measured.stdout}\n{measured.stderr}")
        cls.measure_default = measured.stdout
        diagnosis_path = cls.scratch / "diagnosis.json"
        cls.default = cls.diagnose(["--json", str(diagnosis_path)]).stdout
        cls.diagnosis = json.loads(diagnosis_path.read_text())
        cls.verbose = cls.diagnose(["--verbose"]).stdout

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    @classmethod
    def diagnose(cls, extra, expect_rc=0):
        result = subprocess.run([CLI, "diagnose", str(cls.report), *extra], capture_output=True, text=True,
                                env=cls.env, timeout=120)
        if result.returncode != expect_rc:
            raise AssertionError(f"diagnose {extra}: exit {result.returncode}, wanted {expect_rc}\n"
                                 f"{result.stdout}\n{result.stderr}")
        return result

    def ids(self, key):
        return [entry["id"] for entry in self.diagnosis[key]]

    def test_the_fixture_shows_its_three_faults(self):
        found = set(self.ids("findings"))
        self.assertTrue({"CS-9", "CS-10", "option-never-arrived"} <= found, found)
        self.assertGreater(len(self.diagnosis["findings"]), len(self.diagnosis["finding_groups"]),
                           "some findings should share a group")

    def test_default_fits_one_screen(self):
        lines = self.default.splitlines()
        self.assertLessEqual(len(lines), 40, self.default)
        for line in lines:
            self.assertLessEqual(len(line), 100, line)
        self.assertLess(len(self.default), len(self.verbose))

    def test_default_names_every_group_and_the_ids_without_findings(self):
        for group in self.diagnosis["finding_groups"]:
            self.assertIn(f"[{group['id']}]", self.default)
            for member in group["members"]:
                if member["module"]:
                    self.assertIn(member["module"], self.default)
        # Each list is one entry, wrapped: its continuation lines are indented.
        entries = re.split(r"\n(?! )", self.default)
        ruled_out = [entry for entry in entries if entry.startswith("Ruled out: ")]
        not_checked = [entry for entry in entries if entry.startswith("Not checked: ")]
        self.assertEqual(len(ruled_out), 1, self.default)
        self.assertEqual(len(not_checked), 1, self.default)
        for entry_id in self.ids("ruled_out"):
            self.assertIn(entry_id, ruled_out[0])
        for entry_id in self.ids("not_checked"):
            self.assertIn(entry_id, not_checked[0])
        self.assertIn("--verbose", self.default.splitlines()[-1] + self.default.splitlines()[-2])

    def test_default_says_nothing_verbose_does_not(self):
        catalogue_ids = set(self.ids("findings")) | set(self.ids("ruled_out")) | set(self.ids("not_checked"))
        for token in re.findall(r"\bCS-\d+\b|\b[a-z]+(?:-[a-z]+)+\b", self.default):
            if token in catalogue_ids:
                self.assertIn(token, self.verbose)
        for finding in self.diagnosis["findings"]:
            if finding["module"] and finding["module"] in self.default:
                self.assertIn(finding["module"], self.verbose)
        # A group's total is the one figure the default adds: the sum of its members' costs (JSON).
        totals = re.findall(r"total (?:≈ )?(" + MS_FIGURE.pattern + ")", self.default)
        grouped = [group["total_cost_ms"] for group in self.diagnosis["finding_groups"] if group["total_cost_ms"]]
        self.assertEqual(len(totals), len(grouped), self.default)
        without_totals = re.sub(r"total (?:≈ )?" + MS_FIGURE.pattern, "", self.default)
        for figure in MS_FIGURE.findall(without_totals):
            self.assertIn(figure, self.verbose, f"{figure} of the default text is not in --verbose")

    def test_no_text_for_a_person_shows_a_group_template(self):
        # The JSON keeps the template ("<N>", "<module>"); what a person reads lists the values.
        self.assertTrue(any("<N>" in group["fix"] for group in self.diagnosis["finding_groups"]))
        for text in (self.default, self.verbose, self.measure_default):
            for placeholder in ("<N>", "<module>", "<file>"):
                self.assertNotIn(placeholder, text)

    def test_verbose_is_the_full_text(self):
        for finding in self.diagnosis["findings"]:
            for text in [finding["trigger"], finding["fix"], *finding["evidence"]]:
                self.assertIn(text, self.verbose)
        for entry in self.diagnosis["ruled_out"]:
            self.assertIn(entry["signal"], self.verbose)
        for entry in self.diagnosis["not_checked"]:
            self.assertIn(entry["reason"], self.verbose)
        self.assertIn("Checked and ruled out", self.verbose)
        self.assertIn("Not checked in this run", self.verbose)

    def test_explain_shows_one_mechanism_in_full(self):
        explained = self.diagnose(["--explain", "CS-10"]).stdout
        cs10 = [finding for finding in self.diagnosis["findings"] if finding["id"] == "CS-10"]
        self.assertTrue(cs10)
        for finding in cs10:
            for text in [finding["trigger"], finding["fix"], finding["fix_behaviour"], *finding["evidence"]]:
                self.assertIn(text, explained)
        others = {finding["id"] for finding in self.diagnosis["findings"]} - {"CS-10"}
        for other in others:
            self.assertNotIn(f"[{other}]", explained)
        ruled = self.diagnosis["ruled_out"][0]
        self.assertIn(ruled["signal"], self.diagnose(["--explain", ruled["id"]]).stdout)

    def test_explain_of_an_unknown_id_is_a_usage_error(self):
        result = self.diagnose(["--explain", "CS-99"], expect_rc=2)
        self.assertIn("CS-99", result.stderr)
        self.assertEqual(result.stdout, "")

    def test_json_has_groups_and_a_schema_version(self):
        self.assertEqual(self.diagnosis["schema_version"], 2)
        members = [member["finding"] for group in self.diagnosis["finding_groups"] for member in group["members"]]
        self.assertEqual(sorted(members), list(range(len(self.diagnosis["findings"]))))
        for group in self.diagnosis["finding_groups"]:
            for member in group["members"]:
                self.assertEqual(self.diagnosis["findings"][member["finding"]]["id"], group["id"])


RECORDED = SOURCE / "tests" / "data" / "cuda-recorded" / "probe"
DECIMAL = re.compile(r"\d+\.\d+")
MECHANISM_ID = re.compile(r"\bCS-\d+\b")
BUDGET = """version: 1
defaults:
  samples: 1
  timeout: 300
  device: cpu
  env:
    PYTHONDONTWRITEBYTECODE: "1"
commands:
  - name: unique_pipeline
    command: {python} app.py
    cwd: {cwd}
    max_modules: 1
    max_identities: 10
    max_generated_source_bytes: 1000
"""


class CommandScreensTest(unittest.TestCase):
    """`measure`, `compare`, `check` and `report` for a person (issue 29, part 2): each prints one
    screen by default — the answer first, at most 40 lines of at most 100 columns (measure's whole
    output: its report and a brief of its diagnosis, one line per finding group and its fix, that
    points to `diagnose` for the rest) — that says nothing its `--verbose` does not, and
    `--verbose` is the full text the command printed before. compare and report read the
    recorded reports (so both texts come from the same input); measure and check measure
    unique_pipeline (twice each: default and --verbose)."""

    @classmethod
    def setUpClass(cls):
        cls.scratch = pathlib.Path(tempfile.mkdtemp(prefix="wcp_screens_"))
        cls.env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=str(cls.scratch))
        cls.report = cls.scratch / "up.json"
        app = [PYTHON, str(APP)]
        cls.measure = {
            "default": cls.run_cli(["measure", "--samples", "1", "--quiet", "--json", str(cls.report), "--", *app]),
            "verbose": cls.run_cli(["measure", "--verbose", "--samples", "1", "--quiet", "--", *app]),
        }
        cls.diagnose_default = cls.run_cli(["diagnose", str(cls.report)]).stdout
        diagnosis_path = cls.scratch / "up.diagnosis.json"
        cls.run_cli(["diagnose", str(cls.report), "--json", str(diagnosis_path)])
        cls.diagnosis = json.loads(diagnosis_path.read_text())
        recorded = [str(RECORDED / "closure_factory_app.json"), str(RECORDED / "closure_factory_fixed.json")]
        cls.compare = {mode: cls.run_cli(["compare", *extra, *recorded]) for mode, extra in
                       [("default", []), ("verbose", ["--verbose"])]}
        cls.results = {mode: cls.run_cli(["report", *extra, *recorded]) for mode, extra in
                       [("default", []), ("verbose", ["--verbose"])]}
        budget = cls.scratch / "budget.yaml"
        budget.write_text(BUDGET.format(python=PYTHON, cwd=APP.parent))
        cls.check = {mode: cls.run_cli(["check", str(budget), "--quiet", *extra], expect_rc=1) for mode, extra in
                     [("default", []), ("verbose", ["--verbose"])]}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    @classmethod
    def run_cli(cls, args, expect_rc=0):
        result = subprocess.run([CLI, *args], capture_output=True, text=True, cwd=SOURCE, env=cls.env, timeout=900)
        if result.returncode != expect_rc:
            raise AssertionError(f"{args}: exit {result.returncode}, wanted {expect_rc}\n{result.stdout}\n"
                                 f"{result.stderr}")
        return result

    def texts(self):
        return {"measure": (self.measure["default"].stdout, self.measure["verbose"].stdout),
                "compare": (self.compare["default"].stdout, self.compare["verbose"].stdout),
                "report": (self.results["default"].stdout, self.results["verbose"].stdout),
                "check": (self.check["default"].stdout, self.check["verbose"].stdout)}

    def test_measure_prints_a_brief_diagnosis_after_its_report(self):
        default = self.measure["default"].stdout
        self.assertNotIn("Checked and ruled out", default)
        self.assertIn("Checked and ruled out", self.measure["verbose"].stdout)
        report_part, diagnosis_part = default.split("\nDiagnosis\n")
        self.assertIn("`measure --verbose`", report_part.splitlines()[-1])
        # The same diagnosis as `diagnose` on the report it wrote: its bottleneck, one line and a
        # fix per group, yours first, and the counts of what it ruled out and could not check.
        diagnose_lines = self.diagnose_default.splitlines()
        self.assertIn(diagnose_lines[diagnose_lines.index("Diagnosis") + 1], diagnosis_part)
        headings = [line for line in diagnosis_part.splitlines() if line.startswith("  [")]
        # What the user can act on, in the order `actions` gives (yours first); groups in code they
        # do not own are one line per package there, not headings.
        groups = [self.diagnosis["finding_groups"][index] for index in self.diagnosis["actions"]["own_groups"]]
        for package in self.diagnosis["actions"]["packages"]:
            self.assertIn(f"{package['package']}: {package['findings']} finding", " ".join(diagnosis_part.split()))
        self.assertEqual([heading.split("]")[0][3:] for heading in headings], [group["id"] for group in groups],
                         default)
        for group in groups:
            self.assertIn(f"[{group['id']}]", self.diagnose_default)
        self.assertEqual(diagnosis_part.count("\n    fix: "), len(groups), default)
        # Each group's specific fact and its short fix, whole (wrapped between words, never cut
        # with "…"), and never a group template's blanks.
        flat = " ".join(diagnosis_part.split())
        self.assertNotIn("…", diagnosis_part, default)
        for group in groups:
            self.assertIn(" ".join(group["short_fix"].split()), flat, default)
            headlines = [group["headline"]] if group["headline"] else [m["headline"] for m in group["members"][:3]]
            for headline in headlines:
                self.assertIn(" ".join(headline.split()), flat, default)
        self.assertIn(f"{len(self.diagnosis['ruled_out'])} mechanism(s) ruled out, "
                      f"{len(self.diagnosis['not_checked'])} not checked", default)
        self.assertIn(f"`diagnose {self.report}`", " ".join(default.split()))

    def test_each_default_fits_one_screen(self):
        for command, (default, verbose) in self.texts().items():
            with self.subTest(command):
                lines = default.splitlines()
                self.assertLessEqual(len(lines), 40, default)
                for line in lines:
                    self.assertLessEqual(len(line), 100, line)
                self.assertLess(len(default), len(verbose))
                self.assertIn("--verbose", lines[-1] + (lines[-2] if len(lines) > 1 else ""))

    def test_each_default_says_nothing_verbose_does_not(self):
        modules = re.compile(r"\b[A-Za-z_]+__locals__[A-Za-z_]+_[0-9a-f]{8}\b|__main__(?:@[a-z:0-9]+)?")
        for command, (default, verbose) in self.texts().items():
            with self.subTest(command):
                for token in MECHANISM_ID.findall(default) + modules.findall(default):
                    self.assertIn(token, verbose)
                for group_id in re.findall(r"^ *\[([A-Za-z0-9-]+)\]", default, re.MULTILINE):
                    self.assertIn(f"[{group_id}]", verbose)
        # compare and report render one input twice: every figure of the screen is in the full text.
        for command in ("compare", "report"):
            default, verbose = self.texts()[command]
            for figure in DECIMAL.findall(default):
                self.assertIn(figure, verbose, f"{command}: {figure} of the default text is not in --verbose")
        # measure and check measured twice: the lines whose figures are counts match exactly.
        default, verbose = self.texts()["measure"]
        identities = [line for line in default.splitlines() if line.startswith("Identities ")]
        self.assertEqual(len(identities), 1, default)
        self.assertIn(identities[0], verbose)
        for label in ("Cold module work", "Compile elapsed", "Warm module work"):
            self.assertIn(label, default)
        default, verbose = self.texts()["check"]
        budget_lines = [line for line in default.splitlines() if re.match(r"  (PASS|FAIL) ", line)]
        self.assertEqual(len(budget_lines), 4, default)
        for line in budget_lines:
            self.assertIn(line, verbose.splitlines())

    def test_the_answer_comes_first(self):
        self.assertTrue(self.compare["default"].stdout.startswith("Verdict: IMPROVED"), self.compare["default"].stdout)
        self.assertTrue(self.results["default"].stdout.startswith("Verdict: IMPROVED"), self.results["default"].stdout)
        self.assertTrue(self.measure["default"].stdout.startswith("warp-compile-probe "))
        self.assertIn("Cold module work", "\n".join(self.measure["default"].stdout.splitlines()[:8]))
        # check's failing budgets keep the line CTest output shows.
        self.assertRegex(self.check["default"].stdout, r"FAIL +max_modules +4 > 1")

    def test_verbose_is_the_full_text(self):
        measure = self.measure["verbose"].stdout
        for heading in ("Cold wall", "Overlap factor", "Compiled module identities (cold run, slowest first)",
                        "\nDiagnosis\n", "Option receipts", "Not checked in this run"):
            self.assertIn(heading, measure)
        compare = self.compare["verbose"].stdout
        for heading in ("warning: the two reports measured different commands", "Structure (baseline -> candidate)",
                        "Module hashes (baseline -> candidate; * changed)", "\nVerdict: IMPROVED\n",
                        "see: docs/measurement.md#decision-rules"):
            self.assertIn(heading, compare)
        self.assertTrue(self.results["verbose"].stdout.startswith("# Compile-time results\n"))
        self.assertIn("## Builds per identity (cold run, ms)", self.results["verbose"].stdout)
        check = self.check["verbose"].stdout
        self.assertRegex(check, r"FAIL +max_modules +4 > 1")
        self.assertNotIn("check --verbose", check)
        self.assertEqual(self.compare["default"].returncode, self.compare["verbose"].returncode)


if __name__ == "__main__":
    unittest.main()
