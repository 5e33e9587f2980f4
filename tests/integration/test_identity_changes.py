"""Why a module's identity moved between two real runs (issue 41, item 2): `compare` of two runs of
fixtures/clean/app.py that differ in one kernel's body names that kernel, with its content hashes
and the line that first built it; two runs that differ in one module option name the option, old
and new; two pytest runs of a small suite, one of which makes a new closure kernel in each test,
name the kernel and the test that first built the new identity; and a `check` whose entry has a
`baseline:` and fails (a timing ceiling no run meets) shows the same delta beside the failure in
its text, its Markdown and its CTest measurement, without the delta deciding anything. Every
variant lives in a scratch folder, never in the repository. Six measured runs of one sample
each: under a minute on 2 cores."""

import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import textwrap
import unittest

CLI = os.environ.get("WCP_CLI", "warp-compile-probe")
SOURCE = pathlib.Path(os.environ.get("WCP_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
PYTHON = os.environ.get("WCP_PYTHON", "python3")
CLEAN = SOURCE / "fixtures" / "clean" / "app.py"

SCALE_BODY = "    a[i] = a[i] * s\n"
OPTIONS_AFTER = "wp.init()\n"

# A suite whose tests launch a closure kernel: made once (the baseline) or once per test
# (PER_CALL=1), each new closure rebuilding the test module's Warp module.
SUITE = """\
import os
import warp as wp

wp.config.enable_backward = False
wp.init()
PER_CALL = os.environ.get("PER_CALL") == "1"


def make_step(scale):
    @wp.kernel
    def step(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * scale

    return step


SHARED = make_step(2.0)


def run(scale):
    kernel = make_step(scale) if PER_CALL else SHARED
    a = wp.ones(8, dtype=float, device="cpu")
    wp.launch(kernel, dim=8, inputs=[a], device="cpu")
    wp.synchronize()


def test_a():
    run(2.0)


def test_b():
    run(3.0)
"""


class IdentityChangesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = pathlib.Path(tempfile.mkdtemp(prefix="wcp_identity_"))
        cls.env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=str(cls.scratch))
        text = CLEAN.read_text()
        assert SCALE_BODY in text and OPTIONS_AFTER in text
        # One folder, one file name: only the edited line differs between the runs.
        cls.variants = {
            "baseline": text,
            "body": text.replace(SCALE_BODY, "    a[i] = a[i] * s + 1.0\n"),
            "option": text.replace(OPTIONS_AFTER, OPTIONS_AFTER + 'wp.set_module_options({"fast_math": True})\n'),
        }
        cls.app = cls.scratch / "app" / "app.py"
        cls.app.parent.mkdir()
        cls.reports = {name: cls.measure(name) for name in cls.variants}
        cls.suite = cls.scratch / "suite"
        cls.suite.mkdir()
        (cls.suite / "test_sim.py").write_text(SUITE)
        for name, per_call in (("suite_once", "0"), ("suite_per_call", "1")):
            cls.reports[name] = cls.measure_suite(name, per_call)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    @classmethod
    def use(cls, name):
        cls.app.write_text(cls.variants[name])

    @classmethod
    def measure(cls, name):
        cls.use(name)
        path = cls.scratch / f"{name}.json"
        result = subprocess.run([CLI, "measure", "--samples", "1", "--quiet", "--json", str(path), "--", PYTHON,
                                 str(cls.app)], capture_output=True, text=True, env=cls.env, timeout=600)
        if result.returncode != 0:
            raise AssertionError(f"measure {name} failed: {result.stdout}\n{result.stderr}")
        return path

    @classmethod
    def measure_suite(cls, name, per_call):
        path = cls.scratch / f"{name}.json"
        result = subprocess.run([CLI, "measure", "--samples", "1", "--quiet", "--json", str(path), "--", PYTHON, "-m",
                                 "pytest", "-q", "-p", "no:cacheprovider", "test_sim.py"], capture_output=True,
                                text=True, env=dict(cls.env, PER_CALL=per_call), cwd=cls.suite, timeout=600)
        if result.returncode != 0:
            raise AssertionError(f"measure {name} failed: {result.stdout}\n{result.stderr}")
        return path

    def compare(self, candidate, *extra, baseline="baseline"):
        out = self.scratch / f"compare-{candidate}.json"
        result = subprocess.run([CLI, "compare", str(self.reports[baseline]), str(self.reports[candidate]), "--json",
                                 str(out), *extra], capture_output=True, text=True, env=self.env, timeout=120)
        self.assertIn(result.returncode, (0, 1), result.stderr)
        return result.stdout, json.loads(out.read_text())

    def changed_module(self, comparison):
        modules = comparison["identity_changes"]["modules"]
        self.assertEqual([m["module"] for m in modules], ["__main__"], json.dumps(modules, indent=1))
        self.assertEqual(modules[0]["change"], "changed")
        return modules[0]

    def test_a_changed_kernel_body_is_named_with_its_hashes_and_line(self):
        text, comparison = self.compare("body")
        module = self.changed_module(comparison)
        diff = module["explanations"][0]["diff"]
        self.assertEqual([kernel["key"] for kernel in diff["kernels_changed"]], ["scale"], json.dumps(diff, indent=1))
        self.assertEqual(diff["kernels_added"], [])
        self.assertEqual(diff["options"], [])
        changed = diff["kernels_changed"][0]
        self.assertNotEqual(changed["baseline_hash"], changed["hash"])
        expected = (f"__main__@cpu: kernel scale changed (content hash {changed['baseline_hash']} -> "
                    f"{changed['hash']}); first built at app/app.py:")
        self.assertIn(expected, " ".join(text.split()), text)  # the default text, unwrapped
        verbose = subprocess.run([CLI, "compare", str(self.reports["baseline"]), str(self.reports["body"]),
                                  "--verbose"], capture_output=True, text=True, env=self.env, timeout=120).stdout
        self.assertIn(expected, verbose)
        # The unchanged kernels are not named as changes.
        self.assertNotIn("kernel fill", text)
        self.assertNotIn("kernel reduce_sum", text)

    def test_a_changed_module_option_is_named_old_and_new(self):
        text, comparison = self.compare("option")
        module = self.changed_module(comparison)
        diff = module["explanations"][0]["diff"]
        self.assertEqual(diff["options"], [{"name": "fast_math", "baseline": "False", "candidate": "True"}],
                         json.dumps(diff, indent=1))
        self.assertEqual(diff["kernels_changed"], [])
        self.assertIn("__main__@cpu: option fast_math False -> True", text)

    def test_a_closure_made_per_test_names_the_kernel_and_the_test(self):
        text, comparison = self.compare("suite_per_call", baseline="suite_once")
        modules = comparison["identity_changes"]["modules"]
        self.assertEqual([(m["module"], m["change"]) for m in modules], [("test_sim", "changed")],
                         json.dumps(modules, indent=1))
        explanation = modules[0]["explanations"][0]
        # test_a built the identity both runs share; test_b's closure made the new one.
        self.assertEqual(explanation["against"], "earlier_build")
        self.assertEqual(explanation["built_by"]["test"]["id"], "test_sim.py::test_b")
        self.assertEqual([k["key"] for k in explanation["diff"]["kernels_added"]], ["make_step__locals__step"])
        self.assertIn("test_sim@cpu: kernel make_step__locals__step re-created (another closure from "
                      "suite/test_sim.py:10) since its previous build; first built by test_sim.py::test_b",
                      " ".join(text.split()), text)

    def test_a_failed_baseline_budget_shows_the_changed_kernel_as_context(self):
        self.use("body")
        budgets = self.scratch / "budgets.yaml"
        budgets.write_text(textwrap.dedent(f"""\
            commands:
              - name: app
                command: ["{PYTHON}", "{self.app}"]
                samples: 1
                baseline: {self.reports['baseline']}
                baseline_tolerance_percent: 1000
                cold_seconds: 0.001
            """))
        markdown = self.scratch / "budgets.md"
        result = subprocess.run([CLI, "check", str(budgets), "--quiet", "--markdown", str(markdown),
                                 "--ctest-measurements", "--json", str(self.scratch / "check.json")],
                                capture_output=True, text=True, env=self.env, timeout=600)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        check = json.loads((self.scratch / "check.json").read_text())
        outcomes = {outcome["budget"]: outcome["verdict"] for outcome in check["commands"][0]["outcomes"]}
        # The timing ceiling fails; the wide tolerance keeps the baseline judgement a pass, so the
        # delta shown is context beside a failure, not a failure of its own.
        self.assertEqual(outcomes["cold_seconds"], "fail", outcomes)
        self.assertEqual(outcomes["baseline"], "pass", outcomes)
        brief = "+1 identity: __main__@cpu (kernel scale changed), first built at app/app.py:"
        self.assertIn(brief, " ".join(result.stdout.split()), result.stdout)
        self.assertIn(brief, markdown.read_text())
        self.assertIn("### `app`: since the baseline", markdown.read_text())
        self.assertIn(f'<CTestMeasurement type="text/string" name="since_baseline">{brief}', result.stdout)
        since = check["commands"][0]["since_baseline"]["modules"][0]
        self.assertEqual(since["explanations"][0]["diff"]["kernels_changed"][0]["key"], "scale")


if __name__ == "__main__":
    unittest.main()
