"""Predicted against measured: each finding's `cost_ms` checked against what its fix saves.

For every fixture that has a fixed twin and runs on the CPU (fixtures/catalog.json, plus the
uncatalogued twins listed in EXTRA), runs

    CLI ab --samples N --json AB.json -- PY app.py --vs PY fixed.py

with the fixture folder as the working directory, then `diagnose --json` on each arm's report
(written by `--baseline-json` / `--candidate-json`). The prediction is the sum of `cost_ms` over
the app's findings of the fixture's mechanism. The measurement is the saving on the clock that
`cost_ms` is stated in ("ms of redundant build work this explains"): cold module work, the
summed `Module … took X ms (compiled)` timers of each cold run, i.e. build work, not elapsed wall
time (which also holds interpreter start-up and, for parallel builds, overlap). For CS-2, whose
cost is the warm pass's compiled loads, it is the warm module work. The saving is the median over
`ab`'s pairs (sample k of each arm, run back to back) of baseline − candidate, with the MAD of
those per-pair savings; for cold module work that is minus `ab`'s own median paired delta
(`comparison.cold_module_work.paired`, kept in --out as a cross-check). The compile-elapsed
saving is printed beside it for context.

Ratio = measured / predicted. A prediction is "within" when 0.75 <= ratio <= 1.25. A finding
whose cost is a ceiling or an upper bound (its cost_basis says so, or CS-13) is reported as a
bound with the share of it the fix achieved; a finding without a cost (null) is "no
prediction", with its cost_basis. A clock the tool did not measure is "unavailable", never 0.

The environment carries no user calibration: XDG_CACHE_HOME is a fresh temp dir, as in
tests/integration/test_diagnose.py, so the estimates are the uncalibrated ones (e.g. CS-4's
fixed per-module cost is this run's smallest module, an upper bound).

    python tests/bench/predictions_bench.py --cli build/harness/warp-compile-probe \\
        --python .venv/bin/python --samples 3 [--fixtures late_kernel,unique_modules] \\
        [--markdown table.md] [--out all.json]

About 10 minutes for the 14 CPU twins at --samples 2 on the project's 2-core machine (under a load
average of 3-6); the time grows with --samples.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURES = os.path.join(ROOT, "fixtures")

# Catalogue mechanism names that differ from the finding id the diagnosis uses.
FINDING_ID = {"churn": "closure-churn"}

# Fixtures with a fixed twin that are not in catalog.json (fixtures/README.md: test_diagnose
# measures them). `mechanisms`: the finding ids the twin fixes, whose costs add up to the
# prediction. The option_* fixtures are left out: their twins make an option arrive (the hash
# moves), they are not meant to save build work, and their findings carry no cost.
EXTRA = [
    {"name": "sibling_modules", "mechanisms": ["CS-4", "never-launched"],
     "app": "sibling_modules/app.py", "fixed": "sibling_modules/fixed.py"},
    {"name": "named_module_backward", "mechanisms": ["CS-10"],
     "app": "named_module_backward/app.py", "fixed": "named_module_backward/fixed.py"},
    {"name": "pch_off", "mechanisms": ["CS-12"], "app": "pch_off/app.py", "fixed": "pch_off/fixed.py"},
]

WITHIN = 0.25


def fixtures_to_run(selected):
    with open(os.path.join(FIXTURES, "catalog.json"), encoding="utf-8") as handle:
        catalogue = json.load(handle)
    runnable, skipped = [], []
    for entry in catalogue:
        if not entry.get("fixed"):
            continue
        if "cpu" not in entry.get("devices", ["cpu", "cuda"]):
            skipped.append((entry["name"], "cuda-only fixture"))
            continue
        mechanism = entry["mechanism"]
        runnable.append({"name": entry["name"], "mechanisms": [FINDING_ID.get(mechanism, mechanism)],
                         "app": entry["app"], "fixed": entry["fixed"]})
    runnable += EXTRA
    if selected:
        wanted = [name.strip() for name in selected.split(",") if name.strip()]
        known = {f["name"] for f in runnable} | {name for name, _ in skipped}
        unknown = [name for name in wanted if name not in known]
        if unknown:
            raise SystemExit(f"unknown or twin-less fixture(s): {', '.join(unknown)}")
        runnable = [f for f in runnable if f["name"] in wanted]
        skipped = [s for s in skipped if s[0] in wanted]
    return runnable, skipped


def run(cli, args, env, cwd, timeout):
    result = subprocess.run([cli, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout)
    if result.returncode not in (0, 1):
        raise RuntimeError(f"{args[0]} exited {result.returncode}: {result.stderr.strip()[-2000:]}")
    return result


def is_bound(finding):
    basis = (finding.get("cost_basis") or "").lower()
    return finding["id"] == "CS-13" or "upper bound" in basis or "ceiling" in basis


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def paired_saving(baseline_samples, candidate_samples, field):
    """Saving on one per-sample clock over the `ab` pairs (sample k of each arm ran back to back):
    (median of baseline − candidate, its MAD, pairs, per-pair savings, noise band); None when no
    pair has both values (missing is not zero). Pairs as `ab` does: cold run succeeded in both
    arms. The band is `ab`'s: max(1 % of the baseline median, 2 × the MAD of the deltas); a saving
    inside it is not told apart from no saving."""
    arm_b = {s["index"]: s for s in baseline_samples or [] if s.get("cold_ok")}
    arm_c = {s["index"]: s for s in candidate_samples or [] if s.get("cold_ok")}
    both = [k for k in sorted(arm_b.keys() & arm_c.keys())
            if arm_b[k].get(field) is not None and arm_c[k].get(field) is not None]
    if not both:
        return None
    savings = [arm_b[k][field] - arm_c[k][field] for k in both]
    center = median(savings)
    mad = median([abs(v - center) for v in savings])
    band = max(0.01 * abs(median([arm_b[k][field] for k in both])), 2 * mad)
    return center, mad, len(savings), savings, band


def derive(result):
    """The measured clocks of one fixture, from the per-sample results kept in it."""
    base, cand = result["baseline_samples"], result["candidate_samples"]
    result["measured"] = paired_saving(base, cand, result["clock"])
    result["cold_module_work"] = paired_saving(base, cand, "cold_module_ms")
    result["compile_elapsed"] = paired_saving(base, cand, "compile_elapsed_ms")
    return result


# The per-sample clock a mechanism's cost_ms is stated in. Default: cold module work, the sum of
# Warp's `(compiled)` load timers of the cold run. CS-2's cost is the warm pass's compiled loads
# ("paid again on every run that should have been cached"): the warm module work.
CLOCK = {"CS-2": "warm_module_ms"}


def measure_fixture(cli, python, fixture, samples, scratch, timeout):
    folder = os.path.dirname(os.path.join(FIXTURES, fixture["app"]))
    work = os.path.join(scratch, fixture["name"])
    os.makedirs(work)
    # A private XDG cache: no calibration from the developer's machine changes the estimates.
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=os.path.join(work, "xdg"))
    env.pop("WCP_FIXTURE_DEVICE", None)
    ab_json, base_json = os.path.join(work, "ab.json"), os.path.join(work, "baseline.json")
    cand_json = os.path.join(work, "candidate.json")
    app, fixed = os.path.join(FIXTURES, fixture["app"]), os.path.join(FIXTURES, fixture["fixed"])
    load = os.getloadavg()[0]
    ab = run(cli, ["ab", "--quiet", "--samples", str(samples), "--json", ab_json, "--baseline-json", base_json,
                   "--candidate-json", cand_json, "--", python, app, "--vs", python, fixed], env, folder, timeout)
    with open(ab_json, encoding="utf-8") as handle:
        document = json.load(handle)
    comparison = document["comparison"]
    baseline, candidate = document["baseline"], document["candidate"]
    diagnoses = {}
    for arm, report in (("app", base_json), ("fixed", cand_json)):
        out = os.path.join(work, f"{arm}.diagnosis.json")
        run(cli, ["diagnose", report, "--json", out], env, folder, 300)
        with open(out, encoding="utf-8") as handle:
            diagnoses[arm] = json.load(handle)
    return derive({"fixture": fixture["name"], "mechanisms": fixture["mechanisms"], "load_at_start": load,
                "ab_exit": ab.returncode, "verdict": comparison.get("verdict"), "reason": comparison.get("reason"),
                "clock": CLOCK.get(fixture["mechanisms"][0], "cold_module_ms"),
                # ab's own judgement of the cold module work clock (candidate − baseline), as a cross-check.
                "ab_cold_module_work": (comparison.get("cold_module_work") or {}).get("paired"),
                "baseline_samples": baseline.get("sample_results"), "candidate_samples": candidate.get("sample_results"),
                "baseline_cold_module_ms": baseline.get("cold_module_ms_median"),
                "candidate_cold_module_ms": candidate.get("cold_module_ms_median"),
                "baseline_identities": baseline.get("identities"), "candidate_identities": candidate.get("identities"),
                "findings": [{k: f.get(k) for k in ("id", "module", "cost_ms", "cost_basis")}
                             for f in diagnoses["app"]["findings"]],
                "fixed_findings": [{k: f.get(k) for k in ("id", "module", "cost_ms", "cost_basis")}
                                   for f in diagnoses["fixed"]["findings"]]})


def judge(result):
    """The row: predicted (sum over the mechanism's findings), measured, ratio and verdict."""
    mine = [f for f in result["findings"] if f["id"] in result["mechanisms"]]
    measured = result["measured"]
    row = {"mechanism": "+".join(result["mechanisms"]), "fixture": result["fixture"], "predicted": None,
           "measured": measured, "ratio": None, "verdict": "", "basis": "",
           "others": [f for f in result["findings"] if f["id"] not in result["mechanisms"]]}
    if not mine:
        row["verdict"] = "no finding"
        row["basis"] = "the app's diagnosis has no " + " / ".join(result["mechanisms"]) + " finding"
        return row
    costed = [f for f in mine if f["cost_ms"] is not None]
    row["basis"] = "; ".join(f"{f['id']}: {f['cost_basis']}" for f in mine)
    if not costed:
        row["verdict"] = "no prediction"
        if measured is not None and abs(measured[0]) <= measured[4]:
            row["verdict"] += "; measured inside the noise band"
        return row
    row["predicted"] = sum(f["cost_ms"] for f in costed)
    partial = len(costed) < len(mine)
    if measured is None:
        row["verdict"] = "measured unavailable"
        return row
    if row["predicted"] > 0:
        row["ratio"] = measured[0] / row["predicted"]
    if any(is_bound(f) for f in costed):
        share = f"{100 * row['ratio']:.0f} %" if row["ratio"] is not None else "n/a"
        row["verdict"] = f"bound ({share} of it achieved)"
    elif row["ratio"] is None:
        row["verdict"] = "outside (prediction 0)"
    else:
        row["verdict"] = "within" if abs(row["ratio"] - 1.0) <= WITHIN else "outside"
    if abs(measured[0]) <= measured[4]:
        row["verdict"] += "; inside the noise band"
    if partial:
        row["verdict"] += " (partial: a finding without cost)"
    return row


def fmt_ms(value):
    return "unavailable" if value is None else f"{value:.0f}"


def table(rows, results):
    lines = ["| mechanism | fixture | predicted ms | measured ms ± MAD (pairs; noise band) | ratio | verdict | "
             "compile-elapsed saving ms ± MAD | other findings with cost |",
             "|---|---|---|---|---|---|---|---|"]
    for row, result in zip(rows, results):
        m = row["measured"]
        measured = "unavailable" if m is None else f"{m[0]:.0f} ± {fmt_ms(m[1])} ({m[2]}; band {m[4]:.0f})"
        if result["clock"] != "cold_module_ms":
            measured += f" [{result['clock'].removesuffix('_ms').replace('_', ' ')}]"
        e = result["compile_elapsed"]
        elapsed = "unavailable" if e is None else f"{e[0]:.0f} ± {fmt_ms(e[1])}"
        predicted = "no prediction" if row["predicted"] is None else f"{row['predicted']:.0f}"
        ratio = "" if row["ratio"] is None else f"{row['ratio']:.2f}"
        others = ", ".join(f"{f['id']} {fmt_ms(f['cost_ms'])}" for f in row["others"] if f["cost_ms"] is not None)
        lines.append(f"| {row['mechanism']} | `{row['fixture']}` | {predicted} | {measured} | {ratio} | "
                     f"{row['verdict']} | {elapsed} | {others or '—'} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", help="the warp-compile-probe binary (required unless --replay)")
    parser.add_argument("--python", help="the interpreter with Warp (required unless --replay)")
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--fixtures", default="", help="comma-separated subset (default: every CPU twin)")
    parser.add_argument("--markdown", default="", help="also write the table (and the bases) to this file")
    parser.add_argument("--out", default="", help="write every number as JSON")
    parser.add_argument("--timeout", type=int, default=3600, help="per `ab` run, seconds")
    parser.add_argument("--replay", default="", help="print the table of a saved --out file; runs nothing")
    args = parser.parse_args()
    if args.replay:
        return replay(args)
    if not args.cli or not args.python:
        parser.error("--cli and --python are required (unless --replay)")
    cli, python = os.path.abspath(args.cli), os.path.abspath(args.python)
    started = datetime.datetime.now(datetime.timezone.utc)
    load = os.getloadavg()
    print("machine:", os.uname().nodename, "cores", os.cpu_count(), "load", load, flush=True)
    fixtures, skipped = fixtures_to_run(args.fixtures)
    for name, why in skipped:
        print(f"skipped {name}: {why}", flush=True)
    results, rows, failures = [], [], []
    with tempfile.TemporaryDirectory(prefix="wcp-predictions-") as scratch:
        for fixture in fixtures:
            try:
                result = measure_fixture(cli, python, fixture, args.samples, scratch, args.timeout)
            except (RuntimeError, subprocess.TimeoutExpired, OSError, KeyError, ValueError) as error:
                failures.append((fixture["name"], str(error)))
                print(f"{fixture['name']}: FAILED: {error}", file=sys.stderr, flush=True)
                continue
            row = judge(result)
            results.append(result)
            rows.append(row)
            if args.out:  # kept after every fixture, so a long run that stops still leaves its numbers
                with open(args.out, "w", encoding="utf-8") as handle:
                    json.dump({"started": started.isoformat(), "load": load, "samples": args.samples,
                               "results": results}, handle, indent=2)
            m = result["measured"]
            predicted = "no prediction" if row["predicted"] is None else f"{row['predicted']:.0f} ms"
            print(f"{fixture['name']}: load {result['load_at_start']:.2f}  predicted {predicted}  "
                  f"measured {'unavailable' if m is None else f'{m[0]:.0f} ms'}  {row['verdict']}",
                  file=sys.stderr, flush=True)
    return render(args, started, load, results, rows, failures)


def replay(args):
    with open(args.replay, encoding="utf-8") as handle:
        saved = json.load(handle)
    results = [derive(result) for result in saved["results"]]
    args.samples = saved["samples"]
    started = datetime.datetime.fromisoformat(saved["started"])
    return render(args, started, saved["load"], results, [judge(r) for r in results], saved.get("failures", []))


def render(args, started, load, results, rows, failures):
    text = table(rows, results)
    bases = "\n".join(f"- `{row['fixture']}`: {row['basis']}" for row in rows)
    leftovers = "\n".join(f"- `{r['fixture']}` fixed twin still has: "
                          + ", ".join(f"{f['id']} {fmt_ms(f['cost_ms'])}" for f in r["fixed_findings"])
                          for r in results if r["fixed_findings"])
    header = (f"{started:%Y-%m-%d %H:%M} UTC, {os.uname().nodename}, {os.cpu_count()} cores, load average at start "
              f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, --samples {args.samples} pair(s) per fixture; "
              f"clock: cold module work (warm module work for CS-2), paired; ± is the MAD of the per-pair savings, band `ab`'s noise band")
    print()
    print(header)
    print(text)
    print("\nCost bases:\n" + bases)
    if leftovers:
        print("\nFindings left in the fixed twins:\n" + leftovers)
    for name, error in failures:
        print(f"\nnot measured: {name}: {error}")
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as handle:
            handle.write(header + "\n\n" + text + "\n\nCost bases:\n\n" + bases + "\n")
            if leftovers:
                handle.write("\nFindings left in the fixed twins:\n\n" + leftovers + "\n")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump({"started": started.isoformat(), "load": load, "samples": args.samples, "results": results,
                       "rows": [{k: v for k, v in row.items() if k != "others"} for row in rows],
                       "failures": failures}, handle, indent=2)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
