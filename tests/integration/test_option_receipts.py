"""Option receipts on the real fixtures (warp-lang on the CPU): the option-never-arrived finding
fires on each option app and never on its fixed twin; the receipts name what each write reached
(or why nothing); `compare` of app and twin shows which options changed, whether the hash
moved, and which write never arrived; and, the seed's own check, a change that adds an option
that never arrives leaves the hash unchanged and is called out. One measurement per file
(--samples 1), shared by the whole module."""

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
FIXTURES = SOURCE / "fixtures"
NEVER = "option-never-arrived"

SCRATCH = None
RUNS = {}


def environment():
    return dict(os.environ, PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=str(SCRATCH))


def line_of(path, pattern):
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        if re.search(pattern, text):
            return number
    raise AssertionError(f"{pattern!r} not found in {path}")


class Measured:
    """One measured program: its report, its diagnosis (text and JSON)."""

    def __init__(self, name, script):
        self.path = script
        report_path = SCRATCH / f"{name}.json"
        measure = subprocess.run([CLI, "measure", "--verbose", "--samples", "1", "--quiet", "--json", str(report_path), "--", PYTHON,
                                  str(script)], capture_output=True, text=True, cwd=SOURCE, env=environment(),
                                 timeout=900)
        if measure.returncode != 0:
            raise AssertionError(f"measure {name} failed: {measure.stdout}\n{measure.stderr}")
        self.report_path = report_path
        self.measure_output = measure.stdout
        self.report = json.loads(report_path.read_text())
        diagnosis_path = SCRATCH / f"{name}.diagnosis.json"
        diagnose = subprocess.run([CLI, "diagnose", str(report_path), "--verbose", "--json", str(diagnosis_path)],
                                  capture_output=True, text=True, env=environment(), timeout=120)
        if diagnose.returncode != 0:
            raise AssertionError(f"diagnose {name} failed: {diagnose.stderr}")
        self.diagnose_output = diagnose.stdout
        self.diagnosis = json.loads(diagnosis_path.read_text())

    def ids(self):
        return sorted(finding["id"] for finding in self.diagnosis["findings"])

    def findings(self, mechanism):
        return [f for f in self.diagnosis["findings"] if f["id"] == mechanism]

    def receipts(self, api=None):
        return [r for r in self.diagnosis["option_receipts"] if not r["write"]["by_warp"]
                and (api is None or r["write"]["api"] == api)]

    def hashes(self, module_pattern):
        return sorted(e["hash"] for e in self.report["module_events"]
                      if e["pass"] == "cold" and e["status"] == "compiled" and re.fullmatch(module_pattern, e["name"]))

    def names(self, module_pattern):
        return sorted({e["name"] for e in self.report["module_events"]
                       if e["pass"] == "cold" and re.fullmatch(module_pattern, e["name"])})


def measured(name):
    if name not in RUNS:
        fixture, which = name.rsplit("/", 1)
        RUNS[name] = Measured(name.replace("/", "_"), FIXTURES / fixture / f"{which}.py")
    return RUNS[name]


def compare(baseline, candidate):
    # One sample a side: the verdict on the clocks is noise, only the workload must hold (never
    # INVALID); the options section does not depend on the clocks at all.
    out = SCRATCH / f"{baseline.report_path.stem}-vs-{candidate.report_path.stem}.compare.json"
    result = subprocess.run([CLI, "compare", "--verbose", str(baseline.report_path), str(candidate.report_path), "--json", str(out)],
                            capture_output=True, text=True, env=environment(), timeout=120)
    return result, json.loads(out.read_text())


def setUpModule():
    global SCRATCH
    SCRATCH = pathlib.Path(tempfile.mkdtemp(prefix="wcp_receipts_"))


def tearDownModule():
    shutil.rmtree(SCRATCH, ignore_errors=True)


