"""cold_units quiet against loaded (run via ci/bench.sh): the proof that a budget in units holds
on a busier machine while one in seconds does not.

Each workload is checked with `check` (a cold_units budget, so reference builds are taken in
the same run, interleaved with the command's samples) once on the machine as it is, and once
with N busy loops (`python3 -c 'while True: pass'`) that this script starts before and kills
after. The conditions alternate workload by workload, so other users of a shared machine weigh
on both. Prints, per workload: units (median over the pairs, with the band), the reference, and
plain cold module work in seconds beside them, and how much each moved under load. The goal is
units within ±10 % while seconds move by tens of percent.

    python tests/bench/units_bench.py --cli build/harness/warp-compile-probe --python .venv/bin/python

About 8 minutes on the project's 2-core machine with the default 3 samples. Start it when the
machine is otherwise quiet: the load average before each check is printed.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

WORKLOADS = {
    "late_kernel": {"command": ["{python}", os.path.join(ROOT, "fixtures", "late_kernel", "app.py")], "cwd": ROOT},
    "fem_diffusion": {"command": ["{python}", "-m", "warp.examples.fem.example_diffusion", "--device", "cpu",
                                  "--headless", "--quiet", "--resolution", "10"], "cwd": None},
}


def budget_file(directory, name, workload, python, samples):
    command = [part.format(python=python) for part in workload["command"]]
    cwd = workload["cwd"] or directory
    path = os.path.join(directory, f"{name}.yaml")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("commands:\n"
                     f"  - name: {name}\n    command: {json.dumps(command)}\n    cwd: {json.dumps(cwd)}\n"
                     f"    samples: {samples}\n    device: cpu\n    timeout: 900\n    cold_units: 100000\n"
                     "    cold_seconds: 100000\n")
    return path


def run_check(cli, budget, directory, busy, env):
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)]
    try:
        if busy:
            time.sleep(1.0)
        load = os.getloadavg()[0]
        out = os.path.join(directory, "result.json")
        result = subprocess.run([cli, "check", budget, "--quiet", "--json", out], capture_output=True, text=True,
                                env=env, timeout=3600)
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    # Exit 1 is a budget verdict (late_kernel builds its module twice on purpose, which the
    # default max_builds_per_module fails); only the units matter here.
    if result.returncode not in (0, 1) or not os.path.exists(out):
        raise SystemExit(f"check failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    with open(out, encoding="utf-8") as handle:
        outcomes = {o["budget"]: o for o in json.load(handle)["commands"][0]["outcomes"]}
    reference = outcomes["cold_units"]["reference"]
    cold_ms = outcomes["cold_seconds"]["measured"] * 1000.0  # the same run's plain seconds
    return {"load_before": load, "units": reference["units_median"], "units_band": reference["units_band"],
            "units_values": reference["units_values"], "reference_ms": reference["median_ms"],
            "reference_mad_ms": reference["mad_ms"], "cold_s": cold_ms / 1000.0, "same_run": reference["same_run"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True)
    parser.add_argument("--python", required=True)
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--busy", type=int, default=2, help="busy loops in the loaded condition")
    parser.add_argument("--only", action="append", choices=sorted(WORKLOADS), help="workloads to run (default all)")
    parser.add_argument("--out", default="", help="also write every number as JSON here")
    args = parser.parse_args()
    cli = os.path.abspath(args.cli)
    python = os.path.abspath(args.python) if os.sep in args.python else args.python
    # No calibration from this machine's cache: the units must come from the run alone.
    results = {}
    with tempfile.TemporaryDirectory(prefix="wcp-units-bench-") as directory:
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(directory, "cache"), WCP_PYTHON=python,
                   PYTHONDONTWRITEBYTECODE="1")
        for name in args.only or sorted(WORKLOADS):
            budget = budget_file(directory, name, WORKLOADS[name], python, args.samples)
            results[name] = {}
            for condition, busy in (("quiet", 0), ("loaded", args.busy)):
                results[name][condition] = run_check(cli, budget, directory, busy, env)
                row = results[name][condition]
                print(f"{name} {condition}: load before {row['load_before']:.2f}, units {row['units']:.2f} "
                      f"(values {', '.join(f'{v:.2f}' for v in row['units_values'])}), cold {row['cold_s']:.2f} s, "
                      f"reference {row['reference_ms']:.1f} ms", file=sys.stderr, flush=True)
    print(f"\ncold_units quiet vs {args.busy} busy loops ({args.samples} samples each, reference in the same run)")
    print(f"{'workload':15} {'units quiet':>12} {'units loaded':>13} {'change':>8}   {'cold s quiet':>12} "
          f"{'cold s loaded':>13} {'change':>8}   {'ref ms quiet':>12} {'ref ms loaded':>13}")
    for name, row in results.items():
        quiet, loaded = row["quiet"], row["loaded"]
        print(f"{name:15} {quiet['units']:8.2f}±{quiet['units_band']:<4.2f} {loaded['units']:8.2f}±{loaded['units_band']:<5.2f}"
              f" {loaded['units'] / quiet['units'] - 1:+8.1%}   {quiet['cold_s']:12.2f} {loaded['cold_s']:13.2f}"
              f" {loaded['cold_s'] / quiet['cold_s'] - 1:+8.1%}   {quiet['reference_ms']:12.1f} "
              f"{loaded['reference_ms']:13.1f}")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=2)


if __name__ == "__main__":
    main()
