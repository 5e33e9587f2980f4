"""Gate cost and A/A, B/A verdicts of `check` (samples: auto by default).

What a compile-budget gate costs against running the command bare, and how often its baseline
verdict is wrong.

1. Gate cost. Per program (the clean fixture, Warp's fem diffusion and convection-diffusion
   examples on the CPU), repetitions interleave: a bare cold + warm run of the command (no probe,
   a fresh empty Warp kernel cache in WARP_CACHE_PATH, cold then warm in it), `check` of its
   entry without a baseline, `check` of it with a baseline and a history of earlier runs
   (`--history`, a fresh copy of the same history each time), and, the first --contrast-repeat
   repetitions, `check` with `samples: 3`. Reported: median walls and
   ratio = check wall / (bare cold wall + bare warm wall), median over the paired repetitions.
   Goals (with --mode auto): <= 1.3 without a baseline, <= 1.6 with baseline + history.
2. A/A: --aa checks of the A twin (--twins: twin_app.py, the clean fixture's, and
   fem_twin_app.py, Warp's fem diffusion example's, both in tests/bench/data/gate_cost) against its own
   baseline, with a history that grows by every check as a CI's would (all runs unchanged).
   Every baseline verdict "fail" (false regression) or "improved" is false; goal: at most 1.
3. B/A: --ba checks of the B twin (the same launches, extra kernels compiled into the same module,
   never launched: 10-15 % more cold module work) against the A baseline, each with a fresh copy
   of the A history (B runs never enter the noise model: a pull request's check is judged
   against main's history, and is not main's history). Caught = baseline verdict "fail";
   goal: at least 90 %. A/A and B/A checks interleave (A, B, A, B, ...), so machine drift hits
   both. The B/A twin's measured cold-module-work ratio is printed (median over the B checks
   against the median over the A checks).

4. Under load (--load N, issue 49): N busy loops run beside every part for its whole length, as
   a shared CI runner's other jobs would. The baseline budget judges cold module work on the
   CPU clock when both reports have it; each check records the clock it judged (`judged_on`)
   and the wall's delta beside it. --load-after-seed N: the baseline and history are taken
   quiet and only the A/A and B/A checks run beside N busy loops (main measured on an idle
   runner, the pull request on a busy one).
5. The clocks under load (--parts clock): per program, --clock-repeat interleaved pairs of
   `measure --samples 1`, one quiet and one beside two busy loops started for it alone; reported:
   the median cold module work on the wall and on the CPU clock, quiet and loaded, and each
   clock's loaded/quiet ratio (goal for the CPU clock: <= 1.10).

6. Verdicts (--parts verdicts): the project's own budget files (budgets/fixtures.yaml,
   budgets/must_fail.yaml) checked with `samples: auto` and with `samples: 3`; every (entry,
   budget) verdict must be the same. Goal: none differs.

Budgets: tests/bench/data/gate_cost/budgets.yaml (`samples: auto`); the bench writes copies of
it with `samples: N` (--mode N, and the samples-3 contrast), keeping the `baseline:` line of the
entry being checked only. Structural budgets hold by a clear margin, so any other failing
budget is a false failure too and is counted.

    .venv/bin/python tests/bench/gate_cost.py --cli build/harness/warp-compile-probe \\
        --python .venv/bin/python [--mode auto|N] [--repeat 3] [--aa 20] [--ba 20] [--parts cost,twin,verdicts]
        [--json out.json]

7. Identity and pairs (--parts identity, issue 63), under --conditions quiet (nothing beside),
   drift (the baseline and history taken beside two busy loops, the checks without) and busy (two
   busy loops throughout): --aa A/A checks of the twin against its stored baseline (unchanged
   identities: goal UNCHANGED, one run), --ba B/A checks against it (goal: every one not caught
   reads NOT JUDGED) and --ba B/A checks paired against a scratch repository's HEAD holding the A
   twin (`baseline: {rev: HEAD}`; goal >= 95 % caught, median <= 5 pairs, none silent), and
   --fem-checks A/A and B/A checks of the fem twin against its stored baseline (runner speed read
   off its unchanged modules). With --aa 20 --ba 10 --fem-checks 3: 42 minutes for the three
   conditions (docs/measurement.md#identity-and-pairs-measured).

Duration on the project's 2-core machine (2026-12-05): --parts twin with 20 A/A and 20 B/A took
2.7 minutes (quiet: every check decided in 1-2 runs); --parts verdicts 2.4; --parts cost for
two programs and 2 repetitions 2.6-4.5. Under a parallel build, checks with a baseline take up
to 5 runs and the defaults about 15 minutes. On 2026-12-06, on a host whose CPU speed itself
varied by 8-11 % between runs: --load 2 --parts twin --twins twin 13.5 minutes; --parts cost
for the twin 1.4 (loaded); --parts clock for fem-diffusion and twin with 3 pairs about 6; a
fem-twin check takes 15-30 s a run, so its 20 + 20 checks take 20-60 minutes.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# A busy loop that ends itself, so that a bench killed midway leaves no loop behind for long.
BUSY_LOOP = "import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end:\n    pass\n"


class BusyLoops:
    """N busy loops for the length of a `with` block (none when N is 0)."""

    def __init__(self, count, seconds):
        self.count, self.seconds, self.loops = count, seconds, []

    def __enter__(self):
        self.loops = [subprocess.Popen([sys.executable, "-c", BUSY_LOOP.format(seconds=self.seconds)])
                      for _ in range(self.count)]
        return self

    def __exit__(self, *_):
        for loop in self.loops:
            loop.kill()
            loop.wait()


ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(ROOT, "tests", "bench", "data", "gate_cost")
BUDGETS = os.path.join(DATA, "budgets.yaml")
PROGRAMS = {
    "fixture-clean": [os.path.join(ROOT, "fixtures", "clean", "app.py")],
    "fem-diffusion": ["-m", "warp.examples.fem.example_diffusion", "--device", "cpu", "--headless", "--quiet",
                      "--resolution", "10"],
    "twin": [os.path.join(DATA, "twin_app.py")],
    "fem-twin": [os.path.join(DATA, "fem_twin_app.py")],
    "fem-convection-diffusion": ["-m", "warp.examples.fem.example_convection_diffusion", "--device", "cpu",
                                 "--headless", "--quiet", "--resolution", "10", "--num-frames", "5"],
}
# The A/B twins (--twins): the clean fixture's and Warp's fem diffusion example's.
TWINS = {"twin": "tests/bench/data/gate_cost/twin_app.py", "fem-twin": "tests/bench/data/gate_cost/fem_twin_app.py"}


class Fatal(Exception):
    pass


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def budget_variant(directory, samples, baseline_entry):
    """A copy of budgets.yaml in DIRECTORY with `samples: SAMPLES` and only BASELINE_ENTRY's
    `baseline:` line (none when it is None); returns its path. A check validates every entry's
    baseline file, so the other entries must not name one."""
    name = f"budgets-s{samples}-{baseline_entry or 'nobaseline'}.yaml"
    path = os.path.join(directory, name)
    if os.path.exists(path):
        return path
    lines, entry = [], None
    with open(BUDGETS, encoding="utf-8") as handle:
        for line in handle:
            found = re.match(r"\s*- name:\s*(\S+)", line)
            if found:
                entry = found.group(1)
            if re.match(r"\s+samples:\s*auto\s*$", line):
                line = line.replace("auto", str(samples))
            if re.match(r"\s+baseline:", line) and entry != baseline_entry:
                continue
            lines.append(line)
    with open(path, "w", encoding="utf-8") as handle:
        handle.writelines(lines)
    return path


class Bench:
    def __init__(self, args, scratch):
        self.args = args
        self.cli = os.path.abspath(args.cli)
        self.python = os.path.abspath(args.python)
        self.scratch = scratch
        self.count = 0
        self.copies = 0
        self.env = {k: v for k, v in os.environ.items() if k not in ("WCP_HISTORY", "WARP_CACHE_PATH")}
        self.env.update(WCP_PYTHON=self.python, WCP_GATE_DATA=DATA, PYTHONDONTWRITEBYTECODE="1",
                        WCP_GATE_BASELINES=os.path.join(scratch, "baselines"))

    def bare(self, name):
        """Wall seconds of a cold then a warm run of the program with a fresh empty kernel cache."""
        cache = tempfile.mkdtemp(prefix="bare-", dir=self.scratch)
        env = dict(self.env, WARP_CACHE_PATH=cache, CUDA_CACHE_PATH=os.path.join(cache, "cuda"))
        walls = []
        for run in ("cold", "warm"):
            start = time.perf_counter()
            result = subprocess.run([self.python, *PROGRAMS[name]], cwd=DATA, env=env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, text=True, timeout=self.args.timeout)
            walls.append(time.perf_counter() - start)
            if result.returncode != 0:
                raise Fatal(f"bare {run} run of {name} failed ({result.returncode}):\n{result.stderr[-2000:]}")
        shutil.rmtree(cache, ignore_errors=True)
        return {"cold_s": walls[0], "warm_s": walls[1], "wall_s": walls[0] + walls[1]}

    def check(self, name, samples, baseline=False, history=None, update=False, twin="a", budget=None):
        """One `check --only NAME` (of BUDGET when given, else a copy of budgets.yaml); returns its
        wall and what its JSON says."""
        self.count += 1
        budget = budget or budget_variant(self.scratch, samples, name if baseline else None)
        out = os.path.join(self.scratch, f"check-{self.count}.json")
        reports = os.path.join(self.scratch, f"reports-{self.count}")
        argv = [self.cli, "check", budget, "--only", name, "--quiet", "--json", out, "--report-dir", reports]
        if history:
            argv += ["--history", history]
        if update:
            argv.append("--update-baseline")
        start = time.perf_counter()
        # twin None: the program's own default (the paired series' arms differ in their source).
        env = dict(self.env, **({"WCP_GATE_TWIN": twin} if twin else {}))
        result = subprocess.run(argv, env=env, capture_output=True, text=True,
                                timeout=self.args.timeout * 12)
        wall = time.perf_counter() - start
        if result.returncode == 2 and samples == "auto" and "samples" in result.stderr:
            raise Fatal("this build of the CLI does not take `samples: auto` yet:\n" + result.stderr.strip()
                        + "\nrun with --mode 1 (or another number) until it does")
        if result.returncode not in (0, 1) or not os.path.exists(out):
            raise Fatal(f"check {name} failed ({result.returncode}):\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
        with open(out, encoding="utf-8") as handle:
            document = json.load(handle)
        command = document["commands"][0]
        report_path = os.path.join(reports, f"{name}.json")
        report = {}
        if os.path.exists(report_path):
            with open(report_path, encoding="utf-8") as handle:
                report = json.load(handle)
        shutil.rmtree(reports, ignore_errors=True)
        os.unlink(out)
        sampling = command.get("sampling") or {}
        outcomes = command.get("outcomes", [])
        base = next((o for o in outcomes if o.get("budget") == "baseline"), None)
        judgement = (base or {}).get("judgement") or {}
        # The clock the verdict judged (schema 13): the CPU's when both reports had it.
        cold = judgement.get("cold_module_cpu") or judgement.get("cold_module_work") or {}
        noise = judgement.get("noise") or {}
        return {
            "wall_s": wall,
            "load": os.getloadavg()[0],
            "exit": result.returncode,
            "status": command.get("status"),
            "runs": sampling.get("runs", report.get("samples")),
            "sampling_mode": sampling.get("mode"),
            "sampling_summary": sampling.get("summary"),
            "cold_module_ms": report.get("cold_module_ms_median"),
            "cold_module_ms_values": report.get("cold_module_ms_values"),
            "cold_module_cpu_ms": report.get("cold_module_cpu_ms_median"),
            "judged_on": judgement.get("judged_on"),
            "other_failures": [o["budget"] for o in outcomes if o.get("budget") != "baseline"
                               and o.get("verdict") == "fail"],
            "baseline_verdict": (base or {}).get("verdict"),
            "baseline_decided_by": (base or {}).get("decided_by"),
            "judgement": judgement.get("verdict"),
            "reason": judgement.get("reason") or (base or {}).get("note"),
            "delta_percent": cold.get("delta_percent"),
            # The wall beside it (a CPU judgement keeps the wall's comparison in cold_module_work).
            "wall_delta_percent": (judgement.get("cold_module_work") or {}).get("delta_percent"),
            "wall_direction": (judgement.get("cold_module_work") or {}).get("direction"),
            "band_ms": cold.get("band_ms"),
            "noise_source": noise.get("source"),
            "noise_runs": noise.get("runs"),
            "noise_summary": noise.get("summary"),
            "samples_to_decide": judgement.get("samples_to_decide"),
            "detectable_percent": judgement.get("detectable_percent"),
            "paired": bool(cold.get("paired")),
            "runner_speed": (judgement.get("runner_speed") or {}).get("ratio"),
            "decided_by": {o.get("budget"): o.get("decided_by") for o in outcomes if "decided_by" in o},
        }

    def measure(self, name):
        """One `measure --samples 1` of the program: its cold module work on both clocks."""
        self.count += 1
        out = os.path.join(self.scratch, f"measure-{self.count}.json")
        result = subprocess.run([self.cli, "measure", "--quiet", "--samples", "1", "--json", out, "--",
                                 self.python, *PROGRAMS[name]], cwd=DATA, env=self.env, capture_output=True,
                                text=True, timeout=self.args.timeout * 3)
        if result.returncode != 0 or not os.path.exists(out):
            raise Fatal(f"measure {name} failed ({result.returncode}):\n{result.stderr[-3000:]}")
        with open(out, encoding="utf-8") as handle:
            report = json.load(handle)
        os.unlink(out)
        return {"wall_ms": report.get("cold_module_ms_median"), "cpu_ms": report.get("cold_module_cpu_ms_median"),
                "unavailable": report.get("module_cpu_unavailable")}

    def seed_history(self, name, runs):
        """The baseline (`check --update-baseline`) and RUNS-1 more checks, all into one history."""
        history = os.path.join(self.scratch, f"history-{name}.sqlite")
        first = self.check(name, self.args.mode, baseline=True, history=history, update=True)
        if first["other_failures"]:
            raise Fatal(f"{name}: budgets fail on an unchanged run: {first['other_failures']}")
        seeded = [first]
        for _ in range(runs - 1):
            seeded.append(self.check(name, self.args.mode, baseline=True, history=history))
        return history, seeded

    def copy(self, history):
        """A copy of a history file (with its WAL, should one be left beside it)."""
        self.copies += 1
        path = os.path.join(self.scratch, f"history-copy-{self.copies}.sqlite")
        for suffix in ("", "-wal"):
            if os.path.exists(history + suffix):
                shutil.copyfile(history + suffix, path + suffix)
        return path


def log(message):
    print(message, file=sys.stderr, flush=True)


def gate_cost(bench, args):
    results = {}
    for name in args.programs:
        log(f"[cost] {name}: baseline and {args.history_runs} history run(s)")
        history, _ = bench.seed_history(name, args.history_runs)
        reps = []
        for index in range(args.repeat):
            rep = {"bare": bench.bare(name)}
            rep["check"] = bench.check(name, args.mode)
            rep["check_baseline"] = bench.check(name, args.mode, baseline=True, history=bench.copy(history))
            if index < args.contrast_repeat:
                rep["check_samples3"] = bench.check(name, 3)
            for key in ("check", "check_baseline", "check_samples3"):
                if key in rep:
                    rep[key]["ratio"] = rep[key]["wall_s"] / rep["bare"]["wall_s"]
            reps.append(rep)
            log(f"[cost] {name} {index + 1}/{args.repeat}: bare {rep['bare']['wall_s']:.1f} s, check "
                + ", ".join(f"{key[6:] or args.mode_label} {rep[key]['wall_s']:.1f} s ({rep[key]['runs']} run(s))"
                            for key in ("check", "check_baseline", "check_samples3") if key in rep))
        summary = {"bare_s": median(r["bare"]["wall_s"] for r in reps)}
        for key in ("check", "check_baseline", "check_samples3"):
            rows = [r[key] for r in reps if key in r]
            summary[key] = {"wall_s": median(r["wall_s"] for r in rows), "ratio": median(r["ratio"] for r in rows),
                            "runs": median(r["runs"] for r in rows), "n": len(rows),
                            "false_failures": sum(bool(r["other_failures"]) or r["baseline_verdict"] == "fail"
                                                  for r in rows)}
        results[name] = {"repetitions": reps, "summary": summary}
    return results


def twin_series(bench, args, twin_name):
    log(f"[{twin_name}] baseline of the A twin and {args.history_runs} history run(s)")
    history, seeded = bench.seed_history(twin_name, args.history_runs)
    log(f"[{twin_name}] seeded: cold module work " + ", ".join(f"{r['cold_module_ms'] or 0:.0f} ms" for r in seeded)
        + f" (load {os.getloadavg()[0]:.1f})")
    aa_history = bench.copy(history)  # grows with every A/A check, as a CI's would
    aa, ba = [], []
    # --load-after-seed: the baseline and history were taken quiet, the checks run beside busy
    # loops, as when main's baseline came from an idle runner and the pull request's check from
    # a busy one.
    loops = BusyLoops(args.load_after_seed, 6 * 3600).__enter__()
    try:
        run_twin_checks(bench, args, twin_name, history, aa_history, aa, ba)
    finally:
        loops.__exit__()
    return twin_summary(aa, ba, seeded)


def run_twin_checks(bench, args, twin_name, history, aa_history, aa, ba):
    for index in range(max(args.aa, args.ba)):
        if index < args.aa:
            aa.append(bench.check(twin_name, args.mode, baseline=True, history=aa_history, twin="a"))
        if index < args.ba:
            ba.append(bench.check(twin_name, args.mode, baseline=True, history=bench.copy(history), twin="b"))
        log(f"[{twin_name}] {index + 1} (load {os.getloadavg()[0]:.1f}): " + "  ".join(
            f"{arm} {rows[-1]['baseline_verdict']} ({rows[-1]['judgement']}, {rows[-1]['runs']} run(s), "
            f"{(rows[-1]['delta_percent'] or 0):+.1f} %)" for arm, rows in (("A/A", aa), ("B/A", ba))
            if index < (args.aa if arm == "A/A" else args.ba)))


def twin_summary(aa, ba, seeded):
    # The twin's ratio from the interleaved checks only (A/A next to B/A, under the same load):
    # the median over pairs of B's cold module work / A's, and the ratio of the medians.
    a_cold = [r["cold_module_ms"] for r in aa]
    b_cold = [r["cold_module_ms"] for r in ba]
    pairs = [b / a for a, b in zip(a_cold, b_cold) if a and b]
    return {
        "seeded": seeded, "aa": aa, "ba": ba,
        "twin_cpu_ratio": median(b / a for a, b in zip((r["cold_module_cpu_ms"] for r in aa),
                                                       (r["cold_module_cpu_ms"] for r in ba)) if a and b),
        "judged_on": sorted({r["judged_on"] for r in aa + ba if r["judged_on"]}),
        "twin_ratio": median(pairs), "twin_ratio_of_medians": median(b_cold) / median(a_cold)
        if median(a_cold) and median(b_cold) else None, "a_cold_ms": median(a_cold), "b_cold_ms": median(b_cold),
        "aa_false_fail": sum(r["baseline_verdict"] == "fail" for r in aa),
        "aa_false_improved": sum(r["baseline_verdict"] == "improved" for r in aa),
        "aa_other_failures": sum(bool(r["other_failures"]) for r in aa),
        "ba_caught": sum(r["baseline_verdict"] == "fail" for r in ba),
        "ba_other_failures": sum(bool(r["other_failures"]) for r in ba),
    }


# The budget of --parts identity's paired series: the twin judged against the revision that
# holds the A twin (`baseline: {rev: HEAD}`), measured beside the working tree's B twin.
REV_BUDGET = """\
version: 1
defaults:
  samples: auto
  timeout: 300
  device: cpu
  env:
    PYTHONDONTWRITEBYTECODE: "1"
  max_builds_per_module: 1
  warm_near_zero: true
  cold_seconds: 60
