"""What the instrumentation adds to one real CUDA launch, by launch shape: at most 1 us.

Two warm worker processes of the same Python, one bare and one instrumented as `measure` injects
the probe (PYTHONPATH starting with harness/instrument/python, WCP_EVENT_DIR an existing
folder), build the same kernels on the CUDA device and wait on a pipe. The parent asks them in
turn to time one chunk of launches of one shape (synchronised before and after the chunk, the
final synchronise inside the timing in both arms), so both arms run one at a time, interleaved,
under the same load. Noise only adds time, so each arm's estimate is its fastest chunk and the
added cost is min(instrumented) - min(bare) per launch. The same method as
tests/bench/real_launch_cost.py (CPU launches on real Warp); this one is for CUDA launches.
The recordings of tests/data/cuda-recorded showed 5.3-8.7 us added to a 12.9-15.0 us launch.

  python3 ci/gpu/checks/launch_cost_cuda.py --results DIR [--chunk 2000] [--chunks 15]
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpucheck  # noqa: E402

GOAL_US = 1.0
PROBE_DIR = os.path.join(gpucheck.SOURCE_DIR, "harness", "instrument", "python")

WORKER = r"""
import json, os, sys, time
import warp as wp

DEVICE = os.environ["WCP_FIXTURE_DEVICE"]
wp.config.enable_backward = False

@wp.kernel
def tiny(a: wp.array(dtype=float)):
    a[wp.tid()] = 1.0

@wp.kernel
def tiny2(a: wp.array(dtype=float)):
    a[wp.tid()] = 2.0

@wp.kernel
def grid(a: wp.array2d(dtype=float)):
    i, j = wp.tid()
    a[i, j] = 1.0

@wp.kernel
def many(a: wp.array(dtype=float), b: wp.array(dtype=int), c: wp.array(dtype=wp.vec3), d: wp.array(dtype=float),
         x: float, k: int, y: float):
    a[wp.tid()] = x

@wp.struct
class Params:
    scale: float
    count: int

@wp.kernel
def with_struct(p: Params, a: wp.array(dtype=float)):
    a[wp.tid()] = p.scale

device = wp.get_device(DEVICE)
stream = wp.Stream(DEVICE) if device.is_cuda else None  # a CPU dry run (WCP_GPU_DRY_RUN) has no streams
a = wp.zeros(1024, dtype=float, device=DEVICE)
a2 = wp.zeros((32, 32), dtype=float, device=DEVICE)
b = wp.zeros(1024, dtype=int, device=DEVICE)
c = wp.zeros(1024, dtype=wp.vec3, device=DEVICE)
d = wp.zeros(1024, dtype=float, device=DEVICE)
params = Params()
params.scale = 2.0
params.count = 3

def string_device(n):
    for _ in range(n):
        wp.launch(tiny, dim=1024, inputs=[a], device=DEVICE)

def device_object(n):
    for _ in range(n):
        wp.launch(tiny, dim=1024, inputs=[a], device=device)

def default_device(n):
    with wp.ScopedDevice(DEVICE):
        for _ in range(n):
            wp.launch(tiny, dim=1024, inputs=[a])

def stream_launch(n):
    for _ in range(n):
        wp.launch(tiny, dim=1024, inputs=[a], stream=stream)

def tuple_dim(n):
    for _ in range(n):
        wp.launch(grid, dim=(32, 32), inputs=[a2], device=DEVICE)

def many_args(n):
    for _ in range(n):
        wp.launch(many, dim=1024, inputs=[a, b, c, d, 1.5, 3, 2.5], device=DEVICE)

def struct_arg(n):
    for _ in range(n):
        wp.launch(with_struct, dim=1024, inputs=[params, a], device=DEVICE)

def block_dim(n):
    for _ in range(n):
        wp.launch(tiny, dim=1024, inputs=[a], device=DEVICE, block_dim=128)

