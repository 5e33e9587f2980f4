"""The program runs as it would without the probe: its stdout, stderr and exit status under
`measure` are those of a bare run, on the fixtures, on Warp's own examples and on a Warp test
module that fails on any unexpected output, with both Warp versions (`measure --check-output`,
docs/instrumentation.md#output). The comparison masks only the fixed list of
harness/run/output_masks.h; the last tests show that it notices one extra line and a changed
exit status, so a pass here is a real pass.

Each measurement also keeps what the probe is for: module times, hashes and native compile time.
"""
import os
import tempfile
import textwrap
import unittest

from probe_testlib import PYTHON, fixture, measure

PYTHON_OLD = os.environ.get("WCP_PYTHON_WARP_OLD", "")

# Warp's test helpers fail a test on any line it prints to stdout (warp/tests/unittest_utils.py,
# CheckOutput). These four failed under earlier probes, which lowered Warp's log level to DEBUG.
GENERICS = ["-m", "pytest", "--pyargs", "warp.tests.test_generics", "-q", "-p", "no:cacheprovider", "-k",
            "cpu and (nested_overload_stub or overload_stub_nonetype or type_attribute_error or type_operator_misspell)"]
DIFFUSION = ["-m", "warp.examples.fem.example_diffusion", "--device", "cpu", "--headless", "--quiet",
             "--resolution", "5"]


class OutputUnderTheProbe(unittest.TestCase):
    def check_same(self, command, measured=True, timeout=1200, ignore=()):
        extra = ["--check-output"] + [arg for pattern in ignore for arg in ("--ignore-output", pattern)]
        result, report = measure(command, samples=1, extra_args=extra, timeout=timeout)
        self.assertIsNotNone(report, result.stderr)
        check = report["output_check"]
        self.assertEqual(result.returncode, 0, result.stdout[-3000:] + result.stderr[-2000:])
        self.assertTrue(check["same"], check)
        self.assertEqual([p["pass"] for p in check["passes"]], ["cold", "warm"])
        if measured:
            # Still a measurement: module times, hashes and native compile time, from the hooks.
            self.assertTrue(report["loads_observed"])
            self.assertGreater(report["cold_module_ms_median"], 0.0)
            self.assertIsNotNone(report["native_compile_ms_median"])
            self.assertGreater(report["native_compile_ms_median"], 0.0)
            compiled = [e for e in report["module_events"] if e["pass"] == "cold" and e["status"] == "compiled"]
            self.assertTrue(compiled)
            self.assertTrue(all(len(e["hash"]) == 7 for e in compiled), compiled)
        return report

    def test_fixtures(self):
        for app in ("clean/app.py", "late_kernel/app.py", "closure_factory/app.py"):
            with self.subTest(app=app):
                report = self.check_same([PYTHON, fixture(app)])
                if app == "late_kernel/app.py":
                    self.assertEqual(report["identities"], 2)

    def test_a_process_tree(self):
        # A parent that runs a child program and waits for it: their lines come out in one order
        # every time, so not even a reordering is allowed here.
        report = self.check_same([PYTHON, fixture("processes/subprocess_launcher/app.py")])
        passes = report["output_check"]["passes"]
        self.assertEqual([p["writers"]["processes"] for p in passes], [2, 2])
        self.assertTrue(all(p["stdout_difference"] is None and p["stderr_difference"] is None for p in passes), passes)

    def test_a_pool_of_workers_writing_at_once(self):
        # Two spawn workers print into one pipe at the same time, so their lines meet in the
        # scheduler's order (compared as a multiset: docs/instrumentation.md#output). They also
        # race for one cache entry: whether the later one prints (compiled) or (cached) for
        # __mp_main__ depends on which wrote first, bare or not, so those two lines are left out.
        report = self.check_same([PYTHON, fixture("processes/spawn_pool/app.py")],
                                 ignore=[r"^Module __mp_main__ \S+ load on device"])
        passes = report["output_check"]["passes"]
        self.assertEqual([p["writers"]["processes"] for p in passes], [3, 3])
        self.assertTrue(all(p["ignored_lines"] >= 2 for p in passes), passes)

    def test_warps_own_test_module_that_checks_its_output(self):
        report = self.check_same([PYTHON, *GENERICS], measured=False)
        self.assertEqual(report["failed_samples"], 0)

    def test_warps_own_example(self):
        self.check_same([PYTHON, *DIFFUSION])

    @unittest.skipUnless(PYTHON_OLD and os.path.exists(PYTHON_OLD), "no .venv-warp-old (run ci/setup.sh)")
    def test_the_older_warp(self):
        for command in ([PYTHON_OLD, fixture("late_kernel/app.py")], [PYTHON_OLD, *GENERICS]):
            with self.subTest(command=command[-1]):
                self.check_same(command, measured=command[-1].endswith("app.py"))


class TheComparisonCanFail(unittest.TestCase):
    """A program that behaves differently under the probe must be caught, or the tests above
    prove nothing."""

    def measure_script(self, source):
        with tempfile.TemporaryDirectory() as folder:
            script = os.path.join(folder, "app.py")
            with open(script, "w", encoding="utf-8") as handle:
                handle.write(textwrap.dedent(source))
            return measure([PYTHON, script], samples=1, extra_args=["--check-output"])

    def test_one_extra_line_is_caught(self):
        result, report = self.measure_script("""
            import os
            import warp as wp
            print("result 42")
            if os.environ.get("WCP_EVENT_DIR"):
                print("only under the probe")
            print("done")
        """)
        self.assertEqual(result.returncode, 1, result.stderr)
        cold = report["output_check"]["passes"][0]
        self.assertFalse(report["output_check"]["same"])
        self.assertEqual(cold["stdout_difference"]["expected"], "done")  # the line after "result 42"
        self.assertEqual(cold["stdout_difference"]["actual"], "only under the probe")
        self.assertIn("OUTPUT CHANGED UNDER THE PROBE", result.stdout)
        self.assertIn('under the probe:   "only under the probe"', result.stdout)

    def test_a_changed_exit_status_is_caught(self):
        result, report = self.measure_script("""
            import os, sys
            import warp as wp
            print("exiting")
            sys.exit(3 if os.environ.get("WCP_EVENT_DIR") else 0)
        """)
        self.assertEqual(result.returncode, 1, result.stderr)
        cold = report["output_check"]["passes"][0]
        self.assertEqual((cold["bare_exit_code"], cold["probe_exit_code"]), (0, 3))
        self.assertIn("exit status 0 without the probe, 3 under it", result.stdout)

    def test_ignored_lines_are_left_out(self):
        source = """
            import os
            import warp as wp
            print("seed", os.getpid())
            print("result 42")
        """
        with tempfile.TemporaryDirectory() as folder:
            script = os.path.join(folder, "app.py")
            with open(script, "w", encoding="utf-8") as handle:
                handle.write(textwrap.dedent(source))
            differs, _ = measure([PYTHON, script], samples=1, extra_args=["--check-output"])
            same, report = measure([PYTHON, script], samples=1,
                                   extra_args=["--check-output", "--ignore-output", "^seed "])
        self.assertEqual(differs.returncode, 1, differs.stdout)
        self.assertEqual(same.returncode, 0, same.stdout)
        self.assertEqual(report["output_check"]["ignored_patterns"], ["^seed "])
        self.assertEqual(report["output_check"]["passes"][0]["ignored_lines"], 2)


if __name__ == "__main__":
    unittest.main()