commands:
  - name: twin
    command: ["{python}", "twin_app.py"]
    max_identities: 1
    baseline: {{rev: HEAD}}
"""


def git(repo, *argv):
    subprocess.run(["git", "-C", repo, "-c", "user.email=bench@example.com", "-c", "user.name=bench", *argv],
                   check=True, capture_output=True)


def rev_repo(bench, twin):
    """A scratch repository whose HEAD holds the A twin and whose working tree holds TWIN."""
    repo = tempfile.mkdtemp(prefix="rev-repo-", dir=bench.scratch)
    git(repo, "init", "-q")
    with open(os.path.join(DATA, "twin_app.py"), encoding="utf-8") as handle:
        source = handle.read()
    with open(os.path.join(repo, "twin_app.py"), "w", encoding="utf-8") as handle:
        handle.write(source)
    with open(os.path.join(repo, "budgets.yaml"), "w", encoding="utf-8") as handle:
        handle.write(REV_BUDGET.format(python=bench.python))
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "the A twin")
    if twin == "b":
        with open(os.path.join(repo, "twin_app.py"), "w", encoding="utf-8") as handle:
            handle.write(source.replace('get("WCP_GATE_TWIN", "a")', 'get("WCP_GATE_TWIN", "b")'))
    return os.path.join(repo, "budgets.yaml")


# Issue 63's conditions: `quiet`; `busy`, two busy loops beside the baseline and the checks; and
# `drift`, the baseline and history taken beside two busy loops and the checks quiet (a
# baseline that carries another moment's runner speed).
IDENTITY_CONDITIONS = {"quiet": (0, 0), "busy": (2, 2), "drift": (2, 0)}


def identity_series(bench, args):
    """Per condition: A/A against a stored baseline (unchanged identities), B/A against it, B/A
    paired against a revision, and the fem twin (one module of many added) against a stored
    baseline. Each check's baseline verdict and runs are kept."""
    results = {}
    for condition in args.conditions:
        seed_loops, check_loops = IDENTITY_CONDITIONS[condition]
        rows = {"aa": [], "ba_stored": [], "ba_rev": [], "fem_aa": [], "fem_ba": []}
        with BusyLoops(seed_loops, 6 * 3600):
            log(f"[identity {condition}] baselines and {args.history_runs}-run histories of the A twins")
            history, _ = bench.seed_history("twin", args.history_runs)
            fem_history = bench.seed_history("fem-twin", args.history_runs)[0] if args.fem_checks else None
        rev_b = rev_repo(bench, "b")
        with BusyLoops(check_loops, 6 * 3600):
            for index in range(max(args.aa, args.ba, args.fem_checks)):
                if index < args.aa:
                    rows["aa"].append(bench.check("twin", args.mode, baseline=True, history=bench.copy(history)))
                if index < args.ba:
                    rows["ba_stored"].append(bench.check("twin", args.mode, baseline=True, history=bench.copy(history),
                                                         twin="b"))
                    rows["ba_rev"].append(bench.check("twin", args.mode, budget=rev_b, twin=None))
                if index < args.fem_checks:
                    rows["fem_aa"].append(bench.check("fem-twin", args.mode, baseline=True,
                                                      history=bench.copy(fem_history)))
                    rows["fem_ba"].append(bench.check("fem-twin", args.mode, baseline=True,
                                                      history=bench.copy(fem_history), twin="b"))
                log(f"[identity {condition}] {index + 1} (load {os.getloadavg()[0]:.1f}): " + "  ".join(
                    f"{series} {r[-1]['judgement']} ({r[-1]['runs']}, {(r[-1]['delta_percent'] or 0):+.1f} %)"
                    for series, r in rows.items() if r and len(r) == index + 1))
        results[condition] = {"rows": rows, "summary": identity_summary(rows)}
    return results


