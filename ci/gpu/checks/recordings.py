"""Fresh CUDA recordings in the shape of tests/data/cuda-recorded (its README says how each kind
was made), so the CPU-only tests can read what the current code records on a GPU:

  bare/NAME.cold.log, NAME.warm.log   every fixture file run without the probe through
                                      ci/gpu/recording/verbose_run.py, cold on an empty cache, then
                                      warm on it; the last line holds the exit status and wall clock
  bare/phases_probe_free.*.log        ci/gpu/recording/phases.py the same way
  probe/NAME.json, .measure.txt, .diag.json, .diag.txt
                                      `measure --samples 2` and `diagnose` of each fixture file:
                                      here the ones outside the catalogue; the catalogued ones come
                                      from the findings checks (assemble() copies them)
  probe/phases_under_probe.txt        phases.py under `measure --samples 2`
  README.md, loads.tsv                machine, Warp, driver, commit; every bare log's module loads
                                      (read with a regular expression), for the unit test's table

  python3 ci/gpu/checks/recordings.py --results DIR [--jobs 6]
"""
import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpucheck  # noqa: E402
from probe_testlib import catalog_entries  # noqa: E402

RECORDING = os.path.join(gpucheck.SOURCE_DIR, "ci", "gpu", "recording")
# Fixture files outside the catalogue that the first recording measured under the probe, by the
# names its reports have (tests/data/cuda-recorded/probe).
EXTRA_PROBE = {"named_module_backward_app": "named_module_backward/app.py",
               "named_module_backward_fixed": "named_module_backward/fixed.py",
               "option_get_module_app": "option_get_module/app.py", "option_get_module_fixed": "option_get_module/fixed.py",
               "option_named_module_app": "option_named_module/app.py",
               "option_named_module_fixed": "option_named_module/fixed.py",
               "option_unique_factory_app": "option_unique_factory/app.py",
               "option_unique_factory_fixed": "option_unique_factory/fixed.py",
               "pch_off_app": "pch_off/app.py", "pch_off_fixed": "pch_off/fixed.py",
               "sibling_modules_app": "sibling_modules/app.py", "sibling_modules_fixed": "sibling_modules/fixed.py",
               "os_exit_worker_app": "processes/os_exit_worker/app.py",
               "spawn_pool_app": "processes/spawn_pool/app.py", "spawn_pool_fixed": "processes/spawn_pool/fixed.py",
               "subprocess_launcher_app": "processes/subprocess_launcher/app.py"}
LOAD_LINE = re.compile(r"Module (\S+) ([0-9a-f]{7}) load on device '([^']+)'.* took ([0-9.]+) ms\s+\((\w+)\)")


def bare_files():
    """{recording name: fixture path} of every fixture file the bare logs cover."""
    files = {}
    for entry in catalog_entries():
        for role in ("app", "fixed"):
            if entry.get(role):
                files[f"{entry['name']}_{role}"] = entry[role]
    for name, path in EXTRA_PROBE.items():
        files["processes_" + name if path.startswith("processes/") else name] = path
    return files


def bare_run(check, name, script, bare_dir):
    """Cold then warm in one fresh cache, without the probe: NAME.cold.log, NAME.warm.log."""
    cache = tempfile.mkdtemp(prefix=f"wcp-rec-{name}-")
    env = check.env(WARP_CACHE_PATH=os.path.join(cache, "warp"), CUDA_CACHE_PATH=os.path.join(cache, "cuda"))
    env.pop("WCP_EVENT_DIR", None)
    statuses = []
    for pass_name in ("cold", "warm"):
        started = time.monotonic()
        try:
            result = subprocess.run([gpucheck.PYTHON, *script], capture_output=True, text=True, env=env,
                                    cwd=os.path.dirname(script[-1]), timeout=300, stdin=subprocess.DEVNULL)
            text, code = result.stdout + result.stderr, result.returncode
        except subprocess.TimeoutExpired as error:
            text, code = f"{error}\n", "timeout"
        wall = 1e3 * (time.monotonic() - started)
        with open(os.path.join(bare_dir, f"{name}.{pass_name}.log"), "w", encoding="utf-8") as handle:
            handle.write(text + ("" if text.endswith("\n") else "\n") + f"exit={code} wall_ms={wall:.0f}\n")
        statuses.append(code)
    shutil.rmtree(cache, ignore_errors=True)
    return name, statuses


def probe_run(check, name, relative, probe_dir):
    out = os.path.join(probe_dir, f"{name}.json")
    result, report = gpucheck.measure([gpucheck.PYTHON, os.path.join(gpucheck.FIXTURES, relative)], out, check.env(),
                                      samples=2, cwd=gpucheck.SOURCE_DIR,
                                      text_path=os.path.join(probe_dir, f"{name}.measure.txt"))
    if report is not None:
        gpucheck.diagnose(out, os.path.join(probe_dir, f"{name}.diag.json"), check.env(),
                          text_path=os.path.join(probe_dir, f"{name}.diag.txt"))
    return name, result.returncode


