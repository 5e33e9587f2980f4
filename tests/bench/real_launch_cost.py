"""What the instrumentation adds to one launch, by launch shape, on real Warp CPU launches (run
via ci/bench.sh beside launch_cost.py, which times the fake Warp and underestimates this path).

The probe is injected as the CLI injects it (PYTHONPATH holds the instrumentation folder, whose
sitecustomize.py installs _wcp_probe when WCP_EVENT_DIR names a directory), into one process per
Python given. In that process each shape alternates chunks of launches through the probe's entry
point and through Warp's original (the wrapper's __wrapped__), in ABBA order, so both arms share
caches, the compiled module and machine load. wp.launch_tiled forwards to the module-level
launch, so its bare chunks also point that name back at the original for their duration. The
kernels are one line on a small dim, compiled once into a kernel cache kept between runs (warm
cache). Per shape the table gives each arm's us per launch as the min over its chunks (the chunk
least disturbed by other load) and the median; "added min" is probed min - bare min (the goal:
<= 1 us for every shape on the pinned Warp), "added med" the median of the pairs' differences.

The probe is the one the CLI ships: the Python tree with the build's native launch counter
(tests/helpers/probe_tree.py); --python-counter times the Python counter instead (what an
interpreter that cannot load the native one gets). --probe-dir runs another copy of the
instrumentation (e.g. an older commit's, to show a fix).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "helpers"))
from probe_tree import probe_dir  # noqa: E402

PROGRAM = r"""
import json, sys, time
import warp as wp

wp.config.quiet = True
wp.init()
ctx = sys.modules.get("warp._src.context") or sys.modules["warp.context"]


@wp.struct
class Params:
    scale: float
    offset: wp.vec3
    count: int


@wp.kernel
def one(a: wp.array(dtype=float)):
    a[wp.tid()] = 1.0


@wp.kernel
def many(a: wp.array(dtype=float), b: wp.array(dtype=int), c: wp.array(dtype=wp.vec3), s: float, n: int,
         d: wp.array(dtype=float), t: float, m: int, e: wp.array(dtype=float)):
    e[wp.tid()] = s


@wp.kernel
def with_struct(p: Params, a: wp.array(dtype=float)):
    a[wp.tid()] = p.scale


@wp.kernel
def tiled(a: wp.array(dtype=float)):
    i, j = wp.tid()
    a[i] = 1.0


N = 16
cpu = wp.get_device("cpu")
wp.set_device("cpu")
a = wp.zeros(N, dtype=float, device="cpu")
b = wp.zeros(N, dtype=int, device="cpu")
c = wp.zeros(N, dtype=wp.vec3, device="cpu")
d = wp.zeros(N, dtype=float, device="cpu")
e = wp.zeros(N, dtype=float, device="cpu")
params = Params()
params.scale = 2.0
params.count = 3
cmd = wp.launch(one, dim=N, inputs=[a], device="cpu", record_cmd=True)

probed_launch = wp.launch
bare_launch = getattr(probed_launch, "__wrapped__", None)
if bare_launch is None:
    sys.exit("wp.launch is not wrapped: is the probe on PYTHONPATH and WCP_EVENT_DIR set?")
probed_tiled = getattr(wp, "launch_tiled", None)
bare_tiled = getattr(probed_tiled, "__wrapped__", None)
probed_cmd = ctx.Launch.launch
bare_cmd = getattr(probed_cmd, "__wrapped__", probed_cmd)


def device_string(probed):
    launch = probed_launch if probed else bare_launch
    for _ in range(chunk):
        launch(one, dim=N, inputs=[a], device="cpu")


def device_object(probed):
    launch = probed_launch if probed else bare_launch
    for _ in range(chunk):
        launch(one, dim=N, inputs=[a], device=cpu)


def default_device(probed):
    launch = probed_launch if probed else bare_launch
    for _ in range(chunk):
        launch(one, dim=N, inputs=[a])


def many_args(probed):
    launch = probed_launch if probed else bare_launch
    for _ in range(chunk):
        launch(many, dim=N, inputs=[a, b, c, 1.5, 7, d, 2.5, 9], outputs=[e], device="cpu")


def struct_arg(probed):
    launch = probed_launch if probed else bare_launch
    for _ in range(chunk):
        launch(with_struct, dim=N, inputs=[params, a], device="cpu")


def launch_tiled(probed):
    # The original launch_tiled calls the module's launch: the bare arm must reach the original.
    launch = probed_tiled if probed else bare_tiled
    ctx.launch = probed_launch if probed else bare_launch
    try:
        for _ in range(chunk):
            launch(tiled, dim=[N], inputs=[a], device="cpu", block_dim=1)
    finally:
        ctx.launch = probed_launch


def record_cmd(probed):
    if probed:
        for _ in range(chunk):
            cmd.launch()
    else:
        for _ in range(chunk):
            bare_cmd(cmd)


