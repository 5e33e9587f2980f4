"""The fixture catalogue on two Warp API eras: the pinned Warp (1.19, `warp._src`, `log_level`)
and the older one ci/setup.sh installs in .venv-warp-old (1.9, `warp.context`, `verbose`).

The instrumentation adapts to the layout it finds (docs/instrumentation.md); this proves it on
real Warp rather than on fake packages: the same program gives the same module identities,
the same launch record and the same findings under both versions, except where the two Warp
versions really behave differently (listed below with the reason).
"""
import json
import os
import re
import subprocess
import tempfile
import unittest

from probe_testlib import (PYTHON, SOURCE_DIR, catalog, compiled_events, diagnose, fixture, measured, run_cli,
                           skip_other_device_fixtures)

OLD_PYTHON = os.environ.get("WCP_PYTHON_WARP_OLD", os.path.join(SOURCE_DIR, ".venv-warp-old", "bin", "python"))


def stable_name(module):
    """A module="unique" module is named <kernel>_<8 hex of its content hash>, and Warp's content
    hash covers Warp's own source, so the suffix differs between Warp versions by design."""
    return re.sub(r"_[0-9a-f]{8}$", "", module)


# ci/test.sh (.ci/run) runs a quick subset, ci/full.sh the whole catalogue (WCP_TEST_SCOPE, set
# by tests/CMakeLists.txt): the subset keeps the fixtures where the two eras' APIs differ most (a
# kernel added after load, a late generic overload, a closure, module="unique" names).
QUICK_FIXTURES = ("late_kernel", "late_generic", "closure_factory", "unique_modules")


def fixtures_in_scope():
    entries = catalog()
    if os.environ.get("WCP_TEST_SCOPE", "full") == "quick":
        entries = [entry for entry in entries if entry["name"] in QUICK_FIXTURES]
    return entries


def main_record(report):
    record = next(p["launch_record"] for p in report["processes"] if p["role"] == "main")
    signatures = [dict(signature, module=stable_name(signature["module"])) for signature in record["signatures"]]
    return dict(record, signatures=signatures)


@unittest.skipUnless(os.access(OLD_PYTHON, os.X_OK), f"no {OLD_PYTHON}: run ci/setup.sh")
class CatalogueOnTwoWarpVersions(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.version = {}
        for python in (PYTHON, OLD_PYTHON):
            cls.version[python] = subprocess.run([python, "-c", "import warp; print(warp.config.version)"],
                                                 capture_output=True, text=True, check=True).stdout.strip()
        cls.runs = {}
        for entry in fixtures_in_scope():
            for era, python in (("new", PYTHON), ("old", OLD_PYTHON)):
                # Shared with the other tests that only read these reports (and between this
                # test's quick and full variants).
                result = measured([python, fixture(entry["app"])])
                report = result.report
                cls.runs[(entry["name"], era)] = (result, report, diagnose(report) if report else None)

    def pairs(self):
        for entry in fixtures_in_scope():
            yield entry, self.runs[(entry["name"], "new")], self.runs[(entry["name"], "old")]

    def test_fixtures_for_other_devices_are_skipped_here(self):
        skip_other_device_fixtures(self)

    def test_both_eras_attach_and_say_which(self):
        self.assertNotEqual(self.version[PYTHON], self.version[OLD_PYTHON])
        for entry, (new_result, new, _), (old_result, old, _) in self.pairs():
            with self.subTest(fixture=entry["name"]):
                self.assertEqual(new_result.returncode, 0, new_result.stderr)
                self.assertEqual(old_result.returncode, 0, old_result.stderr)
                self.assertEqual(new["warp_version"], self.version[PYTHON])
                self.assertEqual(old["warp_version"], self.version[OLD_PYTHON])
                self.assertEqual(new["instrumentation"]["warp_api"], "warp._src")
                self.assertEqual(old["instrumentation"]["warp_api"], "warp.context")
                self.assertEqual(old["instrumentation"]["missing"], [])
                self.assertEqual(new["instrumentation"]["missing"], [])

    def test_same_identities_and_rebuilds(self):
        for entry, (_, new, _), (_, old, _) in self.pairs():
            with self.subTest(fixture=entry["name"]):
                expect = entry["expect"]["app"]
                for report in (new, old):
                    self.assertEqual(report["modules"], expect["distinct_modules"])
                    self.assertEqual(len(compiled_events(report, "cold")), expect["cold_compiled_modules"])
                    self.assertEqual(len(compiled_events(report, "warm")), expect["warm_compiles"])
                # Hashes differ between versions (Warp hashes its own source); how many each
                # module has does not.
                def hashes_per_module(report):
                    per = {}
                    for event in compiled_events(report, "cold"):
                        per.setdefault(stable_name(event["name"]), set()).add(event["hash"])
                    return sorted((name, len(hashes)) for name, hashes in per.items())
                self.assertEqual(hashes_per_module(new), hashes_per_module(old))

    def test_same_launch_record(self):
        for entry, (_, new, _), (_, old, _) in self.pairs():
            with self.subTest(fixture=entry["name"]):
                self.assertEqual(main_record(new), main_record(old))
                self.assertEqual(new["launch_count"], entry["expect"]["app"]["launches"])

    def test_same_findings(self):
        for entry, (_, _, new), (_, _, old) in self.pairs():
            with self.subTest(fixture=entry["name"]):
                def findings(diagnosis):
                    return sorted((f["id"], stable_name(f["module"]), f["yours"]) for f in diagnosis["findings"])
                self.assertEqual(findings(new), findings(old))

    def test_a_cross_version_compare_judges_the_compile_not_the_workload(self):
        # Upgrading Warp is a change users measure: the same program on both versions is the
        # same workload, so the verdict is about time, never INVALID.
        _, new, _ = self.runs[("late_kernel", "new")]
        _, old, _ = self.runs[("late_kernel", "old")]
        with tempfile.TemporaryDirectory() as directory:
            paths = []
            for name, report in (("old", old), ("new", new)):
                paths.append(os.path.join(directory, name + ".json"))
                with open(paths[-1], "w", encoding="utf-8") as handle:
                    json.dump(report, handle)
            result = run_cli(["compare", "--verbose", *paths])
        self.assertNotIn("INVALID", result.stdout)
        self.assertIn(result.returncode, (0, 1), result.stderr)


if __name__ == "__main__":
    unittest.main()