def identity_summary(rows):
    def count(series, *verdicts):
        return sum(r["judgement"] in verdicts for r in rows[series])

    def runs(series):
        values = [r["runs"] for r in rows[series] if r["runs"] is not None]
        return {"median": median(values), "max": max(values) if values else None}

    summary = {}
    for series in rows:
        summary[series] = {
            "n": len(rows[series]), "runs": runs(series),
            "verdicts": {v: count(series, v) for v in sorted({r["judgement"] for r in rows[series]}, key=str)},
            "fail": sum(r["baseline_verdict"] == "fail" for r in rows[series]),
            "other_failures": sum(bool(r["other_failures"]) for r in rows[series]),
            "detectable_percent": median(r["detectable_percent"] for r in rows[series]),
        }
    # Goals (issue 63): A/A 0 false in 20 and one run; B/A paired >= 19 of 20 caught in <= 5 pairs
    # (median), 0 passed silently; against a stored baseline every missed regression NOT JUDGED.
    for series in ("aa", "fem_aa"):
        s = summary[series]
        s["false"] = s["n"] - count(series, "UNCHANGED", "INCONCLUSIVE")
        s["goal_met"] = s["n"] == 0 or (s["false"] == 0 and s["runs"]["max"] == 1)
    for series in ("ba_stored", "ba_rev", "fem_ba"):
        s = summary[series]
        s["caught"] = count(series, "REGRESSION")
        s["silent"] = s["n"] - s["caught"] - count(series, "NOT JUDGED")
    summary["ba_rev"]["goal_met"] = (summary["ba_rev"]["n"] == 0 or (
        summary["ba_rev"]["caught"] >= 0.95 * summary["ba_rev"]["n"] and summary["ba_rev"]["runs"]["median"] <= 5
        and summary["ba_rev"]["silent"] == 0))
    for series in ("ba_stored", "fem_ba"):
        summary[series]["goal_met"] = summary[series]["silent"] == 0
    return summary


