"""Levers applied by the probe on real Warp through the real CLI (issue 30, the probe's side).

`measure` passes WCP_PROBE_LEVERS from its own environment to the measured program, as the
`levers` command does through its run environment. For each fixture whose fixed twin is what a
lever does from outside the code, the app measured under the lever must build what the twin
builds: the same cold identities (module, hash), the same number of builds, the same generated
source bytes. Where a twin is not what any lever can do, the test says why, from the run
(docs/instrumentation.md, "Levers"). One sample, and the measures run two at a time.
"""
import json
import os
import shutil
import tempfile
import textwrap
import unittest
from concurrent.futures import ThreadPoolExecutor

from probe_testlib import PYTHON, compiled_events, fixture, measure, measured

BACKWARD_OFF = {"id": "backward-off", "kind": "config", "name": "enable_backward", "value": False}
KEEP_CACHE = {"id": "keep-cache", "kind": "noop_call", "name": "clear_kernel_cache"}

# A program that clears Warp's kernel cache at start (CS-2 by a clear call); its twin is the same
# program without that line.
CLEARS = """
import os
import warp as wp

DEVICE = os.environ.get("WCP_FIXTURE_DEVICE", "cpu")
wp.config.enable_backward = False
wp.clear_kernel_cache()  # CLEAR


@wp.kernel
def twice(a: wp.array(dtype=wp.float32)):
    i = wp.tid()
    a[i] = a[i] * 2.0


a = wp.ones(16, dtype=wp.float32, device=DEVICE)
wp.launch(twice, dim=16, inputs=[a], device=DEVICE)
print("result", float(a.numpy().sum()))
"""

# A program that differentiates through a Tape: enable_backward = False is needed by it.
TAPE = """
import os
import warp as wp

DEVICE = os.environ.get("WCP_FIXTURE_DEVICE", "cpu")


@wp.kernel
def square(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * x[i]


x = wp.array([1.0, 2.0, 3.0], dtype=float, requires_grad=True, device=DEVICE)
y = wp.zeros(3, dtype=float, requires_grad=True, device=DEVICE)
tape = wp.Tape()
with tape:
    wp.launch(square, dim=3, inputs=[x], outputs=[y], device=DEVICE)
tape.backward(grads={y: wp.ones(3, dtype=float, device=DEVICE)})
print("grad", x.grad.numpy().tolist())
"""


def unique_kernels(script):
    return [{"qualname": name, "file": script} for name in ("fill", "scale", "offset")]


def built(report):
    """What a cold run built: identities, the number of builds, generated source bytes."""
    cold = compiled_events(report, "cold")
    return {"identities": sorted((event["name"], event["hash"]) for event in cold), "builds": len(cold),
            "generated_source_bytes": report["generated_source_bytes"]}


def arrival(report, lever_id):
    found = [a for a in report["lever_arrivals"] if a["id"] == lever_id]
    assert len(found) == 1, report["lever_arrivals"]
    return found[0]


