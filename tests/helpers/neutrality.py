"""Does the probe change what it measures? Warp's own load timers with and without it.

Shared by the neutrality test (tests/integration/test_neutrality.py) and the bench
(tests/bench/neutrality_bench.py). One program with several modules, loaded one after another
and then in parallel (`wp.force_load(..., max_workers=N)` where Warp has it, threads calling
`wp.load_module` on older Warp), runs in a Python environment with thousands of installed
distributions (empty dist-info folders on PYTHONPATH: what made the probe's old ownership
lookup slow), in two arms taken in turn:

- bare: the program with Warp's module timers switched on, cold then warm in a fresh cache;
- probe: `warp-compile-probe measure --samples 1` of the same program.

Each arm yields Warp's own "took N ms" per load and pass. The probe arm also yields each load's
`hook_ms`, the instrumentation's own time inside that timer.
"""
import json
import os
import re
import statistics
import subprocess
import tempfile

SERIAL = ("serial_a", "serial_b", "serial_c")
PARALLEL = ("parallel_a", "parallel_b", "parallel_c")

KERNEL_MODULE = """import warp as wp


@wp.kernel
def kernel(a: wp.array(dtype=float)):
    a[wp.tid()] = a[wp.tid()] + {value}.0
"""

APP = """import inspect
import os
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import warp as wp

import {imports}

DEVICE = os.environ.get("WCP_FIXTURE_DEVICE", "cpu")
serial = [{serial}]
parallel = [{parallel}]
wp.init()
for module in serial:
    wp.load_module(module, device=DEVICE)
if "max_workers" in inspect.signature(wp.force_load).parameters:
    wp.force_load(device=DEVICE, modules=[wp.get_module(m.__name__) for m in parallel], max_workers=len(parallel))
else:  # Warp 1.9: no parallel force_load; threads load their modules at once
    threads = [threading.Thread(target=wp.load_module, args=(m,), kwargs={{"device": DEVICE}}) for m in parallel]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
a = wp.zeros(4, dtype=float, device=DEVICE)
for module in serial + parallel:
    wp.launch(module.kernel, dim=4, inputs=[a], device=DEVICE)
print("sum", float(a.numpy().sum()))
"""

# Switches Warp's module timers on (as the probe does) and runs the program as __main__.
BARE_RUNNER = """import runpy
import sys

import warp as wp

if hasattr(wp.config, "log_level") and hasattr(wp, "LOG_DEBUG"):
    wp.config.log_level = min(wp.config.log_level, wp.LOG_DEBUG)
else:
    wp.config.verbose = True
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""

LOAD_LINE = re.compile(r"^Module (\S+) (?:[0-9a-f]{7} )?load on device '([^']+)'.* took ([0-9.]+) ms\s+\((\w+)\)")
# Warp's timers print their text and newline in two writes: parallel loads share lines. A message
# starts after another one's "ms", "(status)" or "..." (the tool's log scanner splits the same way).
MESSAGE_BOUNDARY = re.compile(r"(?:(?<= ms)|(?<=\))|(?<=\.\.\.))\s*(?=(?:Module|Compile|Warp) )")


def write_program(root):
    """The program and its kernel modules under root; returns the app's path."""
    names = SERIAL + PARALLEL
    for value, name in enumerate(names, start=1):
        with open(os.path.join(root, name + ".py"), "w", encoding="utf-8") as handle:
            handle.write(KERNEL_MODULE.format(value=value))
    app = os.path.join(root, "app.py")
    with open(app, "w", encoding="utf-8") as handle:
        handle.write(APP.format(imports=", ".join(names), serial=", ".join(SERIAL), parallel=", ".join(PARALLEL)))
    with open(os.path.join(root, "bare_runner.py"), "w", encoding="utf-8") as handle:
        handle.write(BARE_RUNNER)
    return app


def make_distributions(root, count):
    """`count` installed distributions that ship nothing: dist-info folders with METADATA and
    top_level.txt, as many environments have by the hundred."""
    for i in range(count):
        info = os.path.join(root, "placeholder_%04d-1.0.dist-info" % i)
        os.makedirs(info, exist_ok=True)
        with open(os.path.join(info, "METADATA"), "w", encoding="utf-8") as handle:
            handle.write("Metadata-Version: 2.1\nName: placeholder-%04d\nVersion: 1.0\n\n" % i)
        with open(os.path.join(info, "top_level.txt"), "w", encoding="utf-8") as handle:
            handle.write("placeholder_%04d\n" % i)
    return root


