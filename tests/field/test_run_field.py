"""The field runner's comparison on its own (CTest field/runner, label `unit`): no Warp, no
measuring, stdlib only. `python3 -m unittest -v test_run_field` in tests/field runs it by hand."""

import io
import json
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_field  # noqa: E402


def finding(id_, module=None, owner="dependency", evidence=("",)):
    return {"id": id_, "module": module or "", "evidence": list(evidence),
            "owner": None if owner is None else {"owner": owner, "describe": owner}}


CS10 = finding("CS-10", "pkg.math_test", evidence=["module pkg.math_test (601fa97): 3 backward entry point(s) "
                                                  "generated for 3 forward kernel(s); none adjoint"])
NEVER = finding("never-launched", "pkg.bvh", evidence=["module pkg.bvh on cpu: 11 kernel(s) compiled, 3 launched"])
OPTION_A = finding("option-never-arrived", "pkg.driver", owner=None,
                   evidence=['wp.set_module_options({"enable_backward": False}) on pkg.driver at driver.py:46'])
OPTION_B = finding("option-never-arrived", "pkg.driver", owner=None,
                   evidence=['wp.set_module_options({"default_grid_stride": False}) on pkg.driver at driver.py:46'])

EXPECTATION = {
    "program": "example",
    "true_findings": [
        {"id": "CS-10", "module": "pkg.math_test", "owner": "dependency",
         "evidence": ["3 backward entry point(s)"], "why": "plain kernels, no tape"},
        {"id": "never-launched", "module": "pkg.bvh", "owner": "dependency",
         "evidence": ["11 kernel(s) compiled, 3 launched"], "why": "a unit test uses part of the module"},
    ],
    "false_findings": [
        {"id": "option-never-arrived", "module": "pkg.driver", "owner": None,
         "evidence": ['"enable_backward": False'], "why": "the module's plain kernels take it when it loads"},
    ],
}