def phases_under_probe(check, probe_dir):
    out = os.path.join(probe_dir, "phases_under_probe.json")
    result, report = gpucheck.measure([gpucheck.PYTHON, os.path.join(RECORDING, "phases.py")], out, check.env(),
                                      samples=2, cwd=gpucheck.SOURCE_DIR)
    lines = []
    for process in (report or {}).get("processes", []):
        lines.append(json.dumps({k: process.get(k) for k in ("role", "pass", "sample", "pid")}))
    with open(os.path.join(probe_dir, "phases_under_probe.txt"), "w", encoding="utf-8") as handle:
        handle.write(result.stdout + result.stderr + "\n".join(lines) + "\n")
    return "phases_under_probe", result.returncode


def main():
    check = gpucheck.Check("recordings", __doc__)
    check.parser.add_argument("--jobs", type=int, default=6)
    args = check.parse()
    check.require_cuda()
    bare_dir, probe_dir = os.path.join(check.results, "bare"), os.path.join(check.results, "probe")
    os.makedirs(bare_dir, exist_ok=True)
    os.makedirs(probe_dir, exist_ok=True)
    verbose = os.path.join(RECORDING, "verbose_run.py")
    jobs = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for name, relative in bare_files().items():
            jobs.append(pool.submit(bare_run, check, name, [verbose, os.path.join(gpucheck.FIXTURES, relative)], bare_dir))
        jobs.append(pool.submit(bare_run, check, "phases_probe_free", [os.path.join(RECORDING, "phases.py")], bare_dir))
        for name, relative in EXTRA_PROBE.items():
            jobs.append(pool.submit(probe_run, check, name, relative, probe_dir))
        jobs.append(pool.submit(phases_under_probe, check, probe_dir))
        failed = []
        for job in concurrent.futures.as_completed(jobs):
            name, status = job.result()
            if status not in (0, [0, 0]):
                failed.append(f"{name}: {status}")
    check.figure("bare logs", len(glob.glob(os.path.join(bare_dir, "*.log"))))
    check.figure("probe reports (outside the catalogue)", len(glob.glob(os.path.join(probe_dir, "*.json"))) -
                 len(glob.glob(os.path.join(probe_dir, "*.diag.json"))))
    # A recording of a failing run is still a recording (cache_destroyed and the CUDA-only
    # fixtures must exit 0, so a failure here is worth a look): listed, not a failed check.
    check.figure("runs that did not exit 0", failed)
    check.finish()


def assemble(results, manifest, setup):
    """After every check: the catalogued fixtures' reports (from the findings checks) join
    probe/, and README.md and loads.tsv say what was recorded, where and with what."""
    folder = os.path.join(results, "recordings")
    if not os.path.isdir(folder):
        return
    probe_dir = os.path.join(folder, "probe")
    os.makedirs(probe_dir, exist_ok=True)
    for path in glob.glob(os.path.join(results, "findings-*", "*")):
        if path.endswith((".json", ".measure.txt", ".diag.txt")) and not path.endswith("result.json"):
            shutil.copy(path, probe_dir)
    rows = []
    for log in sorted(glob.glob(os.path.join(folder, "bare", "*.log"))):
        with open(log, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                match = LOAD_LINE.search(line)
                if match:
                    rows.append("\t".join([os.path.basename(log), *match.groups()]))
    with open(os.path.join(folder, "loads.tsv"), "w", encoding="utf-8") as handle:
        handle.write("log\tmodule\thash\tdevice\tms\tstatus\n" + "\n".join(rows) + "\n")
    figures = (setup or {}).get("figures", {})
    with open(os.path.join(folder, "README.md"), "w", encoding="utf-8") as handle:
        handle.write(f"""# CUDA recordings

Recorded by ci/gpu/run.sh (ci/gpu/checks/recordings.py) on {time.strftime('%Y-%m-%d', time.gmtime())}.

- GPU: {figures.get('gpu', 'unknown')}
- Warp: {figures.get('warp', manifest.get('warp_version', 'unknown'))}
- Python: {figures.get('python', 'unknown')}
- Project commit: {manifest.get('commit', 'unknown')}{' (with uncommitted changes)' if manifest.get('dirty') else ''}
- Every fixture ran with WCP_FIXTURE_DEVICE=cuda:0 (no source edits).

`bare/`: each fixture file without the probe through ci/gpu/recording/verbose_run.py (its folder
on sys.path), cold on an empty WARP_CACHE_PATH and CUDA_CACHE_PATH, then warm on them; the last
line holds the exit status and the wall clock. `probe/`: `warp-compile-probe measure --samples 2`
and `diagnose` of each fixture file; phases.py both ways. Runs went side by side (up to
{os.cpu_count()} cores), so their seconds are not quiet-machine figures. `loads.tsv`: every
module load of the bare logs, read with a regular expression (for tests/unit/cuda_recorded_test.cpp).
To adopt them: replace tests/data/cuda-recorded/bare and probe with these folders, keep its
README's account of the first recording, and update the unit tests' tables and counts.
""")


if __name__ == "__main__":
    main()
