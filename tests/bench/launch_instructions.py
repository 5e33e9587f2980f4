"""What the instrumentation adds to one launch, by launch shape, in instructions: the shapes of
real_launch_cost.py on real Warp CPU launches, each arm run once under callgrind and counted
from the arm's first launch to its last (the program calls os.getppid() before an arm, which
zeroes the counts, and os.getpgrp() after, which dumps them), with the garbage collector and
the launch record's periodic snapshots off.

Timings on a shared 2-core VM move by +-0.3 us between runs of the same build (a process's
memory layout, other tenants); an instruction count does not, so this is the bench that shows
whether a change to the probe made a launch cheaper, and by how much. It is slow (valgrind:
about a minute per Warp), so ci/bench.sh runs it and no test does. Needs valgrind.

Per shape: the bare arm's instructions per launch (Warp's launch, through the wrapper's
__wrapped__), the probed arm's, and the difference. --probe-dir counts another copy of the
instrumentation (e.g. an older commit's), as in real_launch_cost.py.
"""
import argparse
import glob
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from real_launch_cost import PROGRAM, ROOT, probe_dir, run_probed  # noqa: E402

DRIVER = r"""
import os
chunk, only = int(sys.argv[1]), sys.argv[2:]
if only:
    shapes = [shape for shape in shapes if shape.__name__ in only]
for shape in shapes:
    shape(True)
    shape(False)  # warm both arms (first launch loads the module)
arms = []
# The collector runs when allocations cross a threshold, in whichever arm crosses it (millions of
# instructions): off while arms run, so a count is the launch path's. The timing bench keeps it.
import gc
# Snapshots are due by the clock (0.5 s apart), so under valgrind's slowdown they fall into arms
# at random: off here (the probe's Launches object, from the launch wrapper's closure).
def closure_objects(function, depth=2):
    for cell in getattr(function, "__closure__", None) or ():
        yield cell.cell_contents
        if depth:
            yield from closure_objects(cell.cell_contents, depth - 1)


launches_state = next((o for o in closure_objects(probed_launch) if type(o).__name__ == "Launches"), None)
if launches_state is None:
    sys.exit("the probe's Launches object was not found in wp.launch's closure")
launches_state.snap_interval = float("inf")
gc.collect()
gc.disable()
os.getppid()
shapes[0](True)  # what the probe writes after the warm-up (the load records), not counted
os.getpgrp()
for shape in shapes:
    for probed in (True, False):
        os.getppid()  # callgrind --zero-before
        shape(probed)
        os.getpgrp()  # callgrind --dump-before
        arms.append((shape.__name__, probed))
print("ARMS", json.dumps(arms))
"""


def dumped_instructions(path):
    """The instruction count of one callgrind dump (its `summary:` line)."""
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("summary:"):
                return int(line.split()[1])
    raise ValueError("no summary in %s" % path)


def count(python, probe, chunk, shapes, cache_dir):
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "callgrind.out")
        runner = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, "--zero-before=getppid",
                  "--dump-before=getpgrp"]
        stdout = run_probed(scratch, python, probe, PROGRAM + DRIVER, [chunk, *shapes], cache_dir, runner=runner,
                            env={"PYTHONHASHSEED": "0"})
        arms = json.loads(next(line for line in stdout.splitlines()
                                             if line.startswith("ARMS")).split(None, 1)[1])
        # The warm-up's dump, one per arm, numbered in order (callgrind.out.1, .2, ...), then the one at exit.
        dumps = sorted(glob.glob(out + ".*"), key=lambda path: int(path.rsplit(".", 1)[1]))
        if len(dumps) < len(arms) + 1:
            sys.exit("callgrind wrote %d dumps for %d arms: was the probe on the path?" % (len(dumps), len(arms)))
        counts = {}
        for (shape, probed), path in zip(arms, dumps[1:]):
            counts.setdefault(shape, {})["probed" if probed else "bare"] = dumped_instructions(path) / chunk
        return counts


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--python", action="append", help="a Python with Warp (repeatable); default: .venv's")
    parser.add_argument("--probe-dir", help="the instrumentation to count (default: as the CLI ships it)")
    parser.add_argument("--chunk", type=int, default=2000, help="launches per arm")
    parser.add_argument("--shape", action="append", default=[], help="count only this shape (repeatable)")
    parser.add_argument("--cache-dir", default=os.path.join(tempfile.gettempdir(), "wcp-real-launch-cost-cache"),
                        help="Warp kernel cache, kept between runs so that launches find it warm")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("launch_instructions.py needs valgrind")
    pythons = [os.path.abspath(p) for p in args.python or [os.path.join(ROOT, ".venv", "bin", "python")]]
    probe = os.path.abspath(args.probe_dir or probe_dir())
    for python in pythons:
        counts = count(python, probe, args.chunk, args.shape, args.cache_dir)
        print(f"== {python}: instructions per real CPU launch under callgrind, {args.chunk:,} launches per arm")
        print(f"{'shape':16s} {'bare':>9s} {'probed':>9s} {'added':>7s}")
        for shape, arms in counts.items():
            print(f"{shape:16s} {arms['bare']:9.0f} {arms['probed']:9.0f} {arms['probed'] - arms['bare']:7.0f}")


if __name__ == "__main__":
    sys.exit(main())