class UniqueFactory(unittest.TestCase):
    """set_module_options in a Python module whose kernels are all module="unique"."""

    @classmethod
    def setUpClass(cls):
        cls.app = measured("option_unique_factory/app")
        cls.fixed = measured("option_unique_factory/fixed")
        cls.removed = measured("option_unique_factory/removed")
        cls.stages = FIXTURES / "option_unique_factory" / "pipeline" / "stages.py"
        cls.unique = r"make_stage__locals__stage_[0-9a-f]{8}"

    def test_the_app_has_the_finding_with_its_call_site_and_the_fix(self):
        (finding,) = self.app.findings(NEVER)
        self.assertEqual(finding["module"], "pipeline.stages")
        evidence = "\n".join(finding["evidence"])
        line = line_of(self.stages, r"^\s*wp\.set_module_options")
        self.assertIn(f'wp.set_module_options({{"fast_math": True}}) on pipeline.stages at pipeline/stages.py:{line} '
                      "(in setup) reached no module build", evidence)
        for name in self.app.names(self.unique):
            self.assertIn(name, evidence)
        self.assertIn('@wp.kernel(module="unique", module_options={"fast_math": True})', finding["fix"])

    def test_the_first_fix_removes_the_write_and_applying_it_says_what_changes(self):
        (finding,) = self.app.findings(NEVER)
        line = line_of(self.stages, r"^\s*wp\.set_module_options")
        self.assertTrue(finding["fix"].startswith(
            f'Remove wp.set_module_options({{"fast_math": True}}) on pipeline.stages at pipeline/stages.py:{line} '
            "(in setup): it reached no build, so the program behaves the same without it."), finding["fix"])
        self.assertIn("Only if it was meant to apply:", finding["fix"])
        self.assertIn("That changes behaviour: fast_math changes floating-point results on CUDA", finding["fix"])
        self.assertFalse(finding["fix_changes_behaviour"], finding)

    def test_removing_the_write_builds_exactly_what_the_app_built(self):
        # The behaviour-keeping fix: no finding, and the same unique modules with the same hashes.
        self.assertEqual(self.removed.findings(NEVER), [])
        self.assertEqual(self.removed.names(self.unique), self.app.names(self.unique))
        self.assertEqual(sorted(self.removed.hashes(self.unique)), sorted(self.app.hashes(self.unique)))

    def test_the_twin_has_no_such_finding_and_otherwise_the_same_ones(self):
        self.assertEqual(self.fixed.findings(NEVER), [])
        self.assertEqual([i for i in self.app.ids() if i != NEVER], self.fixed.ids())

    def test_receipts(self):
        (missed,) = self.app.receipts("set_module_options")
        self.assertEqual(missed["outcome"], "reached_nothing")
        self.assertEqual(missed["finding"], NEVER)
        self.assertEqual(missed["missed"][0]["reason"], "kernels_in_unique_modules")
        self.assertEqual(sorted(missed["missed"][0]["elsewhere"]), self.app.names(self.unique))
        (arrived,) = self.fixed.receipts("kernel")
        self.assertEqual((arrived["outcome"], arrived["repeats"]), ("reached", 2))
        self.assertEqual(sorted(b["module"] for b in arrived["reached"]), self.fixed.names(self.unique))
        self.assertIn("NEVER ARRIVED  wp.set_module_options", self.app.measure_output)
        self.assertIn("Option receipts", self.fixed.diagnose_output)
        self.assertNotIn("NEVER ARRIVED", self.fixed.diagnose_output)

    def test_the_option_moves_the_hash_when_it_arrives(self):
        self.assertEqual(len(self.app.hashes(self.unique)), 2)
        self.assertFalse(set(self.app.hashes(self.unique)) & set(self.fixed.hashes(self.unique)))

    def test_compare_shows_the_change_arrived_in_the_twin_and_never_in_the_app(self):
        result, comparison = compare(self.app, self.fixed)
        self.assertNotEqual(comparison["verdict"], "INVALID", result.stdout)
        changes = comparison["options"]["changes"]
        self.assertEqual(sorted(c["module"] for c in changes),
                         ["make_stage__locals__stage (unique #1)", "make_stage__locals__stage (unique #2)"])
        for change in changes:
            self.assertEqual((change["key"], change["baseline"], change["candidate"], change["hash_moved"]),
                             ("fast_math", "False", "True", True))
        writes = {w["side"]: w for w in comparison["options"]["writes"]}
        self.assertEqual((writes["baseline"]["write"]["api"], writes["baseline"]["arrived"]),
                         ("set_module_options", False))
        self.assertEqual((writes["candidate"]["write"]["api"], writes["candidate"]["arrived"]), ("kernel", True))
        self.assertRegex(result.stdout, r"fast_math\s+False -> True\s+hash [0-9a-f]{7} -> [0-9a-f]{7} moved")
        self.assertIn("NEVER ARRIVED — pipeline.stages never loaded", result.stdout)


