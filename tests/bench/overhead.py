"""Prints what the tool costs on top of the command it measures (run via ci/bench.sh).

1. Ratio wall(`measure --samples 1`) / wall(bare command cold, then warm, in a fresh cache),
   per fixture, arms interleaved, median of N repeats. Goal <= 1.02. Needs --cli.
2. Time the instrumentation adds per recorded launch:
   - in-process arms: one instrumented process alternates chunks of launches through the
     probe's wp.launch and through Warp's own (its __wrapped__), so both arms share caches
     and machine load; the median difference is the wrapper's cost. Goal <= 1 us for
     identical launches of a tiny CPU kernel.
   - process arms: bare and instrumented processes alternate, median of N; on a loaded
     machine their noise is larger than the difference, so they are a sanity check.
   Workloads: identical launches, two kernels alternating, and Warp's fem diffusion example
   (its real launch mix; too few launches for a per-launch number, so the wall delta).
3. Memory and record size: RSS growth during the loop versus launch count, and the bytes of
   the final launch record for 1e6 identical, 1e6 alternating, a loop of five kernels with a
   data-dependent inner count, and the fem diffusion example (goal <= 20 KB).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "helpers"))
from probe_tree import probe_dir  # noqa: E402

PROBE_DIR = probe_dir()  # as the CLI ships it, with the build's native launch counter

KERNELS = r"""
import json, random, resource, sys, time
import warp as wp

@wp.kernel
def tiny(a: wp.array(dtype=float)):
    a[wp.tid()] = 1.0

@wp.kernel
def tiny2(a: wp.array(dtype=float)):
    a[wp.tid()] = 2.0

@wp.kernel
def k3(a: wp.array(dtype=float)):
    a[wp.tid()] = 3.0

@wp.kernel
def k4(a: wp.array(dtype=float)):
    a[wp.tid()] = 4.0

@wp.kernel
def k5(a: wp.array(dtype=float)):
    a[wp.tid()] = 5.0

a = wp.zeros(1, dtype=float, device="cpu")
for k in (tiny, tiny2, k3, k4, k5):
    wp.launch(k, dim=1, inputs=[a], device="cpu")  # compile outside the timed part


