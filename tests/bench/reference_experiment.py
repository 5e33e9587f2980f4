"""The experiment that chose the cold_units reference (docs/calibration.md#the-reference).

Each workload run is followed at once by every candidate reference, as `check` pairs a command
sample with the reference sample after it; the two conditions (the machine as it is, and with
two busy loops) alternate round by round, so other users of a shared machine weigh on both.
For each candidate the questions are how much `workload / reference` moves between the
conditions, and how noisy the candidate is on its own (relative MAD over its measurements).

Candidates for Warp's CPU backend come from one generated app (precompiled headers on): a
warm-up module (it also builds the per-process header, so it is set aside), then modules of
1, 2 and 4 kernels four times each, interleaved, then one of 8. A second app turns the header
off and loads two one-kernel modules. NVRTC candidates come from `calibrate --samples 1`.

    python tests/bench/reference_experiment.py --cli build/harness/warp-compile-probe \
        --python .venv/bin/python --rounds 3 --out /tmp/ref.json

Takes about 15 minutes with 3 rounds on the project's 2-core machine. Prints a table and writes every
number to --out.
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
SIZES = [1, 2, 4]
REPEATS = 4


def module_source(name, kernels):
    text = "import warp as wp\n\n"
    for k in range(kernels):
        text += (f"@wp.kernel\ndef {name}_k{k}(a: wp.array(dtype=float), b: wp.array(dtype=float)):\n"
                 f"    i = wp.tid()\n    x = a[i] * {k + 2}.0 + b[i]\n    for _ in range(4):\n"
                 f"        x = wp.sin(x) * {k + 1}.5 + wp.cos(x)\n    a[i] = x\n\n")
    text += "KERNELS = [" + ", ".join(f"{name}_k{k}" for k in range(kernels)) + "]\n"
    return text


def write_app(directory, pch, plan):
    os.makedirs(directory, exist_ok=True)
    names = []
    for index, kernels in enumerate(plan):
        name = f"m{index:02d}_k{kernels}"
        with open(os.path.join(directory, name + ".py"), "w") as handle:
            handle.write(module_source(name, kernels))
        names.append(name)
    with open(os.path.join(directory, "driver.py"), "w") as handle:
        handle.write("import importlib\nimport warp as wp\n"
                     f"wp.config.use_precompiled_headers = {pch}\n"
                     "a = wp.ones(64, dtype=float, device='cpu')\nb = wp.ones(64, dtype=float, device='cpu')\n"
                     f"for name in {names!r}:\n"
                     "    for kernel in importlib.import_module(name).KERNELS:\n"
                     "        wp.launch(kernel, dim=64, inputs=[a, b], device='cpu')\n"
                     "wp.synchronize()\n")
    return names


def measure(cli, command, cwd, work):
    out = os.path.join(work, "report.json")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    subprocess.run([cli, "measure", "--samples", "1", "--quiet", "--json", out, "--cwd", cwd, "--", *command],
                   check=True, env=env, stdout=subprocess.DEVNULL)
    with open(out) as handle:
        report = json.load(handle)
    events = [e for e in report["module_events"] if e.get("pass") == "cold" and e["status"] == "compiled"]
    return report["cold_module_ms_median"], [e["ms"] for e in events]


def fit_intercept(xs, ys):
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return my - slope * mx, slope


def references(args, apps, work, row, suffix):
    """Every candidate reference, measured right after a workload run, into row[<candidate><suffix>]."""
    _, ms = measure(args.cli, [args.python, "driver.py"], apps["pch"], work)
    plan = apps["pch_plan"]
    warm_up, rest = ms[0], ms[1:]
    by_size = {s: [t for t, k in zip(rest, plan[1:]) if k == s] for s in SIZES + [8]}
    values = {f"cpu_k{s}_median": statistics.median(by_size[s]) for s in SIZES}
    values["cpu_k8"] = by_size[8][0]
    sizes = [1, 2, 4, 8]
    points = [values["cpu_k1_median"], values["cpu_k2_median"], values["cpu_k4_median"], values["cpu_k8"]]
    values["cpu_fit_intercept"], values["cpu_fit_slope"] = fit_intercept(sizes, points)
    values["cpu_fit_intercept_theil_sen"] = theil_sen_intercept(
        [k for k in plan[1:]], rest)
    values["cpu_pch_build"] = warm_up - values["cpu_k1_median"]
    values["cpu_all_after_warmup_sum"] = sum(rest)
    values["cpu_with_warmup_sum"] = sum(ms)
    _, ms = measure(args.cli, [args.python, "driver.py"], apps["nopch"], work)
    values["cpu_nopch_k1_median"] = statistics.median(ms)
    cal = os.path.join(work, "cal.json")
    subprocess.run([args.cli, "calibrate", "--samples", "1", "--python", args.python, "--json", cal], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(cal) as handle:
        cuda = json.load(handle)["cuda"]
    for fixture in cuda["fixtures"]:
        if fixture["name"] in ("warp_module", "family_k4", "minimal"):
            values[f"nvrtc_{fixture['name']}_{'pch' if fixture['precompiled_header'] else 'nopch'}"] = fixture["median_ms"]
    values["nvrtc_fit_intercept_pch"] = cuda["with_pch"]["fixed_ms"]
    for key, value in values.items():
        row[key + suffix] = value


def one_round(args, apps, work):
    # Each workload is followed at once by the candidate references, as `check` pairs them.
    row = {}
    row["late_kernel"], _ = measure(args.cli, [args.python, "app.py"], os.path.join(ROOT, "fixtures", "late_kernel"), work)
    references(args, apps, work, row, "@late_kernel")
    row["fem"], _ = measure(args.cli, [args.python, "-m", "warp.examples.fem.example_diffusion", "--device", "cpu",
                                       "--headless", "--quiet", "--resolution", "10"], work, work)
    references(args, apps, work, row, "@fem")
    return row


def theil_sen_intercept(xs, ys):
    slopes = [(ys[j] - ys[i]) / (xs[j] - xs[i]) for i in range(len(xs)) for j in range(i + 1, len(xs)) if xs[i] != xs[j]]
    slope = statistics.median(slopes)
    return statistics.median([y - slope * x for x, y in zip(xs, ys)])


def busy_loops(count):
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True)
    parser.add_argument("--python", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--busy", type=int, default=2, help="busy loops in the loaded condition")
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    args.cli = os.path.abspath(args.cli)
    args.python = os.path.abspath(args.python) if os.sep in args.python else args.python
    results = {}
    with tempfile.TemporaryDirectory(prefix="wcp-refexp-") as work:
        pch_plan = [1] + [s for _ in range(REPEATS) for s in SIZES] + [8]
        apps = {"pch": os.path.join(work, "pch"), "nopch": os.path.join(work, "nopch"), "pch_plan": pch_plan}
        write_app(apps["pch"], True, pch_plan)
        write_app(apps["nopch"], False, [1, 1])
        # Conditions alternate round by round, so other users of a shared machine weigh on both.
        for condition in ("quiet", "loaded"):
            results[condition] = {"rounds": [], "load": []}
        for index in range(args.rounds):
            for condition, busy in (("quiet", 0), ("loaded", args.busy)):
                loops = busy_loops(busy)
                try:
                    time.sleep(1.0 if busy else 0.0)
                    row = one_round(args, apps, work)
                finally:
                    for loop in loops:
                        loop.kill()
                        loop.wait()
                load = os.getloadavg()[0]
                row["load_1min_after"] = load
                results[condition]["rounds"].append(row)
                print(f"round {index + 1} {condition}: load {load:.2f}", file=sys.stderr, flush=True)
    candidates = [k.split("@")[0] for k in results["quiet"]["rounds"][0] if k.endswith("@fem")]
    print(f"{'candidate':28} {'quiet ms':>9} {'rMAD':>6} {'loaded ms':>10} {'rMAD':>6} {'change':>8}"
          f" {'late/ref':>9} {'fem/ref':>9}")
    summary = {}

    def med_mad(values):
        med = statistics.median(values)
        return med, statistics.median([abs(v - med) for v in values]) / med if med else float("nan")

    for key in candidates:
        cells = {}
        for condition in ("quiet", "loaded"):
            rounds = results[condition]["rounds"]
            # The candidate's own level and noise: both of its measurements per round.
            level, rmad = med_mad([r[f"{key}@{w}"] for r in rounds for w in ("late_kernel", "fem")])
            # Units per workload, each workload run over the reference taken right after it.
            units = {w: statistics.median([r[w] / r[f"{key}@{w}"] for r in rounds]) for w in ("late_kernel", "fem")}
            cells[condition] = (level, rmad, units)
        (q, qr, qu), (lv, lr, lu) = cells["quiet"], cells["loaded"]
        late = lu["late_kernel"] / qu["late_kernel"] - 1
        fem = lu["fem"] / qu["fem"] - 1
        summary[key] = {"quiet_ms": q, "quiet_rmad": qr, "loaded_ms": lv, "loaded_rmad": lr,
                        "late_units_change": late, "fem_units_change": fem}
        print(f"{key:28} {q:9.1f} {qr:6.1%} {lv:10.1f} {lr:6.1%} {lv / q - 1:+8.1%} {late:+9.1%} {fem:+9.1%}")
    for workload in ("late_kernel", "fem"):
        q = statistics.median([r[workload] for r in results["quiet"]["rounds"]])
        lv = statistics.median([r[workload] for r in results["loaded"]["rounds"]])
        print(f"{workload + ' (plain ms)':28} {q:9.1f} {'':6} {lv:10.1f} {'':6} {lv / q - 1:+8.1%}")
    results["summary"] = summary
    if args.out:
        with open(args.out, "w") as handle:
            json.dump(results, handle, indent=2)


if __name__ == "__main__":
    main()
