"""Shared helpers for the integration tests: run the real CLI against real Warp."""
import hashlib
import json
import os
import subprocess
import tempfile

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


def measure(command, samples=1, extra_args=(), env=None, timeout=600):
    """Measures `command` with --json into a temp file; returns (CompletedProcess, report or None)."""
    with tempfile.TemporaryDirectory() as out_dir:
        json_path = os.path.join(out_dir, "report.json")
        result = run_cli(["measure", "--quiet", "--samples", str(samples), "--json", json_path, *extra_args, "--",
                          *command], env=env, timeout=timeout)
        report = None
        if os.path.exists(json_path):
            with open(json_path, encoding="utf-8") as handle:
                report = json.load(handle)
        return result, report


def fixture(relative):
    return os.path.join(FIXTURES, relative)


def catalog():
    with open(os.path.join(FIXTURES, "catalog.json"), encoding="utf-8") as handle:
        return json.load(handle)


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
    return [e for e in report["module_events"] if e["label"] == label and e["status"] == "compiled"]


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