def body(launch, mode, n):
    if mode == "same":
        for _ in range(n):
            launch(tiny, dim=1, inputs=[a], device="cpu")
    elif mode == "alternate":
        for _ in range(n // 2):
            launch(tiny, dim=1, inputs=[a], device="cpu")
            launch(tiny2, dim=1, inputs=[a], device="cpu")
    else:  # "solver": five kernels, an inner pair repeated a data-dependent number of times
        rng = random.Random(1)
        done = 0
        while done < n:
            launch(tiny, dim=1, inputs=[a], device="cpu")
            inner = rng.randrange(3, 20)
            for _ in range(inner):
                launch(tiny2, dim=1, inputs=[a], device="cpu")
                launch(k3, dim=1, inputs=[a], device="cpu")
            launch(k4, dim=1, inputs=[a], device="cpu")
            launch(k5, dim=1, inputs=[a], device="cpu")
            done += 3 + 2 * inner
"""

LOOP = KERNELS + r"""
mode, n = sys.argv[1], int(sys.argv[2])
rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
body(wp.launch, mode, n)
elapsed = time.perf_counter() - start
rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print("RESULT", elapsed, rss_after - rss_before)
"""

INPROCESS = KERNELS + r"""
mode, chunk, pairs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
probed = wp.launch
bare = getattr(probed, "__wrapped__", None)
if bare is None:
    sys.exit("wp.launch is not wrapped: is the probe on PYTHONPATH?")
added = []
for i in range(pairs):
    arms = (bare, probed) if i % 2 == 0 else (probed, bare)
    took = {}
    for launch in arms:
        start = time.perf_counter()
        body(launch, mode, chunk)
        took[launch is probed] = time.perf_counter() - start
    added.append((took[True] - took[False]) / chunk * 1e6)
print("RESULT", json.dumps(added))
"""


def timed(command, env):
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def bare_cold_warm(python, app):
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, WARP_CACHE_PATH=cache)
        return timed([python, app], env) + timed([python, app], env)


def measure_ratio(cli, python, app, repeats):
    ratios = []
    for _ in range(repeats):
        bare = bare_cold_warm(python, app)
        tool = timed([cli, "measure", "--quiet", "--samples", "1", "--", python, app], dict(os.environ))
        ratios.append(tool / bare)
    return statistics.median(ratios), ratios


def environment(scratch, instrumented):
    env = dict(os.environ, WARP_CACHE_PATH=os.path.join(os.path.dirname(scratch), "cache"))
    env.pop("WCP_EVENT_DIR", None)
    if instrumented:
        env["PYTHONPATH"] = PROBE_DIR + (":" + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env["WCP_EVENT_DIR"] = scratch
    return env


def final_record(event_dir):
    """(bytes of the last launches line, its total) of the one process that wrote there."""
    size, total = 0, 0
    for name in os.listdir(event_dir):
        if not (name.startswith("events-") and name.endswith(".jsonl")):
            continue
        with open(os.path.join(event_dir, name), encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                if record["type"] == "launches":
                    size, total = len(line), record["total"]
    return size, total


def run_python(python, source, args, env, scratch):
    # Warp reads kernel source from files, so the programs cannot be passed with -c.
    script = os.path.join(scratch, "bench_program.py")
    with open(script, "w", encoding="utf-8") as handle:
        handle.write(source)
    out = subprocess.run([python, script, *map(str, args)], env=env, check=True, capture_output=True, text=True,
                         cwd=scratch).stdout
    return next(l for l in out.splitlines() if l.startswith("RESULT")).split(None, 1)[1]


def launch_loop(python, base, mode, launches, instrumented):
    scratch = tempfile.mkdtemp(dir=base)
    result = run_python(python, LOOP, [mode, launches], environment(scratch, instrumented), scratch)
    seconds, rss_kb = result.split()
    size, total = final_record(scratch) if instrumented else (0, 0)
    return float(seconds), int(rss_kb), size, total


def in_process(python, base, mode, chunk, pairs):
    scratch = tempfile.mkdtemp(dir=base)
    return json.loads(run_python(python, INPROCESS, [mode, chunk, pairs], environment(scratch, True), scratch))


def fem_example(python, base, instrumented):
    scratch = tempfile.mkdtemp(dir=base)
    env = environment(scratch, instrumented)
    start = time.perf_counter()
    subprocess.run([python, "-m", "warp.examples.fem.example_diffusion", "--device", "cpu", "--headless", "--quiet",
                    "--resolution", "10"], env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   cwd=scratch)
    elapsed = time.perf_counter() - start
    size, total = final_record(scratch) if instrumented else (0, 0)
    return elapsed, size, total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", help="warp-compile-probe binary, for the measure ratio (skipped without it)")
    parser.add_argument("--python", required=True)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--launches", type=int, default=200_000, help="launches per process arm")
    parser.add_argument("--chunk", type=int, default=20_000, help="launches per in-process arm")
    parser.add_argument("--size-launches", type=int, default=1_000_000, help="launches for the record-size runs")
    parser.add_argument("--fixtures", nargs="*", default=["clean/app.py", "late_kernel/app.py"])
    args = parser.parse_args()
    args.python = os.path.abspath(args.python)  # the programs run in scratch directories
    print("machine:", os.uname().nodename, "cores", os.cpu_count(), "load", os.getloadavg())

    if args.cli and os.path.exists(args.cli):
        print("== measure --samples 1 versus the bare command (cold + warm), median of", args.repeats)
        for fixture in args.fixtures:
            app = os.path.join(ROOT, "fixtures", fixture)
            median, ratios = measure_ratio(args.cli, args.python, app, args.repeats)
            print(f"{fixture:28s} ratio {median:.3f}  (runs: {', '.join(f'{r:.3f}' for r in ratios)})  goal <= 1.02")

    with tempfile.TemporaryDirectory() as base:
        print(f"== added time per recorded launch, in-process arms ({args.chunk:,} launches each, "
              f"{2 * args.repeats} pairs; median)")
        for mode, goal in (("same", "  goal <= 1 us"), ("alternate", ""), ("solver", "")):
            added = in_process(args.python, base, mode, args.chunk, 2 * args.repeats)
            print(f"{mode:10s} added {statistics.median(added):6.3f} us per launch{goal}  "
                  f"(pairs: {', '.join(f'{x:.2f}' for x in added)})")

        print(f"== process arms, bare and instrumented alternating, {args.launches:,} launches, median of "
              f"{args.repeats}")
        for mode in ("same", "alternate"):
            plain, probed = [], []
            for _ in range(args.repeats):
                plain.append(launch_loop(args.python, base, mode, args.launches, False))
                probed.append(launch_loop(args.python, base, mode, args.launches, True))
            plain_s = statistics.median(r[0] for r in plain)
            probed_s = statistics.median(r[0] for r in probed)
            print(f"{mode:10s} bare {plain_s / args.launches * 1e6:6.2f} us, instrumented "
                  f"{probed_s / args.launches * 1e6:6.2f} us per launch: added "
                  f"{(probed_s - plain_s) / args.launches * 1e6:6.3f} us")

        plain = [fem_example(args.python, base, False) for _ in range(1)]  # fills the shared cache
        plain, probed = [], []
        for _ in range(args.repeats):
            plain.append(fem_example(args.python, base, False))
            probed.append(fem_example(args.python, base, True))
        delta = statistics.median(p[0] for p in probed) - statistics.median(p[0] for p in plain)
        print(f"fem diffusion (warm cache, {probed[0][2]} launches): wall {statistics.median(p[0] for p in plain):.2f} s"
              f" bare, added {delta * 1000:+.0f} ms for the whole run (attach, hooks, records; below noise per launch)")

        print("== memory and record size (instrumented)")
        for mode in ("same", "alternate", "solver"):
            for n in (args.size_launches // 10, args.size_launches):
                seconds, rss_kb, size, total = launch_loop(args.python, base, mode, n, True)
                print(f"{mode:10s} {total:>9,} launches: RSS +{rss_kb:6d} KiB during the loop, launch record "
                      f"{size:7,d} bytes")
        print(f"fem diffusion  {probed[0][2]:>5,} launches: launch record {probed[0][1]:7,d} bytes  goal <= 20 KB")


if __name__ == "__main__":
    sys.exit(main())
