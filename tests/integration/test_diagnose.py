"""The diagnosis on every real fixture: each app's diagnosis names its mechanism with the
evidence of this run (module, old -> new hash, the kernel / option / overload that changed,
the user line that triggered the rebuild); the clean app and every fixed twin get no finding at
all — a false finding is a failed test. One measurement per fixture file (--samples 1), shared
by a class."""

import json
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import unittest

from probe_testlib import measured

CLI = os.environ.get("WCP_CLI", "warp-compile-probe")
SOURCE = pathlib.Path(os.environ.get("WCP_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
PYTHON = os.environ.get("WCP_PYTHON", "python3")
FIXTURES = SOURCE / "fixtures"


def environment(scratch):
    # A private XDG cache: no calibration from the developer's machine changes the estimates.
    return dict(os.environ, PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=str(scratch))


def line_of(path, pattern, occurrence=1):
    seen = 0
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        if re.search(pattern, text):
            seen += 1
            if seen == occurrence:
                return number
    raise AssertionError(f"{pattern!r} not found in {path}")


class Measured:
    """One measured fixture file: the measure report, its text output and its diagnosis."""

    def __init__(self, relative, scratch, samples=1):
        self.path = FIXTURES / relative
        stem = relative.replace("/", "_").removesuffix(".py")
        # Measured once per build tree and shared with the other tests that only read it.
        measure = measured([PYTHON, str(self.path)], samples=samples)
        if measure.returncode != 0:
            raise AssertionError(f"measure {relative} failed: {measure.stdout}\n{measure.stderr}")
        self.measure_output = measure.stdout
        self.report = measure.report
        self.report_path = report_path = measure.report_path
        diagnosis_path = scratch / f"{stem}.diagnosis.json"
        diagnose = subprocess.run([CLI, "diagnose", str(report_path), "--verbose", "--json", str(diagnosis_path)],
                                  capture_output=True, text=True, env=environment(scratch), timeout=120)
        if diagnose.returncode != 0:
            raise AssertionError(f"diagnose {relative} failed: {diagnose.stderr}")
        self.diagnose_output = diagnose.stdout
        self.diagnosis = json.loads(diagnosis_path.read_text())

    def ids(self):
        return sorted(finding["id"] for finding in self.diagnosis["findings"])

    def finding(self, mechanism):
        found = [f for f in self.diagnosis["findings"] if f["id"] == mechanism]
        if not found:
            raise AssertionError(f"no {mechanism} finding; diagnosis: {self.diagnose_output}")
        return found[0]

    def cold_hashes(self, module):
        return [e["hash"] for e in self.report["module_events"]
                if e["pass"] == "cold" and e["status"] == "compiled" and e["name"] == module]


class FixtureCase(unittest.TestCase):
    fixture = None
    app_findings = []
    fixed_findings = []
    samples = 1  # more where a finding compares samples

    @classmethod
    def setUpClass(cls):
        if cls.fixture is None:
            raise unittest.SkipTest("base class")
        cls.scratch = pathlib.Path(tempfile.mkdtemp(prefix="wcp_diagnose_"))
        cls.app = Measured(f"{cls.fixture}/app.py", cls.scratch, cls.samples)
        cls.fixed = (Measured(f"{cls.fixture}/fixed.py", cls.scratch, cls.samples)
                     if (FIXTURES / cls.fixture / "fixed.py").exists() else None)

    @classmethod
    def tearDownClass(cls):
        if cls.fixture is not None:
            shutil.rmtree(cls.scratch, ignore_errors=True)

    def evidence(self, mechanism):
        return "\n".join(self.app.finding(mechanism)["evidence"])

    def test_app_findings_are_exactly_the_expected_ones(self):
        self.assertEqual(self.app.ids(), sorted(self.app_findings), self.app.diagnose_output)

    def test_fixed_twin_has_no_finding_for_the_mechanism(self):
        if self.fixed is None:
            self.skipTest("no fixed twin")
        self.assertEqual(self.fixed.ids(), sorted(self.fixed_findings), self.fixed.diagnose_output)

    def test_measure_prints_the_same_diagnosis(self):
        self.assertIn("\nDiagnosis\n", self.app.measure_output)
        for mechanism in self.app_findings:
            self.assertIn(f"[{mechanism}]", self.app.measure_output)

    def test_every_fix_is_the_users_to_apply_or_says_it_is_not(self):
        for measured in filter(None, (self.app, self.fixed)):
            for finding in measured.diagnosis["findings"]:
                owner = finding["owner"]
                if finding["yours"]:
                    self.assertTrue(owner is None or owner["owner"] == "user", finding)
                    self.assertNotIn("Not yours", finding["fix"], finding)
                else:
                    self.assertRegex(finding["fix"], r"^Not yours to (change|restructure)", finding)

    def test_every_mechanism_is_accounted_for(self):
        accounted = {f["id"] for f in self.app.diagnosis["findings"]}
        accounted |= {r["id"] for r in self.app.diagnosis["ruled_out"]}
        accounted |= {n["id"] for n in self.app.diagnosis["not_checked"]}
        for number in range(1, 14):
            self.assertIn(f"CS-{number}", accounted)


class LateKernel(FixtureCase):
    fixture = "late_kernel"
    app_findings = ["CS-1"]
    fixed_findings = []

    def test_names_the_late_kernel_its_line_the_hashes_and_the_trigger(self):
        old, new = self.app.cold_hashes("__main__")
        kernel_line = line_of(self.app.path, r"^def offset") - 1  # the decorator line starts the function
        trigger = line_of(self.app.path, r"wp\.launch\(offset")
        self.assertIn(f"rebuild {old} -> {new} triggered at late_kernel/app.py:{trigger}", self.evidence("CS-1"))
        self.assertIn(f"kernel added after load: offset (late_kernel/app.py:{kernel_line})", self.evidence("CS-1"))
        self.assertEqual(self.app.finding("CS-1")["module"], "__main__")
        self.assertGreater(self.app.finding("CS-1")["cost_ms"], 0)


class LateOption(FixtureCase):
    fixture = "late_option"
    app_findings = ["CS-3"]
    fixed_findings = []

    def test_names_the_option_old_and_new_value_and_the_trigger(self):
        old, new = self.app.cold_hashes("__main__")
        trigger = line_of(self.app.path, r"wp\.launch\(saxpy", occurrence=2)
        self.assertIn(f"rebuild {old} -> {new} triggered at late_option/app.py:{trigger}", self.evidence("CS-3"))
        self.assertIn("option changed: max_unroll: 16 -> 4", self.evidence("CS-3"))


class LateGeneric(FixtureCase):
    fixture = "late_generic"
    app_findings = ["CS-6"]
    fixed_findings = []

    def test_names_the_new_instance_and_the_trigger(self):
        old, new = self.app.cold_hashes("__main__")
        trigger = line_of(self.app.path, r"wp\.launch\(double_it.*a64")
        self.assertIn(f"rebuild {old} -> {new} triggered at late_generic/app.py:{trigger}", self.evidence("CS-6"))
        self.assertIn("generic instance added: double_it[a1f8 (array1d of float64)]", self.evidence("CS-6"))


class ClosureFactory(FixtureCase):
    fixture = "closure_factory"
    app_findings = ["closure-churn"]
    fixed_findings = []

    def test_names_the_factory_line_every_rebuild_and_the_trigger(self):
        hashes = self.app.cold_hashes("__main__")
        self.assertEqual(len(hashes), 4)
        site = line_of(self.app.path, r"^    def scale") - 1
        trigger = line_of(self.app.path, r"wp\.launch\(k,")
        evidence = self.evidence("closure-churn")
        self.assertIn(f"closure_factory/app.py:{site} made 3 kernel(s) (make_scale__locals__scale)", evidence)
        for old, new in zip(hashes, hashes[1:]):
            self.assertIn(f"rebuild {old} -> {new} triggered at closure_factory/app.py:{trigger}", evidence)


class CacheDestroyed(FixtureCase):
    fixture = "cache_destroyed"
    app_findings = ["CS-2"]
    fixed_findings = []

    def test_names_the_replaced_cache_directory(self):
        evidence = self.evidence("CS-2")
        self.assertIn("the warm run still compiled 1 module(s)", evidence)
        self.assertIn("warp.config.kernel_cache_dir = /tmp/warp_cache_", evidence)


class UniqueModules(FixtureCase):
    fixture = "unique_modules"
    app_findings = ["CS-9"]
    fixed_findings = []

    def test_names_the_unique_modules(self):
        evidence = self.evidence("CS-9")
        self.assertRegex(evidence, r"3 one-kernel modules named <kernel>_<8 hex of its content>: "
                                   r"fill_[0-9a-f]{8}, offset_[0-9a-f]{8}, scale_[0-9a-f]{8}")


class FactoryUnique(FixtureCase):
    """A package's factories put constant kernels in module="unique"; its plugin is made from
    data. Two samples: "the same hash in every sample" needs more than one."""
    fixture = "factory_unique"
    app_findings = ["CS-9"]
    fixed_findings = []
    samples = 2

    def test_names_the_constant_factories_and_says_drop_unique_there(self):
        finding = self.app.finding("CS-9")
        self.assertTrue(finding["yours"])
        self.assertRegex(finding["trigger"], r"2 compiled modules named <kernel>_<8 hex> \(module=\"unique\"\), one "
                                             r"kernel each; 2 made from constants, 0 the run cannot tell about "
                                             r"\(1 more made from data at run time\)")
        self.assertRegex(self.evidence("CS-9"),
                         r"2 one-kernel modules named <kernel>_<8 hex of its content>: "
                         r"make_center_kernel__locals__center_kernel_[0-9a-f]{8}, "
                         r"make_scale_kernel__locals__scale_kernel_[0-9a-f]{8}")
        self.assertIn('Drop module="unique" from center_kernel (made by make_center_kernel() in stages/kernels.py), '
                      'scale_kernel (made by make_scale_kernel() in stages/kernels.py)', finding["fix"])
        self.assertIn("it captures nothing and had the same hash in all 2 samples", self.evidence("CS-9"))
        self.assertIn("it captures only literals and had the same hash in all 2 samples", self.evidence("CS-9"))

    def test_keeps_the_data_built_plugin_unique(self):
        finding = self.app.finding("CS-9")
        self.assertIn('Keep module="unique" on plugin_kernel (made by make_plugin_kernel() in stages/plugins.py)',
                      finding["fix"])
        self.assertRegex(self.evidence("CS-9"), r"module make_plugin_kernel__locals__plugin_kernel_[0-9a-f]{8} .*made "
                                                r"from data at run time: it captures an argument")
        self.assertNotIn("cannot tell whether", finding["fix"])

    def test_fixed_twin_keeps_only_the_plugin_unique(self):
        (ruled,) = [r for r in self.fixed.diagnosis["ruled_out"] if r["id"] == "CS-9"]
        self.assertRegex(ruled["signal"], r"rightly unique: make_plugin_kernel__locals__plugin_kernel_[0-9a-f]{8}")
        names = {e["name"] for e in self.fixed.report["module_events"] if e["pass"] == "cold"}
        self.assertIn("stages.kernels_fixed", names)

    def test_every_sample_recorded_its_identities(self):
        for report in (self.app.report, self.fixed.report):
            samples = report["sample_results"]
            self.assertEqual(len(samples), 2)
            self.assertEqual(samples[0]["cold_identities"], samples[1]["cold_identities"])


class GranularModules(FixtureCase):
    fixture = "granular_modules"
    app_findings = ["CS-4"]
    fixed_findings = []

    def test_names_the_package_and_estimates_without_the_header_build(self):
        finding = self.app.finding("CS-4")
        self.assertIn("package feature: 4 modules, each a separate build", "\n".join(finding["evidence"]))
        for name in ("feature.a", "feature.b", "feature.c", "feature.d"):
            self.assertIn(f"module {name} (", "\n".join(finding["evidence"]))
        pch = [e for e in self.app.report["module_events"] if e["built_pch"] and e["pass"] == "cold"]
        others = [e["ms"] for e in self.app.report["module_events"]
                  if e["pass"] == "cold" and not e["built_pch"] and e["status"] == "compiled"]
        self.assertEqual(len(pch), 1)
        self.assertAlmostEqual(finding["cost_ms"], 3 * min(others), places=3)
        self.assertIn("smallest module", finding["cost_basis"])


class UnusedBackward(FixtureCase):
    fixture = "unused_backward"
    app_findings = ["CS-10"]
    fixed_findings = []

    def test_names_the_module_and_its_backward_entry_points(self):
        evidence = self.evidence("CS-10")
        (new,) = self.app.cold_hashes("__main__")
        self.assertIn(f"module __main__ ({new}): 3 backward entry point(s) generated for 3 forward kernel(s)", evidence)
        self.assertIn("3 launch(es) recorded, none adjoint", evidence)


class OptionDeadline(FixtureCase):
    fixture = "option_deadline"
    app_findings = ["config-deadline"]
    fixed_findings = []

    def test_names_the_option_that_missed_its_deadline(self):
        evidence = self.evidence("config-deadline")
        self.assertIn("warp.config.enable_backward = False at load, but the module holds True", evidence)
        self.assertIn("backward entry point(s) still generated", evidence)


class GranularPair(FixtureCase):
    fixture = "granular_pair"
    app_findings = ["CS-4"]
    fixed_findings = []

    def test_two_modules_of_one_package_are_granular_by_their_cost(self):
        finding = self.app.finding("CS-4")
        self.assertIn("package reductions: 2 modules, each a separate build", "\n".join(finding["evidence"]))
        self.assertIn("of their cold time (threshold 20 %)", finding["trigger"])
        self.assertIn("2 − 1 modules × fixed per-module cost", finding["cost_basis"])
        self.assertFalse(finding["fix_changes_behaviour"], finding)


class LateImport(FixtureCase):
    fixture = "late_import"
    app_findings = ["config-deadline"]
    fixed_findings = []

    def test_the_fix_names_a_line_before_the_kernel_package_import(self):
        # "Right after `import warp`" would be line 16 here, after the package made its module:
        # the advice must name the import of the package (line 13), which runs first.
        fix = self.app.finding("config-deadline")["fix"]
        package_import = line_of(self.app.path, r"^import physics")
        self.assertLess(package_import, line_of(self.app.path, r"^import warp"))
        self.assertIn(f"late_import/app.py before line {package_import},", fix)
        self.assertIn("module (physics.solver)", fix)

    def test_the_fix_says_it_changes_the_kernels_built(self):
        finding = self.app.finding("config-deadline")
        self.assertTrue(finding["fix_changes_behaviour"], finding)
        self.assertIn("enable_backward changes the set of kernels built", finding["fix_behaviour"])


class SiblingModules(FixtureCase):
    fixture = "sibling_modules"
    app_findings = ["CS-4", "never-launched"]
    fixed_findings = []

    def test_sibling_files_of_one_folder_are_one_feature(self):
        evidence = self.evidence("CS-4")
        self.assertIn(f"folder {FIXTURES / 'sibling_modules'}: 3 modules, each a separate build", evidence)
        self.assertTrue(self.app.finding("CS-4")["yours"])

    def test_names_the_kernels_compiled_but_never_launched_with_an_estimate(self):
        finding = self.app.finding("never-launched")
        evidence = "\n".join(finding["evidence"])
        self.assertIn("module shading on cpu: 2 kernel(s) compiled, 1 launched; never launched: debug_view", evidence)
        self.assertIn("module export on cpu: 2 kernel(s) compiled, 1 launched; never launched: to_table", evidence)
        self.assertGreater(finding["cost_ms"], 0)
        self.assertIn("estimate", finding["cost_basis"])
        usage = {m["module"]: m for m in self.app.diagnosis["kernel_usage"]}
        self.assertEqual((usage["physics"]["kernels_compiled"], usage["physics"]["kernels_launched"]), (2, 2))

    def test_the_fixed_twin_builds_what_the_proposal_predicted(self):
        proposal = self.app.diagnosis["boundaries"]
        self.assertTrue(proposal["changes"])
        self.assertEqual(proposal["current_builds"], 3)
        self.assertEqual(proposal["proposed_builds"], 1)
        self.assertEqual(proposal["builds_removed"], 2)
        launched = [m for m in proposal["proposed_modules"] if m["launched"]]
        self.assertEqual(len(launched), 1)
        self.assertEqual(sorted(k.split(" ")[0] for k in launched[0]["kernels"]), ["collide", "integrate", "pack", "shade"])
        # fixed.py is the proposal applied by hand: measured, it builds what was predicted.
        fixed_builds = len([e for e in self.fixed.report["module_events"]
                            if e["pass"] == "cold" and e["status"] == "compiled"])
        self.assertEqual(fixed_builds, proposal["current_builds"] - proposal["builds_removed"])
        self.assertFalse(self.fixed.diagnosis["boundaries"]["changes"])
        self.assertIn("--boundaries", self.app.diagnose_output)

    def test_diagnose_boundaries_prints_the_proposal(self):
        report = self.app.report_path
        shown = subprocess.run([CLI, "diagnose", str(report), "--verbose", "--boundaries"], capture_output=True, text=True,
                               env=environment(self.scratch), timeout=120)
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertIn("Module boundaries (a proposal with its evidence, never an edit)", shown.stdout)
        self.assertIn("Removes:  2 build(s)", shown.stdout)
        self.assertIn("Compiled versus launched", shown.stdout)


class PrecompiledHeaderOff(FixtureCase):
    fixture = "pch_off"
    app_findings = ["CS-12", "CS-9"]
    fixed_findings = ["CS-9"]

    def test_names_the_setting_and_the_builds_that_paid_for_it(self):
        finding = self.app.finding("CS-12")
        self.assertRegex("\n".join(finding["evidence"]),
                         r"use_precompiled_headers is False and process \d+ built 3 CPU modules")
        self.assertIn("Turn the header back on", finding["fix"])
        self.assertIsNone(finding["cost_ms"])  # no calibration in the private cache: no number
        self.assertIn("calibrate --warp-cpu", finding["cost_basis"])
        self.assertIn("CS-12", {r["id"] for r in self.fixed.diagnosis["ruled_out"]})


class NamedModuleBackward(FixtureCase):
    fixture = "named_module_backward"
    app_findings = ["CS-10"]
    fixed_findings = []

    def test_the_fix_sets_the_option_on_the_named_module(self):
        finding = self.app.finding("CS-10")
        self.assertIn('wp.get_module("solver_kernels").options["enable_backward"] = False', finding["fix"])
        self.assertIn("module solver_kernels is named explicitly (its kernels are in Python module __main__)",
                      self.evidence("CS-10"))


class Clean(FixtureCase):
    fixture = "clean"
    app_findings = []

    def test_says_nothing_was_found_and_lists_what_was_ruled_out(self):
        self.assertIn("No compile-cost mechanism found.", self.app.diagnose_output)
        self.assertIn("Checked and ruled out", self.app.diagnose_output)
        self.assertIn("CS-10", {r["id"] for r in self.app.diagnosis["ruled_out"]})
        self.assertTrue(any("precompiled header" in fact for fact in self.app.diagnosis["facts"]))


if __name__ == "__main__":
    unittest.main()
