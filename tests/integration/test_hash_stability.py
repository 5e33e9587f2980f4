"""Hashes that survive processes and checkouts (issue 31): the hash experiments on real Warp.

- wp.map over a lambda on Warp 1.9.1 names its module from Python's salted hash(): CS-2 with the
  salted-hash cause confirmed by experiment, and the Warp release that fixed it;
- the same program on the pinned Warp (1.19) passes `stable_hashes`;
- a kernel capturing a value derived from its own path fails `stable_hashes` with the
  checkout-path cause, and its fixed twin passes.
"""
import json
import os
import pathlib
import shutil
import tempfile
import textwrap
import unittest

from probe_testlib import PYTHON, SOURCE_DIR, diagnose, fixture, measure, run_cli

OLD_PYTHON = os.environ.get("WCP_PYTHON_WARP_OLD", os.path.join(SOURCE_DIR, ".venv-warp-old", "bin", "python"))


def cs2(diagnosis):
    return [f for f in diagnosis["findings"] if f["id"] == "CS-2"]


class HashStability(unittest.TestCase):
    def setUp(self):
        self.directory = pathlib.Path(tempfile.mkdtemp(prefix="wcp_hashes_"))

    def tearDown(self):
        shutil.rmtree(self.directory, ignore_errors=True)

    def check(self, text):
        path = self.directory / "budgets.yaml"
        path.write_text(textwrap.dedent(text).replace("FIXTURES", fixture("").rstrip("/")).replace("PYTHON", PYTHON))
        out = self.directory / "result.json"
        result = run_cli(["check", str(path), "--verbose", "--quiet", "--json", str(out)], timeout=900)
        commands = {c["name"]: c for c in json.loads(out.read_text())["commands"]} if out.exists() else {}
        return result, commands

    @staticmethod
    def outcome(command, budget):
        return next(o for o in command["outcomes"] if o["budget"] == budget)

    @unittest.skipUnless(os.access(OLD_PYTHON, os.X_OK), f"no {OLD_PYTHON}: run ci/setup.sh")
    def test_map_lambda_on_old_warp_is_the_salted_hash_confirmed(self):
        result, report = measure([OLD_PYTHON, fixture("map_lambda/app.py")],
                                 extra_args=("--cwd", fixture("map_lambda")), timeout=900)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        stability = report["hash_stability"]
        self.assertEqual(stability["trigger"], "hash_varied")  # no flag: the warm pass's new name triggered it
        self.assertEqual(stability["stable"], False)
        self.assertGreater(stability["cost_ms"], 0)
        self.assertEqual([p["name"] for p in stability["passes"]], ["seed 0", "seed 0 again", "seed 1", "relocated"])
        self.assertTrue(all(p["ok"] for p in stability["passes"]), stability["passes"])
        self.assertEqual(stability["passes"][0]["identities"], stability["passes"][1]["identities"])
        self.assertNotEqual(stability["passes"][0]["identities"], stability["passes"][2]["identities"])
        [module] = stability["modules"]
        self.assertRegex(module["module"], r"^map_func_[0-9a-fx]{8}$")
        self.assertEqual(module["cause"], "python_hash_seed")
        self.assertEqual(module["fixed_in_warp"], "1.17")
        [finding] = cs2(diagnose(report))
        self.assertIn("Upgrade Warp to 1.17", finding["fix"])
        self.assertIn("only masks it", finding["fix"])
        evidence = "\n".join(finding["evidence"])
        self.assertIn("confirmed by experiment", evidence)
        self.assertIn("experiment pass(es)", evidence)

    def test_map_lambda_on_pinned_warp_passes_stable_hashes(self):
        result, commands = self.check("""\
            defaults: {samples: 1, timeout: 300}
            commands:
              - name: map-lambda
                command: [PYTHON, app.py]
                cwd: FIXTURES/map_lambda
                stable_hashes: true
            """)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        stable = self.outcome(commands["map-lambda"], "stable_hashes")
        self.assertEqual(stable["verdict"], "pass")
        self.assertEqual(stable["measured"], 0)

    def test_checkout_path_fails_stable_hashes_and_its_twin_passes(self):
        result, commands = self.check("""\
            defaults: {samples: 1, timeout: 300, stable_hashes: true}
            commands:
              - name: app
                command: [PYTHON, FIXTURES/checkout_path/app.py]
                cwd: FIXTURES/checkout_path
              - name: fixed
                command: [PYTHON, fixed.py]
                cwd: FIXTURES/checkout_path
            """)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        failed = self.outcome(commands["app"], "stable_hashes")
        self.assertEqual(failed["verdict"], "fail")
        self.assertEqual(failed["measured"], 1)
        [offender] = failed["offenders"]
        self.assertEqual(offender["module"], "__main__")
        self.assertEqual(offender["detail"], "checkout_path")
        self.assertIn("checkout path", offender["explanation"])
        self.assertEqual(self.outcome(commands["fixed"], "stable_hashes")["verdict"], "pass")
        self.assertIn("stable_hashes", result.stdout)


if __name__ == "__main__":
    unittest.main()