def clock_series(bench, args):
    """Per program, interleaved quiet and loaded (two busy loops) `measure --samples 1` runs."""
    results = {}
    for name in args.programs:
        rows = {"quiet": [], "loaded": []}
        for index in range(args.clock_repeat):
            for condition in ("quiet", "loaded"):
                with BusyLoops(2 if condition == "loaded" else 0, args.timeout * 2):
                    rows[condition].append(bench.measure(name))
            log(f"[clock] {name} {index + 1}/{args.clock_repeat}: " + ", ".join(
                f"{c} wall {rows[c][-1]['wall_ms']:.0f} ms cpu {rows[c][-1]['cpu_ms'] or 0:.0f} ms"
                for c in ("quiet", "loaded")))
        summary = {}
        for clock in ("wall_ms", "cpu_ms"):
            quiet = median(r[clock] for r in rows["quiet"])
            loaded = median(r[clock] for r in rows["loaded"])
            summary[clock] = {"quiet": quiet, "loaded": loaded,
                              "ratio": loaded / quiet if quiet and loaded else None}
        results[name] = {"runs": rows, "summary": summary}
    return results


def verdict(ok):
    return "ok" if ok else "MISSED"


def project_budget_verdicts(bench):
    """The project's own budget files (budgets/fixtures.yaml, budgets/must_fail.yaml) checked with
    `samples: auto` and with `samples: 3`: every (entry, budget) verdict, side by side, and the
    runs each took. Copies in the scratch directory set `samples` in `defaults` and make each
    entry's `cwd` absolute (it is relative to the file's folder)."""
    rows = []
    for name in ("fixtures.yaml", "must_fail.yaml"):
        source = os.path.join(ROOT, "budgets", name)
        with open(source, encoding="utf-8") as handle:
            text = handle.read().replace("cwd: ../", f"cwd: {ROOT}/")
        results = {}
        for samples in ("auto", "3"):
            copy = os.path.join(bench.scratch, f"{samples}-{name}")
            with open(copy, "w", encoding="utf-8") as handle:
                handle.write(text.replace("defaults:\n", f"defaults:\n  samples: {samples}\n", 1))
            out = os.path.join(bench.scratch, f"{samples}-{name}.json")
            start = time.perf_counter()
            result = subprocess.run([bench.cli, "check", copy, "--quiet", "--json", out], env=bench.env,
                                    capture_output=True, text=True, timeout=bench.args.timeout * 40)
            wall = time.perf_counter() - start
            if result.returncode not in (0, 1) or not os.path.exists(out):
                raise Fatal(f"check {name} (samples {samples}) failed ({result.returncode}):\n{result.stderr[-3000:]}")
            with open(out, encoding="utf-8") as handle:
                results[samples] = (json.load(handle), wall, result.returncode)
            log(f"[verdicts] {name} samples {samples}: exit {result.returncode}, {wall:.1f} s")
        auto, fixed = results["auto"][0], results["3"][0]
        fixed_commands = {c["name"]: c for c in fixed["commands"]}
        for command in auto["commands"]:
            other = fixed_commands.get(command["name"], {})
            other_outcomes = {o["budget"]: o["verdict"] for o in other.get("outcomes", [])}
            for outcome in command.get("outcomes", []):
                rows.append({"file": name, "entry": command["name"], "budget": outcome["budget"],
                             "auto": outcome["verdict"], "samples3": other_outcomes.get(outcome["budget"]),
                             "auto_runs": (command.get("sampling") or {}).get("runs"),
                             "samples3_runs": (other.get("sampling") or {}).get("runs")})
        rows.append({"file": name, "wall_auto_s": results["auto"][1], "wall_samples3_s": results["3"][1],
                     "exit_auto": results["auto"][2], "exit_samples3": results["3"][2]})
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default=os.path.join(ROOT, "build", "harness", "warp-compile-probe"))
    parser.add_argument("--python", default=os.path.join(ROOT, ".venv", "bin", "python"))
    parser.add_argument("--mode", default="auto", help="samples of the checks under test: auto (default) or a number")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved repetitions per program (gate cost)")
    parser.add_argument("--contrast-repeat", type=int, default=1,
                        help="how many of those repetitions also run the samples-3 contrast (default 1)")
    parser.add_argument("--history-runs", type=int, default=3, help="runs in each history before the checks")
    parser.add_argument("--aa", type=int, default=20, help="A/A checks")
    parser.add_argument("--ba", type=int, default=20, help="B/A checks")
    parser.add_argument("--programs", default="fixture-clean,fem-diffusion,fem-convection-diffusion",
                        help="comma-separated, of: " + ", ".join(PROGRAMS))
    parser.add_argument("--parts", default="cost,twin",
                        help="comma-separated, of: cost, twin, verdicts (the project's budgets, auto against samples "
                             "3), clock, identity (issue 63: identity, stored and paired series under --conditions)")
    parser.add_argument("--load", type=int, default=0,
                        help="busy loops to run beside every part, as other jobs on a shared runner (default 0)")
    parser.add_argument("--twins", default="twin,fem-twin", help="A/B twins of --parts twin, of: " + ", ".join(TWINS))
    parser.add_argument("--load-after-seed", type=int, default=0,
                        help="busy loops beside the twin checks only, after a quiet baseline and history (default 0)")
    parser.add_argument("--clock-repeat", type=int, default=4, help="quiet/loaded pairs per program (--parts clock)")
    parser.add_argument("--conditions", default="quiet,busy,drift",
                        help="--parts identity's load conditions, of: " + ", ".join(IDENTITY_CONDITIONS))
    parser.add_argument("--fem-checks", type=int, default=5,
                        help="--parts identity: A/A and B/A checks of the fem twin per condition (15-30 s a run)")
    parser.add_argument("--quick", action="store_true", help="repeat 1, 6 A/A and 6 B/A, no convection-diffusion")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per program run")
    parser.add_argument("--json", default="", help="write the summary and every check's figures here")
    parser.add_argument("--keep", action="store_true", help="keep the scratch directory (baselines, histories)")
    args = parser.parse_args()
    if args.quick:
        args.repeat, args.aa, args.ba = 1, 6, 6
        args.programs = "fixture-clean,fem-diffusion"
    if args.mode != "auto" and not (args.mode.isdigit() and int(args.mode) >= 1):
        parser.error("--mode is auto or a whole number >= 1")
    args.mode_label = "auto" if args.mode == "auto" else f"samples {args.mode}"
    args.programs = [p for p in args.programs.split(",") if p]
    args.twins = [t for t in args.twins.split(",") if t]
    args.conditions = [c for c in args.conditions.split(",") if c]
    for condition in args.conditions:
        if condition not in IDENTITY_CONDITIONS:
            parser.error(f"unknown condition {condition} (known: {', '.join(IDENTITY_CONDITIONS)})")
    for name in args.twins:
        if name not in TWINS:
            parser.error(f"unknown twin {name} (known: {', '.join(TWINS)})")
    for name in args.programs:
        if name not in PROGRAMS:
            parser.error(f"unknown program {name} (known: {', '.join(PROGRAMS)})")
    parts = set(args.parts.split(","))
    started = time.time()
    load = os.getloadavg()
    log(f"gate_cost: mode {args.mode_label}, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, "
        f"{os.cpu_count()} CPU(s)")
    scratch = tempfile.mkdtemp(prefix="wcp-gate-cost-")
    bench = Bench(args, scratch)
    document = {"mode": args.mode, "load_average_start": load, "cpus": os.cpu_count(), "cli": bench.cli,
                "python": bench.python, "args": {k: v for k, v in vars(args).items() if k != "json"}}
    loops = BusyLoops(args.load, 6 * 3600)
    loops.__enter__()
    try:
        if "clock" in parts:
            document["clock"] = clock_series(bench, args)
        if "cost" in parts:
            document["cost"] = gate_cost(bench, args)
        if "twin" in parts:
            document["twin"] = {name: twin_series(bench, args, name) for name in args.twins}
        if "verdicts" in parts:
            document["verdicts"] = project_budget_verdicts(bench)
        if "identity" in parts:
            document["identity"] = identity_series(bench, args)
    except Fatal as error:
        print(f"gate_cost: {error}", file=sys.stderr)
        return 2
    finally:
        loops.__exit__()
        if args.keep:
            log(f"scratch kept: {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    document["elapsed_s"] = time.time() - started
    document["load_average_end"] = os.getloadavg()

    print(f"\nmode {args.mode_label}; {args.load} busy loop(s) beside the checks; load average {load[0]:.2f} at the "
          f"start, {document['load_average_end'][0]:.2f} at the end")
    goals = {"check": 1.3, "check_baseline": 1.6, "check_samples3": None}
    labels = {"check": args.mode_label, "check_baseline": f"{args.mode_label} + baseline + history",
              "check_samples3": "samples 3 (contrast)"}
    goals_met = []
    if "cost" in document:
        print(f"\nGate cost of `check` against a bare cold + warm run (no probe, fresh kernel cache), median of "
              f"{args.repeat} interleaved repetition(s); ratio = check wall / bare wall, median over repetitions")
        print(f"{'program':26} {'bare s':>7}  {'variant':34} {'check s':>8} {'runs':>5} {'ratio':>6}  goal")
        for name, result in document["cost"].items():
            summary = result["summary"]
            for key in ("check", "check_baseline", "check_samples3"):
                row = summary[key]
                if not row["n"]:
                    continue
                goal = goals[key] if args.mode == "auto" else None
                mark = ""
                if goal is not None:
                    goals_met.append(row["ratio"] <= goal)
                    mark = f"<= {goal} {verdict(row['ratio'] <= goal)}"
                runs = "-" if row["runs"] is None else f"{row['runs']:g}"
                false = f"  ({row['false_failures']} false failure(s))" if row["false_failures"] else ""
                bare = f"{summary['bare_s']:7.1f}" if key == "check" else ""
                print(f"{name if key == 'check' else '':26} {bare:>7}  "
                      f"{labels[key]:34} {row['wall_s']:8.1f} {runs:>5} {row['ratio']:6.2f}  {mark}{false}")
    if "clock" in document:
        print("\nCold module work quiet and beside two busy loops (median of "
              f"{args.clock_repeat} interleaved pair(s) of `measure --samples 1`)")
        print(f"{'program':26} {'clock':6} {'quiet ms':>9} {'loaded ms':>10} {'ratio':>6}  goal")
        for name, result in document["clock"].items():
            for clock, label in (("wall_ms", "wall"), ("cpu_ms", "CPU")):
                row = result["summary"][clock]
                if row["ratio"] is None:
                    print(f"{name:26} {label:6} unavailable")
                    continue
                mark = f"<= 1.10 {verdict(row['ratio'] <= 1.10)}" if clock == "cpu_ms" else ""
                if clock == "cpu_ms":
                    goals_met.append(row["ratio"] <= 1.10)
                print(f"{name if clock == 'wall_ms' else '':26} {label:6} {row['quiet']:9.0f} {row['loaded']:10.0f} "
                      f"{row['ratio']:6.2f}  {mark}")
    for twin_name, twin in document.get("twin", {}).items():
        ratio = twin["twin_ratio"]
        aa, ba = twin["aa"], twin["ba"]
        print(f"\nA/B twin {twin_name} ({TWINS[twin_name]}): cold module work A {twin['a_cold_ms']:.0f} ms, "
              f"B {twin['b_cold_ms']:.0f} ms (medians of the interleaved checks): B/A {ratio:.3f} (median of "
              f"{min(len(aa), len(ba))} pairs; ratio of medians {twin['twin_ratio_of_medians']:.3f}; aim 1.10-1.15)"
              if ratio else f"\nA/B twin {twin_name}: no cold module work measured")
        if twin.get("twin_cpu_ratio"):
            print(f"  on the CPU clock B/A {twin['twin_cpu_ratio']:.3f} (median of pairs); verdicts judged on: "
                  + ", ".join(twin["judged_on"]))
        # Issue 49's goals: no false verdict of 20, at least 19 of 20 caught, a median of at most
        # 1.5 runs per check.
        false = twin["aa_false_fail"] + twin["aa_false_improved"]
        aa_runs = median(r["runs"] for r in aa) if aa else None
        ba_runs = median(r["runs"] for r in ba) if ba else None
        print(f"A/A: {len(aa)} checks of A against its baseline (history growing from {args.history_runs} run(s)): "
              f"{twin['aa_false_fail']} false FAIL, {twin['aa_false_improved']} false improved, "
              f"{twin['aa_other_failures']} other budget failure(s); median runs {aa_runs if aa else '-'}"
              + (f"; goal 0 false: {verdict(false == 0)}, runs <= 1.5: {verdict(aa_runs <= 1.5)}" if aa else ""))
        print(f"B/A: {len(ba)} checks of B against A's baseline (a fresh copy of A's {args.history_runs}-run history "
              f"each): {twin['ba_caught']} caught (FAIL), {twin['ba_other_failures']} other budget failure(s); "
              f"median runs {ba_runs if ba else '-'}"
              + (f"; goal >= 95 %: {verdict(twin['ba_caught'] >= 0.95 * len(ba))}, runs <= 1.5: "
                 f"{verdict(ba_runs <= 1.5)}" if ba else ""))
        for arm, rows in (("A/A", aa), ("B/A", ba)):
            counts = {}
            sources = {}
            for row in rows:
                counts[row["judgement"]] = counts.get(row["judgement"], 0) + 1
                sources[row["noise_source"]] = sources.get(row["noise_source"], 0) + 1
            print(f"  {arm} judgements: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=str))
                  + "; noise source: " + ", ".join(f"{k or 'not reported'} {v}" for k, v in sources.items()))
        if aa:
            goals_met += [false == 0, aa_runs <= 1.5]
        if ba:
            goals_met += [twin["ba_caught"] >= 0.95 * len(ba), ba_runs <= 1.5]
    labels_identity = {"aa": "A/A, stored baseline", "ba_stored": "B/A, stored baseline",
                       "ba_rev": "B/A, paired against REV", "fem_aa": "fem A/A, stored baseline",
                       "fem_ba": "fem B/A, stored baseline"}
    for condition, result in document.get("identity", {}).items():
        print(f"\nIdentity and pairs ({condition}): baseline verdicts; runs per check (pairs against REV)")
        print(f"{'series':28} {'n':>3} {'verdicts':44} {'runs med/max':>12} {'detectable':>10}  goal")
        for series, row in result["summary"].items():
            if not row["n"]:
                continue
            verdicts = ", ".join(f"{k} {v}" for k, v in row["verdicts"].items())
            detectable = f"{row['detectable_percent']:.1f} %" if row["detectable_percent"] is not None else "-"
            mark = verdict(row["goal_met"]) if "goal_met" in row else ""
            goals_met.append(row.get("goal_met", True))
            print(f"{labels_identity[series]:28} {row['n']:3} {verdicts:44} "
                  f"{row['runs']['median']:>5g}/{row['runs']['max']:<6g} {detectable:>10}  {mark}")
    if "verdicts" in document:
        verdicts = [r for r in document["verdicts"] if "budget" in r]
        differ = [r for r in verdicts if r["auto"] != r["samples3"]]
        print(f"\nThe project's budgets, samples auto against samples 3: {len(verdicts)} verdicts, {len(differ)} differ"
              f" (goal: none): {verdict(not differ)}")
        for row in differ:
            print(f"  {row['file']} {row['entry']} {row['budget']}: auto {row['auto']}, samples 3 {row['samples3']}")
        for row in (r for r in document["verdicts"] if "budget" not in r):
            print(f"  {row['file']}: auto {row['wall_auto_s']:.1f} s (exit {row['exit_auto']}), samples 3 "
                  f"{row['wall_samples3_s']:.1f} s (exit {row['exit_samples3']})")
        goals_met.append(not differ)
    document["goals_met"] = goals_met
    print(f"\n{bench.count} check(s), {document['elapsed_s'] / 60:.1f} min"
          + (f"; goals met: {sum(goals_met)} of {len(goals_met)}" if goals_met else ""))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(document, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
