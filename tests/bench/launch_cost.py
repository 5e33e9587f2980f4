"""What the instrumentation adds to one launch, by launch shape, on the fake Warp (run via
ci/bench.sh; no GPU or real Warp needed).

Real CUDA launches cost the probe 5-9 us each on an H200 while CPU launches cost it under
0.5 us (../shared/gpu-recorded/README.md). The fake Warp of tests/python/fake_warp.py has a
CUDA device beside the CPU, so the launch shapes CUDA programs use can be timed here: device
strings, Device objects, streams, arrays that carry their device, a default device, several
arguments. In-process arms: one instrumented process alternates chunks of launches through the
probe's wp.launch and through the original (its __wrapped__), so both arms share caches and
machine load; the median difference per launch is the probe's cost. Goal: <= 1 us per launch
for each shape of identical launches.

--probe-dir runs another copy of the instrumentation (e.g. an older commit's, to show a fix).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))
sys.path.insert(0, os.path.join(ROOT, "tests", "helpers"))
from fake_warp import make_fake_warp  # noqa: E402
from probe_tree import probe_dir  # noqa: E402

PROGRAM = r"""
import json, sys, time
import warp as wp
import warp._src.context as ctx

class Array:
    # What a launch reads of a Warp array: its dtype and device.
    def __init__(self, dtype, device):
        self.dtype = dtype
        self.device = device

def one(x): pass
def many(a, b, c, n): pass
one = wp.kernel(one)
many = wp.kernel(many)

cpu = wp.get_device("cpu")
cuda = wp.get_device("cuda:0")
stream = wp.Stream("cuda:0")
a_cpu, a_cuda = Array(float, cpu), Array(float, cuda)
b_cuda, c_cuda = Array(int, cuda), Array(float, cuda)
ordinal = 0

def cpu_string(launch):
    launch(one, dim=16, inputs=[a_cpu], device="cpu")
def cuda_string(launch):
    launch(one, dim=16, inputs=[a_cuda], device="cuda:0")
def cuda_device(launch):
    launch(one, dim=16, inputs=[a_cuda], device=cuda)
def cuda_array_device(launch):
    launch(one, dim=16, inputs=[a_cuda], device=a_cuda.device)
def cuda_stream(launch):
    launch(one, dim=16, inputs=[a_cuda], stream=stream)
def cuda_default(launch):
    launch(one, dim=16, inputs=[a_cuda])
def cuda_built_string(launch):
    launch(one, dim=16, inputs=[a_cuda], device=f"cuda:{ordinal}")
def cuda_shape_dim(launch):
    launch(one, dim=(4, 4), inputs=[a_cuda], device=cuda)
def cuda_many_args(launch):
    launch(many, dim=16, inputs=[a_cuda, b_cuda, c_cuda, 3], device=cuda)

shapes = [cpu_string, cuda_string, cuda_device, cuda_array_device, cuda_stream, cuda_default, cuda_built_string,
          cuda_shape_dim, cuda_many_args]
chunk, pairs = int(sys.argv[1]), int(sys.argv[2])
probed = wp.launch
bare = getattr(probed, "__wrapped__", None)
if bare is None:
    sys.exit("wp.launch is not wrapped: is the probe on PYTHONPATH?")
results = {}
for shape in shapes:
    if shape is cuda_default:
        wp.set_device("cuda:0")
    added = []
    for i in range(pairs):
        took = {}
        for launch in ((bare, probed) if i % 2 == 0 else (probed, bare)):
            ctx.invocations.clear()
            start = time.perf_counter()
            for _ in range(chunk):
                shape(launch)
            took[launch is probed] = time.perf_counter() - start
        added.append((took[True] - took[False]) / chunk * 1e6)
    bare_us = took[False] / chunk * 1e6
    results[shape.__name__] = {"added": added, "bare": bare_us}
    wp.set_device("cpu")
print("RESULT", json.dumps(results))
"""


def run(probe_dir, chunk, pairs):
    with tempfile.TemporaryDirectory() as scratch:
        fake = make_fake_warp(os.path.join(scratch, "fake"), "new")
        events = os.path.join(scratch, "events")
        os.makedirs(events)
        script = os.path.join(scratch, "program.py")
        with open(script, "w", encoding="utf-8") as handle:
            handle.write(PROGRAM)
        env = dict(os.environ, PYTHONPATH=probe_dir + ":" + fake, WCP_EVENT_DIR=events, WARP_CACHE_PATH=scratch)
        out = subprocess.run([sys.executable, script, str(chunk), str(pairs)], env=env, check=True,
                             capture_output=True, text=True, cwd=scratch).stdout
    return json.loads(next(line for line in out.splitlines() if line.startswith("RESULT")).split(None, 1)[1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--probe-dir", help="the instrumentation to time (default: as the CLI ships it, with the "
                        "build's native launch counter)")
    parser.add_argument("--chunk", type=int, default=20_000, help="launches per arm")
    parser.add_argument("--pairs", type=int, default=10)
    args = parser.parse_args()
    print("machine:", os.uname().nodename, "cores", os.cpu_count(), "load", os.getloadavg())
    print(f"== added time per launch on the fake Warp, by launch shape (in-process arms, {args.chunk:,} launches "
          f"each, {args.pairs} pairs; median)")
    worst = 0.0
    for shape, result in run(args.probe_dir or probe_dir(), args.chunk, args.pairs).items():
        added = statistics.median(result["added"])
        worst = max(worst, added)
        print(f"{shape:18s} bare {result['bare']:6.2f} us, added {added:6.3f} us per launch  "
              f"(pairs: {', '.join(f'{x:.2f}' for x in result['added'])})")
    print(f"worst shape: {worst:.3f} us per launch  goal <= 1 us")


if __name__ == "__main__":
    sys.exit(main())
