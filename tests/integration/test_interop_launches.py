"""The original probe can read the workload of our reports: `measure` writes the main process's
launches as the original probe's flat top-level `launches` list, and a reader that knows only
that list (written here, following the rule in docs/measurement.md, "Verifying the workload")
finds our report of fixtures/clean and the original probe's own report of the same app
(tests/data/interop/clean-app.json, a copy of the shared interop report) the same workload.
"""

import copy
import json
import os
import unittest

from probe_testlib import PYTHON, SOURCE_DIR, fixture, measured

INTEROP = os.path.join(SOURCE_DIR, "tests", "data", "interop")


def workload(report):
    """The launch topology of a report's flat `launches` list: per launch, in order, its dim,
    device, dtypes, block_dim and adjoint flag. Kernel names are not part of it (a closure moved
    to module scope is renamed, not changed). An entry with a `count` stands for that many
    launches; dtypes hold only the arguments that carry one, on both sides."""
    topology = []
    for launch in report["launches"]:
        signature = (tuple(launch.get("dim") or ()), launch.get("device"), tuple(launch.get("dtypes") or ()),
                     launch.get("block_dim"), bool(launch.get("adjoint")))
        topology.extend([signature] * int(launch.get("count", 1)))
    return topology


def same_workload(baseline, candidate):
    return workload(baseline) == workload(candidate)


class InteropLaunchesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        result = measured([PYTHON, fixture("clean/app.py")])  # shared with the tests that only read it
        cls.ours = result.report
        if result.returncode != 0 or cls.ours is None:
            raise AssertionError(f"measure failed: {result.stdout}\n{result.stderr}")
        with open(os.path.join(INTEROP, "clean-app.json"), encoding="utf-8") as handle:
            cls.original = json.load(handle)

    def test_our_report_lists_each_launch_in_the_original_shape(self):
        launches = self.ours["launches"]
        self.assertEqual(len(launches), self.ours["launch_count"])
        for launch in launches:
            self.assertEqual(set(launch), {"kernel", "module", "dim", "device", "dtypes", "block_dim", "adjoint"})
        # scale(a, s): `s` is a Python float, which has no dtype, so only the array is listed.
        self.assertEqual([launch["dtypes"] for launch in launches if launch["kernel"] == "scale"], [["float32"]] * 3)

    def test_the_original_probes_report_of_the_same_app_is_the_same_workload(self):
        self.assertTrue(same_workload(self.ours, self.original),
                        f"ours {workload(self.ours)}\noriginal {workload(self.original)}")
        self.assertTrue(same_workload(self.original, self.ours))

    def test_launches_that_differ_are_another_workload(self):
        resized = copy.deepcopy(self.ours)
        resized["launches"][1]["dim"] = [128]
        self.assertFalse(same_workload(resized, self.original))
        one_less = copy.deepcopy(self.ours)
        del one_less["launches"][-1]
        self.assertFalse(same_workload(self.original, one_less))
        reordered = copy.deepcopy(self.ours)
        reordered["launches"].reverse()  # reduce_sum has two arrays: its dtypes move
        self.assertFalse(same_workload(reordered, self.original))


if __name__ == "__main__":
    unittest.main()