def two_kernels(n):
    for _ in range(n // 2):
        wp.launch(tiny, dim=1024, inputs=[a], device=DEVICE)
        wp.launch(tiny2, dim=1024, inputs=[a], device=DEVICE)

shapes = {f.__name__: f for f in (string_device, device_object, default_device, stream_launch, tuple_dim, many_args,
                                  struct_arg, block_dim, two_kernels) if stream is not None or f is not stream_launch}
for shape in shapes.values():
    shape(4)  # load every module (block_dim=128 is its own build) and warm every path before timing
wp.synchronize()
print("READY", json.dumps({"probed": "_wcp_probe" in sys.modules, "warp": wp.config.version,
                           "shapes": list(shapes)}), flush=True)
for line in sys.stdin:
    name, n = line.split()
    shape, n = shapes[name], int(n)
    wp.synchronize()
    wall = time.perf_counter()
    shape(n)
    wp.synchronize()
    print("RESULT", time.perf_counter() - wall, flush=True)
"""


class Worker:
    """One arm: a warm process that times chunks of launches on request."""

    def __init__(self, script, env, cwd, name):
        self.stderr = open(os.path.join(cwd, name + ".stderr"), "w+", encoding="utf-8")
        self.process = subprocess.Popen([gpucheck.PYTHON, script], env=env, cwd=cwd, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.stderr, text=True, bufsize=1)
        self.ready = json.loads(self.expect("READY"))

    def expect(self, word):
        """The next line that starts with `word` (Warp's banner and other prints come before READY)."""
        while True:
            line = self.process.stdout.readline()
            if line.startswith(word + " "):
                return line.split(" ", 1)[1]
            if not line:
                self.stderr.seek(0)
                raise RuntimeError(f"the worker ended before {word}; stderr: {self.stderr.read()[-1500:]}")

    def time_chunk(self, shape, n):
        self.process.stdin.write(f"{shape} {n}\n")
        self.process.stdin.flush()
        return float(self.expect("RESULT"))

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=60)
        self.stderr.close()


def main():
    check = gpucheck.Check("launch-cost", __doc__)
    check.parser.add_argument("--chunk", type=int, default=2000, help="launches per chunk")
    check.parser.add_argument("--chunks", type=int, default=15, help="chunks per arm and shape")
    args = check.parse()
    check.require_cuda()
    scratch = tempfile.mkdtemp(prefix="wcp_launch_cost_")
    script = os.path.join(scratch, "worker.py")
    with open(script, "w", encoding="utf-8") as handle:
        handle.write(WORKER)
    events = os.path.join(scratch, "events")
    os.makedirs(events)
    inherited = os.environ.get("PYTHONPATH", "")
    bare_env = check.env(WARP_CACHE_PATH=os.path.join(scratch, "cache"), CUDA_CACHE_PATH=os.path.join(scratch, "cuda"))
    probe_env = dict(bare_env, WCP_EVENT_DIR=events,
                     PYTHONPATH=PROBE_DIR + (os.pathsep + inherited if inherited else ""))
    bare = Worker(script, bare_env, scratch, "bare")
    probed = Worker(script, probe_env, scratch, "probe")
    check.expect(not bare.ready["probed"] and probed.ready["probed"],
                 f"the arms are not bare and instrumented: {bare.ready}, {probed.ready}")
    worst = None
    table = {}
    for shape in bare.ready["shapes"]:
        fastest = {"bare": float("inf"), "probe": float("inf")}
        for index in range(args.chunks):
            order = (("bare", bare), ("probe", probed)) if index % 2 == 0 else (("probe", probed), ("bare", bare))
            for arm, worker in order:
                fastest[arm] = min(fastest[arm], worker.time_chunk(shape, args.chunk))
        bare_us = fastest["bare"] / args.chunk * 1e6
        added_us = (fastest["probe"] - fastest["bare"]) / args.chunk * 1e6
        table[shape] = {"bare_us": round(bare_us, 3), "added_us": round(added_us, 3)}
        worst = added_us if worst is None else max(worst, added_us)
        check.expect(added_us <= GOAL_US, f"{shape}: {added_us:.2f} us added per CUDA launch (bare {bare_us:.2f} us), "
                                          f"goal <= {GOAL_US} us")
    bare.close()
    probed.close()
    check.figure("per launch (min of chunks)", table)
    check.figure("worst added us", round(worst, 3) if worst is not None else None)
    check.figure("method", f"{args.chunks} chunks of {args.chunk} launches per arm and shape, interleaved")
    check.finish()


if __name__ == "__main__":
    main()