def parse_loads(text):
    """[(module, ms, status)] from Warp's log, in order."""
    loads = []
    for line in text.splitlines():
        for message in MESSAGE_BOUNDARY.split(line.strip()):
            match = LOAD_LINE.match(message)
            if match:
                loads.append((match.group(1), float(match.group(3)), match.group(4)))
    return loads


def bare_pass(python, app, env, cache, pass_name):
    """One bare run of the program against the kernel cache `cache`: its loads."""
    runner = os.path.join(os.path.dirname(app), "bare_runner.py")
    run_env = dict(env, WARP_CACHE_PATH=cache, PYTHONDONTWRITEBYTECODE="1")
    result = subprocess.run([python, runner, app], capture_output=True, text=True, env=run_env,
                            cwd=os.path.dirname(app), timeout=900, stdin=subprocess.DEVNULL)
    if result.returncode != 0:
        raise RuntimeError("bare %s run failed: %s" % (pass_name, result.stderr[-2000:]))
    return parse_loads(result.stdout)


def bare_run(python, app, env):
    """Cold then warm in a fresh cache: {"cold": loads, "warm": loads}."""
    with tempfile.TemporaryDirectory() as cache:
        return {pass_name: bare_pass(python, app, env, cache, pass_name) for pass_name in ("cold", "warm")}


def probe_run(cli, python, app, env):
    """`measure --samples 1`: ({"cold": loads, "warm": loads}, [hook_ms of every load])."""
    with tempfile.TemporaryDirectory() as out_dir:
        report_path = os.path.join(out_dir, "report.json")
        result = subprocess.run([cli, "measure", "--quiet", "--samples", "1", "--json", report_path, "--", python, app],
                                capture_output=True, text=True, env=env, cwd=os.path.dirname(app), timeout=900,
                                stdin=subprocess.DEVNULL)
        if result.returncode != 0 or not os.path.exists(report_path):
            raise RuntimeError("measure failed (%d): %s" % (result.returncode, result.stderr[-2000:]))
        with open(report_path, encoding="utf-8") as handle:
            report = json.load(handle)
    out = {"cold": [], "warm": []}
    hooks = []
    for event in report["module_events"]:
        out[event["pass"]].append((event["name"], event["ms"], event["status"]))
        detail = event.get("detail") or {}
        if detail.get("hook_ms") is not None:
            hooks.append(detail["hook_ms"])
    return out, hooks, report


def interleaved(cli, python, app, env, rounds, bare_cold_once=False):
    """Both arms taken in turn `rounds` times; per arm and pass, {module: [ms per round]}.

    With `bare_cold_once`, the bare arm compiles its cache once, before the rounds, and each round
    runs it warm against that cache: its cold figures are then one run's, and a round costs one
    cold compile instead of two (the warm loads, which are what a caller asserts, are the same
    loads of the same cache entries either way)."""
    arms = {"bare": {"cold": {}, "warm": {}}, "probe": {"cold": {}, "warm": {}}}
    hooks = []
    reports = []

    def record(arm, pass_name, loads):
        for name, ms, _status in loads:
            arms[arm][pass_name].setdefault(name, []).append(ms)

    with tempfile.TemporaryDirectory() as bare_cache:
        if bare_cold_once:
            record("bare", "cold", bare_pass(python, app, env, bare_cache, "cold"))
        for _ in range(rounds):
            if bare_cold_once:
                record("bare", "warm", bare_pass(python, app, env, bare_cache, "warm"))
            else:
                for pass_name, loads in bare_run(python, app, env).items():
                    record("bare", pass_name, loads)
            probe, hook_ms, report = probe_run(cli, python, app, env)
            hooks.extend(hook_ms)
            reports.append(report)
            for pass_name, loads in probe.items():
                record("probe", pass_name, loads)
    return arms, hooks, reports


def medians(arm_pass):
    return {name: statistics.median(values) for name, values in arm_pass.items()}


def tolerance_ms(bare_median):
    """How far the probe's median may be from the bare one: max(1 ms, 5 %)."""
    return max(1.0, 0.05 * bare_median)