class Compare(unittest.TestCase):
    def test_the_true_set_exactly_passes(self):
        result = run_field.compare(EXPECTATION, [CS10, NEVER])
        self.assertTrue(result["ok"], result)
        self.assertEqual(len(result["matched"]), 2)

    def test_order_does_not_matter(self):
        self.assertTrue(run_field.compare(EXPECTATION, [NEVER, CS10])["ok"])

    def test_a_known_false_finding_fails_with_its_reason(self):
        result = run_field.compare(EXPECTATION, [CS10, NEVER, OPTION_A])
        self.assertFalse(result["ok"])
        self.assertEqual([entry["why"] for _, entry in result["known_false"]],
                         ["the module's plain kernels take it when it loads"])
        text = run_field.format_result("example", result)
        self.assertIn("judged FALSE", text)
        self.assertIn("why false: the module's plain kernels take it when it loads", text)

    def test_a_finding_nobody_reviewed_fails_as_new(self):
        result = run_field.compare(EXPECTATION, [CS10, NEVER, OPTION_B])
        self.assertFalse(result["ok"])
        self.assertEqual(len(result["unreviewed"]), 1)
        self.assertIn("nobody reviewed", run_field.format_result("example", result))

    def test_a_lost_true_finding_fails(self):
        result = run_field.compare(EXPECTATION, [CS10])
        self.assertFalse(result["ok"])
        self.assertEqual([entry["id"] for entry in result["missing"]], ["never-launched"])
        self.assertIn("a TRUE finding the tool no longer gives", run_field.format_result("example", result))

    def test_a_true_finding_that_may_be_absent_is_allowed_absent_and_matched_when_present(self):
        expectation = dict(EXPECTATION, true_findings=[
            EXPECTATION["true_findings"][0],
            dict(EXPECTATION["true_findings"][1], may_be_absent="the cost rule's threshold")])
        self.assertTrue(run_field.compare(expectation, [CS10])["ok"])
        result = run_field.compare(expectation, [CS10, NEVER])
        self.assertTrue(result["ok"])
        self.assertEqual(len(result["matched"]), 2)

    def test_owner_and_module_are_part_of_the_identity(self):
        mine = finding("CS-10", "pkg.math_test", owner="user", evidence=CS10["evidence"])
        result = run_field.compare(EXPECTATION, [mine, NEVER])
        self.assertFalse(result["ok"])
        self.assertEqual(len(result["unreviewed"]), 1)
        self.assertEqual(len(result["missing"]), 1)
        other = finding("CS-10", "pkg.other", evidence=CS10["evidence"])
        self.assertFalse(run_field.compare(EXPECTATION, [other, NEVER])["ok"])

    def test_a_changed_key_fact_is_a_difference(self):
        changed = finding("never-launched", "pkg.bvh", evidence=["module pkg.bvh on cpu: 11 kernel(s) compiled, 4 launched"])
        result = run_field.compare(EXPECTATION, [CS10, changed])
        self.assertFalse(result["ok"])
        self.assertEqual(len(result["missing"]), 1)
        self.assertEqual(len(result["unreviewed"]), 1)

    def test_a_list_of_modules_accepts_any_of_them_as_the_head(self):
        expectation = {"true_findings": [dict(EXPECTATION["true_findings"][1], module=["pkg.bvh", "pkg.smooth"])]}
        self.assertTrue(run_field.compare(expectation, [NEVER])["ok"])
        headed = finding("never-launched", "pkg.smooth", evidence=NEVER["evidence"])
        self.assertTrue(run_field.compare(expectation, [headed])["ok"])
        other = finding("never-launched", "pkg.other", evidence=NEVER["evidence"])
        self.assertFalse(run_field.compare(expectation, [other])["ok"])

    def test_empty_module_and_null_owner_normalise(self):
        self.assertEqual(run_field.normalise(finding("CS-9", "", owner=None))["module"], None)
        self.assertIsNone(run_field.normalise(finding("CS-9", "", owner=None))["owner"])

    def test_two_findings_alike_but_for_a_fact_each_need_their_own_entry(self):
        expectation = {"true_findings": [
            {"id": "option-never-arrived", "module": "pkg.driver", "owner": None, "evidence": ["driver.py:46"], "why": "a"},
            {"id": "option-never-arrived", "module": "pkg.driver", "owner": None,
             "evidence": ['"default_grid_stride"'], "why": "b"}]}
        # The general entry must not take the specific finding's place: the matching is one-to-one
        # and maximal, whatever the order.
        self.assertTrue(run_field.compare(expectation, [OPTION_B, OPTION_A])["ok"])
        self.assertTrue(run_field.compare(expectation, [OPTION_A, OPTION_B])["ok"])
        result = run_field.compare(expectation, [OPTION_A, OPTION_A])
        self.assertFalse(result["ok"])

    def test_the_proposal_keeps_reviewed_text_and_marks_the_rest_unreviewed(self):
        proposed = run_field.proposal(EXPECTATION, [CS10, OPTION_B])
        self.assertEqual([e["why"] for e in proposed["true_findings"]], ["plain kernels, no tape"])
        self.assertEqual(len(proposed["unreviewed_findings"]), 1)
        self.assertTrue(proposed["unreviewed_findings"][0]["why"].startswith("UNREVIEWED"))
        self.assertEqual([e["id"] for e in proposed["missing_true_findings"]], ["never-launched"])
        self.assertEqual(len(proposed["false_findings"]), 1)


class Corpus(unittest.TestCase):
    """Every expectation file is well formed: a command, and a reason for every judgement."""

    def test_expectation_files(self):
        programs = run_field.all_programs()
        self.assertGreaterEqual(len(programs), 12)
        for program in programs:
            with self.subTest(program=program):
                expectation = run_field.load_expectation(program)
                self.assertEqual(expectation["program"], program)
                self.assertTrue(expectation["command"])
                self.assertIn(expectation.get("package"), ("warp-lang", "mujoco-warp", "newton"))
                for kind in ("true_findings", "false_findings"):
                    for entry in expectation.get(kind, []):
                        self.assertTrue(entry.get("why"), entry)
                        self.assertIn("id", entry)
                        self.assertIn(entry.get("owner"), ("user", "dependency", "warp", None), entry)
                        if isinstance(entry.get("module"), list):
                            self.assertTrue(entry.get("module_why"), entry)
                        for fact in entry.get("evidence", []):
                            self.assertNotRegex(fact, r"\d\s*ms\b", "a key fact holds no timing")

    def test_saved_diagnosis_mode_runs_nothing(self):
        program = run_field.all_programs()[0]
        expectation = run_field.load_expectation(program)
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "diagnosis.json")
            with open(path, "w") as f:
                json.dump({"findings": []}, f)
            with redirect_stdout(io.StringIO()) as out:
                status = run_field.main([program, "--diagnosis", path])
        expected = 0 if not [e for e in expectation.get("true_findings", []) if not e.get("may_be_absent")] else 1
        self.assertEqual(status, expected, out.getvalue())


if __name__ == "__main__":
    unittest.main()
