"""Shared helpers for the integration tests: run the real CLI against real Warp."""
import fcntl
import hashlib
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "helpers"))  # tests/helpers/launch_sequence.py
from launch_sequence import expand  # noqa: E402

CLI = os.environ.get("WCP_CLI", "")
SOURCE_DIR = os.environ.get("WCP_SOURCE_DIR", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
PYTHON = os.environ.get("WCP_PYTHON", "python3")
FIXTURES = os.path.join(SOURCE_DIR, "fixtures")


def run_cli(args, env=None, timeout=600, cwd=None):
    """Runs warp-compile-probe; returns CompletedProcess with text output."""
    if not CLI:
        raise RuntimeError("WCP_CLI is not set: run these tests through ctest")
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    return subprocess.run([CLI] + list(args), capture_output=True, text=True, env=full_env, timeout=timeout,
                          cwd=cwd, stdin=subprocess.DEVNULL)


def run_cli_concurrently(test, argument_lists, expected_imports, timeout=300):
    """Starts one CLI per argument list at once (concurrent history writers), waits for all, and
    asserts each exited 0 having imported `expected_imports` reports."""
    writers = [subprocess.Popen([CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for args in argument_lists]
    for writer in writers:
        out, err = writer.communicate(timeout=timeout)
        test.assertEqual(writer.returncode, 0, err)
        test.assertEqual(out.count("imported "), expected_imports)


def measure(command, samples=1, extra_args=(), env=None, timeout=600):
    """Measures `command` with --json into a temp file; returns (CompletedProcess, report or None)."""
    with tempfile.TemporaryDirectory() as out_dir:
        json_path = os.path.join(out_dir, "report.json")
        result = run_cli(["measure", "--verbose", "--quiet", "--samples", str(samples), "--json", json_path, *extra_args, "--",
                          *command], env=env, timeout=timeout)
        report = None
        if os.path.exists(json_path):
            with open(json_path, encoding="utf-8") as handle:
                report = json.load(handle)
        return result, report


class Measurement:
    """One `measure --json` of a command: its exit status, screen, stderr and report (a dict, or
    None when none was written). `report_path` is the stored report: read it, never write it."""

    def __init__(self, returncode, stdout, stderr, report_path):
        self.returncode, self.stdout, self.stderr, self.report_path = returncode, stdout, stderr, report_path
        self.report = None
        if report_path and os.path.exists(report_path):
            with open(report_path, encoding="utf-8") as handle:
                self.report = json.load(handle)


def _fixture_files_digest(command):
    """Digest of every file of the folders the command's file arguments sit in (a fixture's
    folder): an edited fixture is measured anew."""
    digest = hashlib.sha256()
    for argument in command:
        if os.path.isfile(argument):
            digest.update(tree_digest(os.path.dirname(os.path.abspath(argument))).encode())
    return digest.hexdigest()


def measured(command, samples=1, verbose=True, timeout=900):
    """`measure [--verbose] --samples N --quiet --json R -- command`, run from the source tree with
    a private, empty XDG cache (no calibration of this machine changes the estimates), measured
    once per build tree and shared by every test that only reads it (WCP_MEASURE_CACHE, set by
    tests/CMakeLists.txt; without it, measured each time in a scratch folder). The key covers the
    CLI binary, the interpreter, the arguments, the fixture's files and the probe's WCP_*
    environment, so a rebuilt CLI or an edited fixture measures anew. Tests that check measuring
    itself (its environment, processes, caches, leftovers) measure on their own instead."""
    cache_root = os.environ.get("WCP_MEASURE_CACHE")
    args = ["measure", *(["--verbose"] if verbose else []), "--samples", str(samples), "--quiet"]
    cli_stat = os.stat(CLI)
    probe_environment = sorted((k, v) for k, v in os.environ.items()
                               if k.startswith("WCP_") and k not in ("WCP_MEASURE_CACHE", "WCP_TEST_SCOPE"))
    key = hashlib.sha256(json.dumps([CLI, cli_stat.st_size, cli_stat.st_mtime_ns, args, list(command),
                                     _fixture_files_digest(command), probe_environment]).encode()).hexdigest()[:24]
    entry = os.path.join(cache_root, key) if cache_root else tempfile.mkdtemp(prefix="wcp_measured_")
    os.makedirs(entry, exist_ok=True)
    result_path = os.path.join(entry, "result.json")
    report_path = os.path.join(entry, "report.json")
    # One test measures, any other that asks for the same key meanwhile waits for it (ctest -j).
    with open(os.path.join(entry, ".lock"), "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(result_path):
            xdg = os.path.join(entry, "xdg-cache")
            os.makedirs(xdg, exist_ok=True)
            if os.path.exists(report_path):
                os.remove(report_path)
            run = run_cli([*args, "--json", report_path, "--", *command],
                          env={"PYTHONDONTWRITEBYTECODE": "1", "XDG_CACHE_HOME": xdg}, timeout=timeout,
                          cwd=SOURCE_DIR)
            if run.returncode != 0:  # a failed measurement is not shared: the next test measures again
                return Measurement(run.returncode, run.stdout, run.stderr, report_path)
            partial = result_path + ".partial"
            with open(partial, "w", encoding="utf-8") as handle:
                json.dump({"returncode": run.returncode, "stdout": run.stdout, "stderr": run.stderr}, handle)
            os.replace(partial, result_path)
        with open(result_path, encoding="utf-8") as handle:
            stored = json.load(handle)
    return Measurement(stored["returncode"], stored["stdout"], stored["stderr"], report_path)


def diagnose(report):
    """`diagnose --verbose --json` of a report given as a dict: the diagnosis as a dict."""
    with tempfile.TemporaryDirectory() as directory:
        report_path = os.path.join(directory, "report.json")
        out = os.path.join(directory, "diagnosis.json")
        with open(report_path, "w", encoding="utf-8") as handle:
            json.dump(report, handle)
        result = run_cli(["diagnose", report_path, "--verbose", "--json", out])
        if result.returncode != 0:
            raise AssertionError(result.stderr)
        with open(out, encoding="utf-8") as handle:
            return json.load(handle)


def launch_runs(report, role="main"):
    """The launches of the report's process with `role`, decoded from its launch record
    (schema 3) into runs of one signature: dicts with the signature's fields and "count"."""
    runs = []
    for process in report["processes"]:
        if process["role"] != role or not process.get("launch_record"):
            continue
        record = process["launch_record"]
        for index in expand(record["sequence"]):
            if runs and runs[-1][0] == index:
                runs[-1][1] += 1
            else:
                runs.append([index, 1])
        return [dict(record["signatures"][index], count=count) for index, count in runs]
    return runs


def fixture(relative):
    return os.path.join(FIXTURES, relative)


# The device the catalogued fixtures run on (fixtures/README.md): "cpu" unless a test sets it.
FIXTURE_DEVICE = os.environ.get("WCP_FIXTURE_DEVICE", "cpu")


def device_kind(device):
    """"cuda" for "cuda" / "cuda:N", else "cpu": the catalogue's `devices` vocabulary."""
    return "cuda" if device.startswith("cuda") else "cpu"


def catalog_entries():
    """Every entry of fixtures/catalog.json, whatever device it runs on."""
    with open(os.path.join(FIXTURES, "catalog.json"), encoding="utf-8") as handle:
        return json.load(handle)


def runs_on(entry, device="cpu"):
    return device_kind(device) in entry.get("devices", ["cpu", "cuda"])


def catalog(device="cpu"):
    """The catalogued fixtures that run on `device` (default the CPU). The others are not
    dropped silently: report them with `skip_other_device_fixtures`."""
    return [entry for entry in catalog_entries() if runs_on(entry, device)]


def skip_reason(entry):
    """Why `entry` does not run on this device kind: "cuda-only fixture" / "cpu-only fixture"."""
    return f"{'-'.join(entry.get('devices', []) or ['no-device'])}-only fixture"


def skip_other_device_fixtures(test, device="cpu"):
    """Reports every catalogued fixture that does not run on `device` as a skipped subtest of
    `test` (reason "cuda-only fixture" on the CPU), so that no run silently drops one."""
    for entry in catalog_entries():
        if not runs_on(entry, device):
            with test.subTest(fixture=entry["name"]):
                test.skipTest(skip_reason(entry))


def expectations(entry, role, device="cpu"):
    """The catalogued expectations of `role` ("app"/"fixed") on `device`: `expect` on the CPU;
    on CUDA `expect_cuda`'s fields over `expect`'s (cuda-only fixtures have only `expect_cuda`)."""
    base = (entry.get("expect") or {}).get(role)
    if device_kind(device) != "cuda":
        return base
    override = (entry.get("expect_cuda") or {}).get(role)
    if base is None:
        return override
    return dict(base, **(override or {}))


def tree_digest(root):
    """Digest of every path, mode and byte under root: proves a tree was not written to."""
    digest = hashlib.sha256()
    for directory, subdirs, files in os.walk(root):
        subdirs.sort()
        for name in sorted(files) + sorted(subdirs):
            path = os.path.join(directory, name)
            stat = os.lstat(path)
            digest.update(f"{os.path.relpath(path, root)}:{stat.st_mode}:{stat.st_size}\n".encode())
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as handle:
                    digest.update(handle.read())
    return digest.hexdigest()


def compiled_events(report, label):
    return [e for e in report["module_events"] if e["pass"] == label and e["status"] == "compiled"]


def pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie still answers kill(0); read its state.
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            return handle.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


# --- fault-injection helpers (tests/integration/test_faults.py, test_security.py) -----------

def processes_with_tag(tag):
    """PIDs of live processes whose environment holds WCP_FAULT_TAG=<tag>: whatever a run
    started, however deep, whichever process group or session it moved to."""
    needle = f"WCP_FAULT_TAG={tag}".encode()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as handle:
                environ = handle.read().split(b"\0")
        except OSError:
            continue
        if needle in environ and pid_alive(int(name)):
            found.append(int(name))
    return found


def wait_until(predicate, timeout=10.0, interval=0.05):
    """Polls predicate() until it is truthy or timeout seconds pass; returns its last value."""
    import time
    deadline = time.monotonic() + timeout
    value = predicate()
    while not value and time.monotonic() < deadline:
        time.sleep(interval)
        value = predicate()
    return value


class TrackedRun:
    """Result of run_cli_tracked: exit status, output, the tool's own peak RSS (VmHWM, KiB,
    polled from /proc while it ran) and wait4's ru_maxrss (KiB; the tool or any descendant it
    reaped, whichever peaked higher)."""

    def __init__(self, returncode, stdout, stderr, tool_peak_kib, tree_maxrss_kib, wall_s):
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        self.tool_peak_kib = tool_peak_kib
        self.tree_maxrss_kib = tree_maxrss_kib
        self.wall_s = wall_s


def _vm_hwm_kib(pid):
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def run_cli_tracked(args, env=None, timeout=600, cwd=None, on_started=None):
    """Runs warp-compile-probe as a child and reaps it with wait4. on_started(pid), when given,
    runs once the tool is up (e.g. to send it a signal). Output goes through files, so a tool
    that prints a lot never blocks on a full pipe."""
    import time
    if not CLI:
        raise RuntimeError("WCP_CLI is not set: run these tests through ctest")
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        process = subprocess.Popen([CLI] + list(args), stdout=out, stderr=err, env=full_env, cwd=cwd,
                                   stdin=subprocess.DEVNULL)
        peak = 0
        if on_started:
            on_started(process.pid)
        status = rusage = None
        while True:
            peak = max(peak, _vm_hwm_kib(process.pid))
            pid, status, rusage = os.wait4(process.pid, os.WNOHANG)
            if pid == process.pid:
                break
            if time.monotonic() - started > timeout:
                process.kill()
                pid, status, rusage = os.wait4(process.pid, 0)
                raise subprocess.TimeoutExpired(args, timeout)
            time.sleep(0.02)
        process.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        return TrackedRun(process.returncode, out.read().decode("utf-8", "replace"),
                          err.read().decode("utf-8", "replace"), peak, rusage.ru_maxrss, wall)


def assert_identities_match(test, report, expect):
    """The cold run built the catalog's identities: its count of builds and modules, and one
    hash per module except the one the fixture rebuilds (at least `min_hashes` there)."""
    cold = compiled_events(report, "cold")
    test.assertEqual(len(cold), expect["cold_compiled_modules"])
    test.assertEqual(report["modules"], expect["distinct_modules"])
    hashes_by_module = {}
    for event in cold:
        hashes_by_module.setdefault(event["name"], set()).add(event["hash"])
    if expect["rebuilt_module"]:
        test.assertGreaterEqual(len(hashes_by_module[expect["rebuilt_module"]]), expect["min_hashes"])
    else:
        test.assertTrue(all(len(h) == 1 for h in hashes_by_module.values()), hashes_by_module)