class NamedModule(unittest.TestCase):
    """set_module_options at the top of a file whose kernels are @wp.kernel(module="solver.core")."""

    @classmethod
    def setUpClass(cls):
        cls.app = measured("option_named_module/app")
        cls.fixed = measured("option_named_module/fixed")

    def test_the_app_has_the_finding_and_the_twin_none(self):
        (finding,) = self.app.findings(NEVER)
        line = line_of(FIXTURES / "option_named_module" / "solver" / "kernels.py", r"^wp\.set_module_options")
        evidence = "\n".join(finding["evidence"])
        self.assertIn(f"on solver.kernels at solver/kernels.py:{line} reached no module build", evidence)
        self.assertIn("were built in the explicitly named module(s) solver.core", evidence)
        self.assertIn('wp.set_module_options({"max_unroll": 2}, module="solver.core")', finding["fix"])
        self.assertEqual(self.fixed.findings(NEVER), [])
        self.assertEqual([i for i in self.app.ids() if i != NEVER], self.fixed.ids())

    def test_receipts_and_hashes(self):
        (missed,) = self.app.receipts("set_module_options")
        self.assertEqual(missed["missed"][0]["reason"], "kernels_in_named_modules")
        (arrived,) = self.fixed.receipts("set_module_options")
        self.assertEqual(arrived["outcome"], "reached")
        self.assertEqual([b["module"] for b in arrived["reached"]], ["solver.core"])
        self.assertEqual(arrived["reached"][0]["hash"], self.fixed.hashes("solver.core")[0])
        self.assertNotEqual(self.app.hashes("solver.core"), self.fixed.hashes("solver.core"))
        # The entry-point global reached the module too: one receipt line, no finding.
        (config,) = self.app.receipts("config")
        self.assertEqual((config["write"]["key"], config["outcome"]), ("enable_backward", "reached"))

    def test_compare_app_and_twin(self):
        result, comparison = compare(self.app, self.fixed)
        self.assertNotEqual(comparison["verdict"], "INVALID", result.stdout)
        (change,) = comparison["options"]["changes"]
        self.assertEqual((change["module"], change["key"], change["baseline"], change["candidate"], change["hash_moved"]),
                         ("solver.core", "max_unroll", "16", "2", True))
        self.assertIn("NEVER ARRIVED — solver.kernels never loaded; its kernels were built in solver.core", result.stdout)

    def test_an_added_option_that_never_arrives_leaves_the_hash_unchanged(self):
        # The seed's check, from a run without the call (a copy in scratch, never in the repository).
        variant = SCRATCH / "named_without_call"
        shutil.copytree(FIXTURES / "option_named_module", variant)
        kernels = variant / "solver" / "kernels.py"
        text = kernels.read_text()
        self.assertIn('\nwp.set_module_options({"max_unroll": 2})\n', text)
        kernels.write_text(text.replace('\nwp.set_module_options({"max_unroll": 2})\n', "\npass\n"))
        before = Measured("named_without_call", variant / "app.py")
        self.assertEqual(before.hashes("solver.core"), self.app.hashes("solver.core"))
        result, comparison = compare(before, self.app)
        self.assertNotEqual(comparison["verdict"], "INVALID", result.stdout)
        self.assertEqual(comparison["options"]["changes"], [])
        (written,) = comparison["options"]["writes"]
        self.assertEqual((written["side"], written["arrived"]), ("candidate", False))
        (module,) = written["modules"]
        self.assertEqual((module["module"], module["value_changed"], module["hash_moved"]), ("solver.core", False, False))
        self.assertRegex(result.stdout, r"solver\.core@cpu: max_unroll 16 -> 16, hash [0-9a-f]{7} unchanged — never arrived")


class GetModule(unittest.TestCase):
    """wp.get_module(name).options.update(...) before the first launch: it arrives."""

    @classmethod
    def setUpClass(cls):
        cls.app = measured("option_get_module/app")
        cls.fixed = measured("option_get_module/fixed")

    def test_no_finding_either_side_and_a_receipt_line(self):
        for run in (self.app, self.fixed):
            self.assertEqual(run.findings(NEVER), [], run.diagnose_output)
            self.assertEqual(run.findings("config-deadline"), [], run.diagnose_output)
        (receipt,) = self.app.receipts("module.options")
        self.assertEqual((receipt["write"]["target"], receipt["write"]["key"], receipt["outcome"]),
                         ("physics.integrate", "enable_backward", "reached"))
        self.assertEqual([b["module"] for b in receipt["reached"]], ["physics.integrate"])
        self.assertRegex(self.app.diagnose_output,
                         r'reached +wp\.get_module\("physics\.integrate"\)\.options\["enable_backward"\] = False '
                         r"\(option_get_module/app\.py:\d+\) -> physics\.integrate [0-9a-f]{7}")

    def test_the_same_option_set_two_ways_builds_the_same_module(self):
        self.assertEqual(self.app.hashes("physics.integrate"), self.fixed.hashes("physics.integrate"))
        result, comparison = compare(self.app, self.fixed)
        self.assertNotEqual(comparison["verdict"], "INVALID", result.stdout)
        self.assertEqual((comparison["options"]["changes"], comparison["options"]["writes"]), ([], []))
        self.assertIn("Options: every module present in both runs was built with the same options", result.stdout)


if __name__ == "__main__":
    unittest.main()


class LibraryOptionUnlaunched(unittest.TestCase):
    """A library's module-level option whose module this run never loads (issue 40): no finding,
    a receipt fact naming the module's own kernels, which take the option when it loads."""

    @classmethod
    def setUpClass(cls):
        cls.app = measured("library_option_unlaunched/app")

    def test_no_finding(self):
        self.assertEqual(self.app.findings(NEVER), [], self.app.diagnose_output)

    def test_the_receipt_names_the_kernels_that_take_it(self):
        (receipt,) = self.app.receipts("set_module_options")
        self.assertEqual(receipt["outcome"], "target_not_built")
        (miss,) = receipt["missed"]
        self.assertEqual(miss["reason"], "target_never_loaded")
        self.assertEqual(miss["registered_kernels"], 2)
        self.assertEqual(miss["kernels"], ["any_awake", "surface_velocity"])
        self.assertIn("solverlib.contacts was not built in this run; its 2 kernel(s) (any_awake, surface_velocity) "
                      "take the option when it is", self.app.diagnose_output)

    def test_the_report_carries_the_registry(self):
        registered = {m["name"]: m for m in self.app.report["option_record"]["modules_registered"]}
        self.assertEqual(registered["solverlib.contacts"]["kernel_count"], 2)
        self.assertGreaterEqual(self.app.report["schema_version"], 9)
