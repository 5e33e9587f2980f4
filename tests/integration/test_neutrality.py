"""Measuring must not change the measurement: Warp's own timer of each warm load reads the same
with and without the probe, on both Warp versions, with 2,000 installed distributions.

The program (tests/helpers/neutrality.py) loads three modules one after another and three in parallel.
Bare runs and `measure` runs alternate five times; for the loads made one after another and for
the parallel ones, the median warm "took N ms" under the probe must be within max(1 ms, 5 %) of
the bare median (for the parallel loads, that times the number of threads: a load's timer keeps
running while the other threads hold the GIL, so it also pays for their hooks, and a few
microseconds of Python in one thread can cost the others a GIL hand-over each; on a slower
2-core CI machine three parallel warm loads read 2.6 ms under the probe against 0.75 ms bare),
and the probe's own time inside each load's timer (`hook_ms`) at most 1 ms.
Cold loads are compared in the bench only (ci/bench.sh): a cold load's compile time varies far
more than the tolerance. So the bare arm compiles its cache once and runs warm against it each
round (the probe arm's `measure` compiles cold every round, as it always does).

The defect this guards against: the load hook asked importlib.metadata which distribution each
kernel ships in, inside Warp's timer, reading every installed distribution; with 2,000 of them
the warm loads of this program read 359-1183 ms under the probe against 0.35-2.05 ms bare.
"""
import json
import os
import statistics
import sys
import tempfile
import unittest

from probe_testlib import CLI, PYTHON, SOURCE_DIR, measure

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "helpers"))  # tests/helpers/neutrality.py
import neutrality  # noqa: E402

OLD_PYTHON = os.environ.get("WCP_PYTHON_WARP_OLD", os.path.join(SOURCE_DIR, ".venv-warp-old", "bin", "python"))
ROUNDS = 5
DISTRIBUTIONS = 2000


class NeutralityTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.TemporaryDirectory()
        root = cls.scratch.name
        cls.dists = neutrality.make_distributions(os.path.join(root, "site"), DISTRIBUTIONS)
        program = os.path.join(root, "program")
        os.makedirs(program)
        cls.app = neutrality.write_program(program)

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def check(self, python):
        env = dict(os.environ, PYTHONPATH=self.dists)
        env.pop("WCP_FIXTURE_DEVICE", None)
        arms, hooks, reports = neutrality.interleaved(CLI, python, self.app, env, ROUNDS, bare_cold_once=True)
        bare = neutrality.medians(arms["bare"]["warm"])
        probe = neutrality.medians(arms["probe"]["warm"])
        for pass_name in ("cold", "warm"):  # the figures, for the log (cold ones are not asserted)
            bare_ms = neutrality.medians(arms["bare"][pass_name])
            probe_ms = neutrality.medians(arms["probe"][pass_name])
            for name in sorted(set(bare_ms) & set(probe_ms)):
                print(f"{os.path.basename(os.path.dirname(os.path.dirname(python)))} {pass_name} {name}: bare "
                      f"{bare_ms[name]:.2f} ms, probe {probe_ms[name]:.2f} ms", file=sys.stderr)
        print(f"hook_ms: max {max(hooks, default=float('nan')):.3f} over {len(hooks)} loads", file=sys.stderr)
        names = set(neutrality.SERIAL + neutrality.PARALLEL)
        self.assertEqual(names, set(bare) & names, "the bare runs logged no warm load of some module")
        self.assertEqual(set(bare), set(probe), "the two arms loaded different modules")
        # Per way of loading, the median of every warm load's timer over the rounds (3 modules x
        # 5 rounds a side): one module's median of 5 moves by a millisecond on a busy 2-core
        # machine whatever the probe does, while the defect this guards against cost hundreds.
        # Loads in parallel share one GIL: each one's timer also runs while the other threads
        # hold it, their hooks included, so the bound scales with the threads (docstring).
        for group, members, threads in (("one after another", neutrality.SERIAL, 1),
                                        ("in parallel", neutrality.PARALLEL, len(neutrality.PARALLEL))):
            bare_all = [ms for name in members for ms in arms["bare"]["warm"][name]]
            probe_all = [ms for name in members for ms in arms["probe"]["warm"].get(name, [])]
            with self.subTest(loaded=group):
                self.assertEqual(len(probe_all), len(bare_all), "the arms logged different warm loads")
                bare_median, probe_median = statistics.median(bare_all), statistics.median(probe_all)
                self.assertLessEqual(abs(probe_median - bare_median), threads * neutrality.tolerance_ms(bare_median),
                                     f"warm loads {group}: {probe_median:.2f} ms under the probe, {bare_median:.2f} "
                                     f"ms bare (medians of {len(bare_all)} loads over {ROUNDS} rounds)")
        self.assertTrue(hooks, "no load carried the probe's own time (hook_ms)")
        self.assertLessEqual(max(hooks), 1.0, f"the probe's own time inside a load's timer: {max(hooks):.3f} ms")
        return reports

    def test_warm_loads_read_the_same_on_the_pinned_warp(self):
        reports = self.check(PYTHON)
        # The parallel preload ran its loads on separate threads, and the report says so.
        overlapping = [group for report in reports for group in report["overlapping_loads"]]
        self.assertTrue(any(group["threads"] >= 2 for group in overlapping), overlapping)

    @unittest.skipUnless(os.path.exists(OLD_PYTHON), "no .venv-warp-old: run ci/setup.sh")
    def test_warm_loads_read_the_same_on_the_older_warp(self):
        self.check(OLD_PYTHON)


class ParallelLoadsTest(unittest.TestCase):
    def test_a_five_module_preload_shows_five_overlapping_spans_in_the_trace(self):
        # fixtures/parallel_preload/fixed.py: wp.force_load(..., max_workers=5) before the first
        # launch. Each load is recorded on its own thread, nothing in the probe serialises them,
        # and the trace puts each on its thread's track.
        app = os.path.join(SOURCE_DIR, "fixtures", "parallel_preload", "fixed.py")
        with tempfile.TemporaryDirectory() as out:
            trace_path = os.path.join(out, "trace.json")
            result, report = measure([PYTHON, app], extra_args=("--trace", trace_path))
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(trace_path, encoding="utf-8") as handle:
                events = json.load(handle)["traceEvents"]
        names = {event["pid"]: event["args"]["name"] for event in events if event.get("name") == "process_name"}
        cold = [pid for pid, name in names.items() if name.endswith("cold")]
        spans = [event for event in events if event.get("ph") == "X" and event["pid"] in cold
                 and event["name"].startswith("stage_")]
        self.assertEqual(len(spans), 5, spans)
        self.assertEqual(len({span["tid"] for span in spans}), 5, "the five loads are not on five threads")
        self.assertLess(max(span["ts"] for span in spans), min(span["ts"] + span["dur"] for span in spans),
                        "the five cold loads did not overlap")
        groups = [group for group in report["overlapping_loads"] if group["pass"] == "cold"]
        self.assertEqual([group["threads"] for group in groups], [5])


if __name__ == "__main__":
    unittest.main()