class LeverArms(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="wcp-levers-")
        clears = os.path.join(cls.scratch, "clears.py")
        with open(clears, "w", encoding="utf-8") as handle:
            handle.write(textwrap.dedent(CLEARS))
        kept = os.path.join(cls.scratch, "kept.py")
        with open(kept, "w", encoding="utf-8") as handle:
            handle.write(textwrap.dedent(CLEARS).replace("wp.clear_kernel_cache()  # CLEAR\n", ""))
        tape = os.path.join(cls.scratch, "tape.py")
        with open(tape, "w", encoding="utf-8") as handle:
            handle.write(textwrap.dedent(TAPE))
        unique_app = fixture("unique_modules/app.py")
        arms = {
            "late_option": (fixture("late_option/app.py"),
                            [{"id": "unroll-at-creation", "kind": "module_option", "name": "max_unroll", "value": 4,
                              "modules": ["__main__"]}]),
            "late_option/fixed": (fixture("late_option/fixed.py"), None),
            "unused_backward": (fixture("unused_backward/app.py"), [BACKWARD_OFF]),
            "unused_backward/fixed": (fixture("unused_backward/fixed.py"), None),
            "option_deadline": (fixture("option_deadline/app.py"), [BACKWARD_OFF]),
            "option_deadline/fixed": (fixture("option_deadline/fixed.py"), None),
            "unique_modules": (unique_app, [{"id": "stable-unique", "kind": "drop_unique", "name": "unique",
                                             "kernels": unique_kernels(unique_app)}]),
            "unique_modules/fixed": (fixture("unique_modules/fixed.py"), None),
            "clears": (clears, [KEEP_CACHE]),
            "clears/fixed": (kept, None),
            "cache_destroyed": (fixture("cache_destroyed/app.py"), [KEEP_CACHE]),
            "tape": (tape, [BACKWARD_OFF]),
        }

        def run(item):
            name, (script, levers) = item
            if not levers and script.startswith(fixture("")):
                # A fixture's twin without a lever: shared with the other tests that only read it.
                result = measured([PYTHON, script])
                return name, (result, result.report)
            env = {"WCP_PROBE_LEVERS": json.dumps(levers)} if levers else {}
            result, report = measure([PYTHON, script], samples=1, env=env)
            return name, (result, report)

        with ThreadPoolExecutor(max_workers=2) as pool:
            cls.runs = dict(pool.map(run, arms.items()))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def report(self, name):
        result, report = self.runs[name]
        self.assertIsNotNone(report, result.stderr)
        return report

    def assert_builds_like_the_twin(self, name):
        arm, twin = self.report(name), self.report(name + "/fixed")
        self.assertGreaterEqual(arm["schema_version"], 8)  # lever_arrivals came with schema 8
        self.assertEqual(twin["lever_arrivals"], [])  # no levers asked: none reported
        self.assertEqual(built(arm), built(twin))

    def test_a_late_module_option_applied_at_creation_builds_what_the_twin_builds(self):
        self.assert_builds_like_the_twin("late_option")
        lever = arrival(self.report("late_option"), "unroll-at-creation")
        self.assertEqual((lever["status"], lever["modules_reached"]), ("applied", ["__main__"]))

    def test_backward_off_at_the_entry_point_builds_what_the_twin_builds(self):
        for name in ("unused_backward", "option_deadline"):
            with self.subTest(name):
                self.assert_builds_like_the_twin(name)
                lever = arrival(self.report(name), "backward-off")
                self.assertEqual(lever["status"], "applied")
                self.assertEqual(self.report(name)["module_sources"][0]["backward_kernels"], 0)

    def test_stable_unique_kernels_moved_to_their_module_build_what_the_twin_builds(self):
        # The same module, one build, the same generated bytes; its hash is not the twin's, since
        # Warp hashes each kernel's source as inspect.getsourcelines gives it, decorator line
        # included, and the twin's says `@wp.kernel` where the app's says module="unique".
        arm, twin = built(self.report("unique_modules")), built(self.report("unique_modules/fixed"))
        self.assertEqual((arm["builds"], arm["generated_source_bytes"]), (twin["builds"], twin["generated_source_bytes"]))
        self.assertEqual([name for name, _ in arm["identities"]], [name for name, _ in twin["identities"]])
        lever = arrival(self.report("unique_modules"), "stable-unique")
        self.assertEqual((lever["status"], lever["modules_reached"]), ("applied", ["__main__"]))

    def test_a_clear_made_a_no_op_leaves_the_warm_run_cached_like_the_twin(self):
        self.assert_builds_like_the_twin("clears")
        arm, twin = self.report("clears"), self.report("clears/fixed")
        self.assertEqual(len(compiled_events(arm, "warm")), len(compiled_events(twin, "warm")))
        self.assertEqual(len(compiled_events(arm, "warm")), 0)
        lever = arrival(arm, "keep-cache")
        self.assertEqual((lever["status"], lever["calls_intercepted"]), ("applied", 1))
        self.assertEqual(arm["instrumentation"]["cache_clears"], [])  # the clear did not happen

    def test_the_destroyed_cache_is_no_clear_call_and_the_lever_says_it_reached_none(self):
        # cache_destroyed's twin leaves warp.config.kernel_cache_dir alone; no lever undoes the
        # program's own write, so the warm run still compiles and the no-op caught no call.
        report = self.report("cache_destroyed")
        lever = arrival(report, "keep-cache")
        self.assertEqual((lever["status"], lever["calls_intercepted"]), ("applied", 0))
        self.assertGreater(len(compiled_events(report, "warm")), 0)
        self.assertIsNotNone(report["instrumentation"]["app_kernel_cache_dir"])

    def test_backward_off_in_a_program_that_differentiates_is_reported_as_applied(self):
        # Whether the program still works is the levers command's judgement; the arrival is
        # reported even when every sample failed.
        result, report = self.runs["tape"]
        self.assertIsNotNone(report, result.stderr)
        lever = arrival(report, "backward-off")
        self.assertEqual(lever["status"], "applied")


if __name__ == "__main__":
    unittest.main()