shapes = [device_string, device_object, default_device, many_args, struct_arg, launch_tiled, record_cmd]
if bare_tiled is None:
    shapes.remove(launch_tiled)
"""

# The timing: ABBA chunks of each shape, probed and bare.
TIMING = r"""
chunk, pairs, only = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
if only:
    shapes = [shape for shape in shapes if shape.__name__ in only]
for shape in shapes:
    shape(True)
    shape(False)  # warm both arms (first launch loads the module)
results = {}
for shape in shapes:
    probed_us, bare_us = [], []
    for i in range(pairs):
        took = {}
        for probed in ((False, True) if i % 2 == 0 else (True, False)):
            start = time.perf_counter()
            shape(probed)
            took[probed] = time.perf_counter() - start
        probed_us.append(took[True] / chunk * 1e6)
        bare_us.append(took[False] / chunk * 1e6)
    results[shape.__name__] = {"probed": probed_us, "bare": bare_us}
print("RESULT", json.dumps({"warp": wp.config.version, "results": results}))
"""


def run_probed(scratch, python, probe, program, args, cache_dir, faults="", runner=(), env=()):
    """Runs `program` (text) in `scratch` under the probe as the CLI injects it, behind `runner`
    (e.g. valgrind): its stdout, or exit with its stderr; the probe's records are in
    scratch/events."""
    events = os.path.join(scratch, "events")
    os.makedirs(events)
    script = os.path.join(scratch, "launch_program.py")
    with open(script, "w", encoding="utf-8") as handle:
        handle.write(program)
    env = dict(os.environ, PYTHONPATH=probe, WCP_EVENT_DIR=events, WARP_CACHE_PATH=cache_dir, WCP_PROBE_FAULT=faults,
               **dict(env))
    done = subprocess.run([*runner, python, script, *map(str, args)], env=env, capture_output=True, text=True,
                          cwd=scratch)
    if done.returncode != 0:
        sys.exit("%s failed (exit %d):\n%s" % (python, done.returncode, done.stderr[-4000:]))
    return done.stdout


def run(python, probe_dir, chunk, pairs, cache_dir, shapes=(), faults=""):
    with tempfile.TemporaryDirectory() as scratch:
        out = run_probed(scratch, python, probe_dir, PROGRAM + TIMING, [chunk, pairs, *shapes], cache_dir, faults)
        events = os.path.join(scratch, "events")
        records = [os.path.join(events, name) for name in os.listdir(events)]
        if not records:
            sys.exit("the probe wrote no record: it did not attach")
        counter = "unknown"
        with open(records[0], encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                if record.get("type") == "attach":
                    counter = record.get("launch_counter", counter)
    result = json.loads(next(line for line in out.splitlines() if line.startswith("RESULT")).split(None, 1)[1])
    result["counter"] = counter
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--python", action="append", help="a Python with Warp (repeatable); default: .venv's")
    parser.add_argument("--probe-dir", help="the instrumentation to time (default: as the CLI ships it)")
    parser.add_argument("--python-counter", action="store_true", help="count in Python, not with the native counter")
    parser.add_argument("--chunk", type=int, default=300, help="launches per arm and pair")
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--shape", action="append", default=[], help="time only this shape (repeatable)")
    parser.add_argument("--cache-dir", default=os.path.join(tempfile.gettempdir(), "wcp-real-launch-cost-cache"),
                        help="Warp kernel cache, kept between runs so that launches find it warm")
    args = parser.parse_args()
    pythons = [os.path.abspath(p) for p in args.python or [os.path.join(ROOT, ".venv", "bin", "python")]]
    print("machine:", os.uname().nodename, "cores", os.cpu_count(), "load", os.getloadavg())
    for python in pythons:
        out = run(python, os.path.abspath(args.probe_dir or probe_dir()), args.chunk, args.pairs, args.cache_dir,
                  args.shape, "python-counter" if args.python_counter else "")
        print(f"== Warp {out['warp']} ({python}), {out['counter']} launch counter: real CPU launches, us per "
              f"launch; in-process ABBA arms, {args.chunk:,} launches each, {args.pairs} pairs")
        print(f"{'shape':16s} {'bare min':>9s} {'bare med':>9s} {'added min':>10s} {'added med':>10s}")
        worst = 0.0
        for shape, result in out["results"].items():
            probed, bare = result["probed"], result["bare"]
            added_min = min(probed) - min(bare)
            added_median = statistics.median(p - b for p, b in zip(probed, bare))
            worst = max(worst, added_min)
            print(f"{shape:16s} {min(bare):9.2f} {statistics.median(bare):9.2f} {added_min:10.3f} "
                  f"{added_median:10.3f}")
        print(f"worst shape (added min): {worst:.3f} us per launch  goal <= 1 us")


if __name__ == "__main__":
    sys.exit(main())
