"""Prints what the tool costs on top of the command it measures (run via ci/bench.sh).

1. Ratio wall(`measure --samples 1`) / wall(bare command cold, then warm, in a fresh cache),
   per fixture, arms interleaved, median of N repeats. Goal <= 1.02.
2. Time and memory the instrumentation adds per launch, in a loop of identical launches of a
   tiny CPU kernel, with and without the probe. Goal <= 1 us per launch, and memory that does
   not grow with the launch count when launches repeat.
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
PROBE_DIR = os.path.join(ROOT, "harness", "instrument", "python")

LAUNCH_LOOP = r"""
import resource, sys, time
import warp as wp

@wp.kernel
def tiny(a: wp.array(dtype=float)):
    a[wp.tid()] = 1.0

a = wp.zeros(1, dtype=float, device="cpu")
wp.launch(tiny, dim=1, inputs=[a], device="cpu")  # compile outside the timed loop
n = int(sys.argv[1])
rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
for _ in range(n):
    wp.launch(tiny, dim=1, inputs=[a], device="cpu")
elapsed = time.perf_counter() - start
rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"RESULT {elapsed} {rss_after - rss_before}")
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


def launch_loop(python, launches, instrumented):
    with tempfile.TemporaryDirectory() as scratch:
        env = dict(os.environ, WARP_CACHE_PATH=os.path.join(scratch, "cache"))
        events = os.path.join(scratch, "events.jsonl")
        if instrumented:
            env["PYTHONPATH"] = PROBE_DIR + (":" + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
            env["WCP_EVENT_FILE"] = events
        # Warp reads kernel source from files, so the loop cannot be passed with -c.
        script = os.path.join(scratch, "launch_loop.py")
        with open(script, "w", encoding="utf-8") as handle:
            handle.write(LAUNCH_LOOP)
        out = subprocess.run([python, script, str(launches)], env=env, check=True, capture_output=True,
                             text=True).stdout
        line = next(l for l in out.splitlines() if l.startswith("RESULT"))
        _, seconds, rss_kb = line.split()
        record_bytes = os.path.getsize(events) if instrumented and os.path.exists(events) else 0
        launches_recorded = 0
        if record_bytes:
            with open(events) as handle:
                for record in map(json.loads, handle):
                    if record.get("type") == "exit":
                        launches_recorded = sum(run["count"] for run in record["launches"])
        return float(seconds), int(rss_kb), record_bytes, launches_recorded


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--python", required=True)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--launches", type=int, default=1_000_000)
    parser.add_argument("--fixtures", nargs="*", default=["clean/app.py", "late_kernel/app.py"])
    args = parser.parse_args()

    print("== measure --samples 1 versus the bare command (cold + warm), median of", args.repeats)
    for fixture in args.fixtures:
        app = os.path.join(ROOT, "fixtures", fixture)
        median, ratios = measure_ratio(args.cli, args.python, app, args.repeats)
        print(f"{fixture:28s} ratio {median:.3f}  (runs: {', '.join(f'{r:.3f}' for r in ratios)})  goal <= 1.02")

    print(f"== instrumentation cost per launch, {args.launches:,} identical launches, median of {args.repeats}")
    plain, probed = [], []
    for _ in range(args.repeats):
        plain.append(launch_loop(args.python, args.launches, False))
        probed.append(launch_loop(args.python, args.launches, True))
    plain_s = statistics.median(r[0] for r in plain)
    probed_s = statistics.median(r[0] for r in probed)
    per_launch_us = (probed_s - plain_s) / args.launches * 1e6
    rss_delta_kb = statistics.median(r[1] for r in probed) - statistics.median(r[1] for r in plain)
    print(f"bare loop      {plain_s:.3f} s  ({plain_s / args.launches * 1e6:.2f} us per launch)")
    print(f"instrumented   {probed_s:.3f} s  ({probed_s / args.launches * 1e6:.2f} us per launch)")
    print(f"added          {per_launch_us:.3f} us per launch  goal <= 1 us")
    print(f"added RSS      {rss_delta_kb} KiB during the loop; launch record {probed[0][2]} bytes "
          f"for {probed[0][3]:,} launches")


if __name__ == "__main__":
    sys.exit(main())
