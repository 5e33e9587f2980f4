"""`levers` on real Warp (issue 30): each lever kind the probe can apply, measured against a
shared baseline with --pairs 1 --only ID so each test takes two diagnosis samples and two arm
samples. Unused backward code: the entry-point lever arrives (the module's hash moved) and is
judged; a program that differentiates through a Tape: the same lever is needed by the program,
never a saving; an option aimed at a module that is never built: the lever did not arrive;
stable module="unique" kernels: drop-unique is offered and arrives; Warp 1.9.1: the
precompiled-header lever is not applicable, and nothing is run for it."""

import json
import os
import pathlib
import tempfile
import unittest

from probe_testlib import FIXTURES, PYTHON, run_cli

PYTHON_OLD = os.environ.get("WCP_PYTHON_WARP_OLD", "")


def levers(python, fixture, only, extra=(), pairs="1"):
    """Runs `levers --pairs PAIRS --only ONLY` on a fixture; returns (CompletedProcess, ledger JSON)."""
    with tempfile.TemporaryDirectory() as scratch:
        out = pathlib.Path(scratch) / "levers.json"
        result = run_cli(["levers", "--quiet", "--pairs", pairs, "--only", only, "--json", str(out), *extra, "--",
                          python, os.path.join(FIXTURES, fixture)],
                         env={"XDG_CACHE_HOME": scratch, "PYTHONDONTWRITEBYTECODE": "1"}, timeout=600)
        ledger = json.loads(out.read_text()) if out.exists() else None
    return result, ledger


def outcome(test, ledger, lever_id):
    test.assertIsNotNone(ledger, "levers wrote no JSON")
    test.assertEqual((ledger["document"], ledger["version"]), ("levers", 1))  # docs/documents.md
    for row in ledger["outcomes"]:
        if row["lever"]["id"] == lever_id:
            return row
    test.fail(f"no lever {lever_id} in {[row['lever']['id'] for row in ledger['outcomes']]}")


class Levers(unittest.TestCase):
    def test_unused_backward_lever_arrives_and_is_measured(self):
        result, ledger = levers(PYTHON, "unused_backward/app.py", "backward-off")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("Plan: 1 lever(s) to measure, 2 run(s)", result.stdout)
        row = outcome(self, ledger, "backward-off")
        self.assertEqual(row["status"], "measured", row)
        self.assertIn("moved", row["arrival"])
        self.assertEqual(row["workload"], "same")
        self.assertIsNotNone(row["cold_module"]["before_ms"])
        self.assertIsNotNone(row["cold_module"]["after_ms"])
        self.assertNotEqual(row["cold_module"]["verdict"], "")
        # Only the lever asked for was run; the others are listed as skipped, not measured.
        self.assertTrue(all(other["status"] in ("skipped", "not_applicable")
                            for other in ledger["outcomes"] if other["lever"]["id"] != "backward-off"))

    def test_a_program_that_differentiates_needs_its_backward_code(self):
        result, ledger = levers(PYTHON, "tape_gradient/app.py", "backward-off")
        self.assertEqual(result.returncode, 0, result.stderr)
        row = outcome(self, ledger, "backward-off")
        self.assertEqual(row["status"], "needed_by_program", row)
        evidence = "\n".join(row["behaviour_evidence"])
        self.assertTrue("exit status 1" in evidence or "stdout line" in evidence, evidence)
        self.assertIsNone(row["cold_module"]["after_ms"], "a needed lever is never reported as a saving")
        self.assertIn("do not take it", row["take_it"])

    def test_pairs_auto_stops_after_one_round_when_the_program_needs_the_lever(self):
        # More pairs cannot change that the program fails without its backward code: `--pairs
        # auto` ends after the first round instead of taking up to 10.
        result, ledger = levers(PYTHON, "tape_gradient/app.py", "backward-off", pairs="auto")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("at most 20 run(s)", result.stdout)
        self.assertEqual(ledger["pairs_mode"], "auto")
        self.assertEqual(ledger["pairs"], 1, "one round decides a lever the program needs")
        row = outcome(self, ledger, "backward-off")
        self.assertEqual(row["status"], "needed_by_program", row)
        self.assertIn("decided after 1 pair", row["decided_by"])

    def test_pairs_must_be_a_count_or_auto(self):
        result = run_cli(["levers", "--pairs", "some", "--", PYTHON, os.path.join(FIXTURES, "clean/app.py")])
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("--pairs must be auto or a whole number >= 1, got 'some'", result.stderr)

    def test_an_option_for_a_module_that_is_never_built_did_not_arrive(self):
        lever_id = "option-at-creation:max_unroll:solver.kernels"
        result, ledger = levers(PYTHON, "option_named_module/app.py", lever_id)
        self.assertEqual(result.returncode, 0, result.stderr)
        row = outcome(self, ledger, lever_id)
        self.assertEqual(row["status"], "did_not_arrive", row)
        self.assertIsNone(row["arrival"], "no proof of arrival is null, not a text")
        self.assertIsNone(row["cold_module"]["after_ms"], "a lever that did not arrive saves nothing, not 0")

    def test_unique_kernels_made_from_constants_get_drop_unique_and_it_arrives(self):
        # The diagnosis baseline takes two samples: CS-9 tells kernels made from constants by
        # their hash holding across samples, so with one the lever was never offered.
        result, ledger = levers(PYTHON, "unique_modules/app.py", "drop-unique,backward-off")
        self.assertEqual(result.returncode, 0, result.stderr)
        row = outcome(self, ledger, "drop-unique")
        self.assertEqual(row["status"], "measured", row)
        self.assertEqual(row["arrival"], 'the target kernels were built in 0 module="unique" module(s), 3 in the baseline')
        self.assertEqual(row["workload"], "same")
        # The app turns backward off itself: that lever could change nothing and is not run.
        backward = outcome(self, ledger, "backward-off")
        self.assertEqual(backward["status"], "not_applicable", backward)
        self.assertIn("the program sets it", backward["reason"])
        self.assertIn("Plan: 1 lever(s) to measure, 2 run(s)", result.stdout)

    @unittest.skipUnless(PYTHON_OLD and os.path.exists(PYTHON_OLD), "no Warp 1.9.1 interpreter (WCP_PYTHON_WARP_OLD)")
    def test_warp_one_nine_has_no_precompiled_header_lever(self):
        result, ledger = levers(PYTHON_OLD, "unused_backward/app.py", "pch-flip")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("Plan: 0 lever(s) to measure, 0 run(s)", result.stdout)
        row = outcome(self, ledger, "pch-flip")
        self.assertEqual(row["status"], "not_applicable", row)
        self.assertIn("use_precompiled_headers", row["reason"])
        self.assertEqual(ledger["warp_version"], "1.9.1")


if __name__ == "__main__":
    unittest.main()
