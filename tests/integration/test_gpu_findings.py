"""The catalogue's CUDA findings expectations (fixtures/catalog.json `expect_cuda.<role>.findings`)
and the GPU check's comparison of them (ci/gpu/checks/findings.py), on this CPU machine.

The diagnosis the real CLI gives today of the recorded H200 runs (tests/data/cuda-recorded/probe:
ten catalogued fixtures, app and twin) must agree with the catalogue, so the expectations of
those ten are real GPU behaviour and not guesses; the comparison must tell an extra, a missing
finding, a wrong rebuild count and an unnamed cause apart. The five CUDA-only fixtures have no
recording yet: the GPU run (ci/gpu/run.sh, check findings/<name>) is what checks theirs.
"""
import copy
import json
import os
import subprocess
import sys
import tempfile
import unittest

from probe_testlib import CLI, SOURCE_DIR, catalog_entries, expectations, runs_on

sys.path.insert(0, os.path.join(SOURCE_DIR, "ci", "gpu", "checks"))
from findings import mismatches  # noqa: E402

RECORDED = os.path.join(SOURCE_DIR, "tests", "data", "cuda-recorded", "probe")


def diagnose(report):
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "diagnosis.json")
        result = subprocess.run([CLI, "diagnose", report, "--verbose", "--json", out], capture_output=True, text=True, timeout=120,
                                env=dict(os.environ, XDG_CACHE_HOME=scratch), stdin=subprocess.DEVNULL)
        if result.returncode != 0:
            raise AssertionError(f"diagnose {report}: {result.stderr}")
        with open(out, encoding="utf-8") as handle:
            return json.load(handle)


class CatalogueShape(unittest.TestCase):
    def test_every_fixture_on_cuda_has_findings_for_each_role_with_known_ids(self):
        known = set()
        for name in ("late_kernel_app.json", "clean_app.json"):
            diagnosis = diagnose(os.path.join(RECORDED, name))
            known |= {item["id"] for part in ("findings", "ruled_out", "not_checked") for item in diagnosis[part]}
        self.assertIn("CS-13", known)
        for entry in catalog_entries():
            if not runs_on(entry, "cuda"):
                continue
            for role in ("app", "fixed"):
                if not entry.get(role):
                    continue
                with self.subTest(fixture=entry["name"], role=role):
                    expect = expectations(entry, role, "cuda")
                    self.assertIn("findings", expect)
                    self.assertLessEqual(set(expect["findings"]), known, expect["findings"])
                    if role == "app" and entry["mechanism"] and entry["mechanism"] not in ("churn",):
                        self.assertIn(entry["mechanism"], expect["findings"], "the app's own mechanism")


class RecordedRunsAgree(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.recorded = {}
        for entry in catalog_entries():
            for role in ("app", "fixed"):
                path = os.path.join(RECORDED, f"{entry['name']}_{role}.json")
                if entry.get(role) and os.path.exists(path):
                    cls.recorded[(entry["name"], role)] = (expectations(entry, role, "cuda"), diagnose(path))

    def test_ten_fixtures_were_recorded(self):
        self.assertEqual(len({name for name, _ in self.recorded}), 10, sorted(self.recorded))

    def test_the_catalogue_matches_the_diagnosis_of_each_recording(self):
        for (name, role), (expect, diagnosis) in sorted(self.recorded.items()):
            with self.subTest(fixture=name, role=role):
                self.assertEqual(mismatches(expect["findings"], diagnosis), [])

    def test_an_extra_or_a_missing_finding_is_told(self):
        expect, diagnosis = self.recorded[("granular_modules", "app")]
        fewer = {k: v for k, v in expect["findings"].items() if k != "CS-13"}
        self.assertEqual([p.split(":")[0] for p in mismatches(fewer, diagnosis)], ["unexpected finding CS-13"])
        more = dict(expect["findings"], **{"CS-5": {}})
        self.assertEqual(mismatches(more, diagnosis), ["expected finding(s) CS-5 did not fire"])

    def test_a_wrong_rebuild_count_is_told(self):
        expect, diagnosis = self.recorded[("closure_factory", "app")]
        self.assertEqual(expect["findings"]["closure-churn"], {"rebuilds": 3})
        wrong = copy.deepcopy(expect["findings"])
        wrong["closure-churn"]["rebuilds"] = 1
        problems = mismatches(wrong, diagnosis)
        self.assertEqual(len(problems), 1)
        self.assertIn("3 rebuild(s) in its evidence, expected 1", problems[0])

    def test_an_unnamed_cause_is_told(self):
        expect, diagnosis = self.recorded[("cache_destroyed", "app")]
        self.assertEqual(mismatches(expect["findings"], diagnosis), [])
        wrong = {"CS-2": {"cause": "clear_lto_cache"}}
        problems = mismatches(wrong, diagnosis)
        self.assertEqual(len(problems), 1)
        self.assertIn("does not name the cause 'clear_lto_cache'", problems[0])


if __name__ == "__main__":
    unittest.main()
