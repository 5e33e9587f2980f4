"""Runs the GPU checks (ci/gpu/run.sh calls this; docs/gpu-check.md has the plan and timings).

One GPU, 16 cores: `setup` first, then the checks that time CUDA builds or launches against
each other one at a time ("alone": neutrality, launch-cost, scheduling-fix), then the rest side
by side ("side": one findings check per catalogued fixture, output, lever-load-workers,
cpu-fixture, recordings),
each taking as many of the --jobs slots as it runs processes at once. A check still running at
the deadline is stopped (its process group gets SIGTERM, then SIGKILL) and reported as cut off;
one not started by then is reported as not run. Writes summary.txt (every check id, its status,
seconds and figures) and summary.json.

  python3 run_checks.py --results DIR --deadline EPOCH_S [--jobs N] [--only IDS] [--manifest M]
                        [--summary summary.txt] [--summary-json summary.json]
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gpucheck  # noqa: E402
from probe_testlib import catalog  # noqa: E402
import recordings  # noqa: E402


class Planned:
    def __init__(self, check_id, script, args=(), phase="side", weight=1, expected_s=30, cuda=True):
        self.id, self.script, self.args = check_id, script, list(args)
        self.phase, self.weight, self.expected_s, self.cuda = phase, weight, expected_s, cuda
        self.process = self.started = self.log = None
        self.result = None


def plan(jobs):
    """Every check, in the order it starts. expected_s: seconds on an H200 (docs/gpu-check.md).
    The side phase starts the longest job first (the recordings, several processes at once)."""
    record_jobs = min(6, max(1, jobs // 2))
    checks = [Planned("setup", "setup.py", phase="first", expected_s=10, cuda=False),
              Planned("neutrality", "neutrality_cuda.py", phase="alone", expected_s=40),
              Planned("launch-cost", "launch_cost_cuda.py", phase="alone", expected_s=20),
              Planned("scheduling-fix", "scheduling_fix.py", phase="alone", expected_s=70),
              Planned("recordings", "recordings.py", ["--jobs", str(record_jobs)], weight=record_jobs, expected_s=90),
              Planned("output", "output_cuda.py", ["--jobs", "2"], weight=2, expected_s=35),
              # Side by side: it asserts what the lever did (arrived or not, same workload), not a saving.
              Planned("lever-load-workers", "lever_load_workers.py", ["--pairs", "3"], expected_s=65),
              # Each module built twice in one run (JIT on the GPU, AOT at exit): its ratio is a figure.
              Planned("aot-vs-jit", "aot_vs_jit.py", phase="alone", expected_s=40)]
    for entry in catalog("cuda"):
        checks.append(Planned(f"findings/{entry['name']}", "fixture_findings.py", ["--fixture", entry["name"]],
                              expected_s=25))
    checks.append(Planned("cpu-fixture", "cpu_fixture.py", expected_s=15, cuda=False))
    return checks


def selected(checks, only, last_summary):
    if not only:
        return checks
    wanted = set()
    for item in only.split(","):
        item = item.strip()
        if item == "failed":
            if not last_summary or not os.path.exists(last_summary):
                sys.exit("--only failed: no summary of an earlier run on this machine")
            previous = json.load(open(last_summary, encoding="utf-8"))["checks"]
            wanted |= {c["id"] for c in previous if c["status"] not in ("passed", "skipped")}
        elif item:
            wanted.add(item)
    known = {c.id for c in checks}
    unknown = {w for w in wanted if w not in known and not any(c.id.startswith(w + "/") for c in checks)}
    if unknown:
        sys.exit(f"--only: unknown check id(s) {sorted(unknown)}; known: {sorted(known)}")
    return [c for c in checks if c.id == "setup" or c.id in wanted or any(c.id.startswith(w + "/") for w in wanted)]


def start(check, results):
    folder = os.path.join(results, check.id.replace("/", "-"))
    os.makedirs(folder, exist_ok=True)
    check.log = open(os.path.join(folder, "log.txt"), "w", encoding="utf-8")
    check.started = time.time()
    check.process = subprocess.Popen([sys.executable, os.path.join(HERE, check.script), "--results", folder,
                                      *check.args], stdout=check.log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
    print(f"[{time.strftime('%H:%M:%S')}] start {check.id}", flush=True)


def collect(check, results, cut=False):
    folder = os.path.join(results, check.id.replace("/", "-"))
    check.log.close()
    seconds = round(time.time() - check.started, 1)
    path = os.path.join(folder, "result.json")
    result = None
    if os.path.exists(path) and not cut:
        with open(path, encoding="utf-8") as handle:
            result = json.load(handle)
        result["id"] = check.id
    if result is None:
        tail = open(os.path.join(folder, "log.txt"), encoding="utf-8", errors="replace").read().strip().splitlines()[-3:]
        status = "cut off" if cut else "failed"
        reason = ("stopped at the run's limit" if cut else f"exited {check.process.returncode} without a result") + \
            (f": {' | '.join(tail)}" if tail else "")
        result = {"id": check.id, "status": status, "reason": reason, "figures": {}, "failures": []}
    result["seconds"] = seconds
    check.result = result
    print(f"[{time.strftime('%H:%M:%S')}] {result['status']:8s} {check.id} ({seconds} s)"
          + (f": {result['reason']}" if result.get("reason") else ""), flush=True)


def stop(check):
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(check.process.pid, sig)
        except ProcessLookupError:
            return
        try:
            check.process.wait(timeout=5)
            return
        except subprocess.TimeoutExpired:
            continue


def run_phase(checks, results, deadline, capacity):
    pending, running = list(checks), []
    while pending or running:
        for check in list(running):
            if check.process.poll() is not None:
                running.remove(check)
                collect(check, results)
        if time.time() >= deadline:
            for check in running:
                stop(check)
                collect(check, results, cut=True)
            for check in pending:
                check.result = {"id": check.id, "status": "not run", "reason": "the run's limit came first",
                                "figures": {}, "failures": [], "seconds": 0}
            return
        used = sum(c.weight for c in running)
        while pending and (not running or used + pending[0].weight <= capacity):
            check = pending.pop(0)
            start(check, results)
            running.append(check)
            used += check.weight
        time.sleep(0.2)


def write_summary(checks, path_txt, path_json, manifest, started, deadline):
    setup = next((c.result for c in checks if c.id == "setup" and c.result), {"figures": {}})
    figures = setup.get("figures", {})
    head = [f"GPU check: commit {manifest.get('commit', '?')[:10]}{' (dirty)' if manifest.get('dirty') else ''}, "
            f"Warp {manifest.get('warp_version', '?')}, {figures.get('gpu', 'no GPU')}",
            f"{time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime(started))}; took {time.time() - started:.0f} s "
            f"(limit at {deadline - started:.0f} s)"]
    counts = {}
    for check in checks:
        counts[check.result["status"]] = counts.get(check.result["status"], 0) + 1
    head.append(", ".join(f"{n} {status}" for status, n in sorted(counts.items())))
    lines = head + [""]
    for check in checks:
        result = check.result
        lines.append(f"{check.id:34s} {result['status']:8s} {result.get('seconds', 0):6.1f} s  (expected ~{check.expected_s} s)")
        if result.get("reason"):
            lines.append(f"    reason: {result['reason']}")
        for name, value in result.get("figures", {}).items():
            lines.append(f"    {name}: {json.dumps(value) if not isinstance(value, str) else value}")
        for failure in result.get("failures", [])[:20]:
            lines.append(f"    FAIL {failure}")
    with open(path_txt, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    with open(path_json, "w", encoding="utf-8") as handle:
        json.dump({"manifest": manifest, "started": started, "seconds": round(time.time() - started, 1),
                   "checks": [dict(c.result, phase=c.phase, expected_s=c.expected_s) for c in checks]}, handle, indent=1)
    # stdout (a device call returns only its tail): every check in one line, and its failures
    print("\n".join(line for line in lines if not line.startswith("    ") or line.startswith(("    FAIL", "    reason"))),
          flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", required=True)
    parser.add_argument("--deadline", type=float, default=time.time() + 3600)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--only", default="")
    parser.add_argument("--manifest", default="")
    parser.add_argument("--summary", default="summary.txt")
    parser.add_argument("--summary-json", default="summary.json")
    parser.add_argument("--last-summary", default="", help="the summary.json of the last run (for --only failed)")
    args = parser.parse_args()
    started = time.time()
    manifest = json.load(open(args.manifest, encoding="utf-8")) if args.manifest else {}
    everything = plan(args.jobs)
    checks = selected(everything, args.only, args.last_summary)
    print(f"{len(checks)} check(s), {args.jobs} slot(s), {args.deadline - started:.0f} s to the limit", flush=True)
    for phase, capacity in (("first", 1), ("alone", 1), ("side", args.jobs)):
        run_phase([c for c in checks if c.phase == phase], args.results, args.deadline, capacity)
    # A rerun (--only) reports every check too: those it did not run as the last run left them.
    previous = {}
    if args.only and args.last_summary and os.path.exists(args.last_summary):
        previous = {c["id"]: c for c in json.load(open(args.last_summary, encoding="utf-8"))["checks"]}
    for check in everything:
        if check not in checks:
            earlier = previous.get(check.id)
            reason = earlier.get("reason", "") if earlier else ""
            reason = reason if reason.startswith("(last run)") else f"(last run) {reason}".strip()
            check.result = dict(earlier, reason=reason) if earlier else \
                {"id": check.id, "status": "not run", "reason": "not chosen by --only", "figures": {}, "failures": []}
    if any(c.id == "recordings" for c in checks):
        recordings.assemble(args.results, manifest, next((c.result for c in everything if c.id == "setup"), None))
    write_summary(everything, args.summary, args.summary_json, manifest, started, args.deadline)
    return 0 if all(c.result["status"] in ("passed", "skipped") for c in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
