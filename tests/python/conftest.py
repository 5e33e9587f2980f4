"""Shared helpers for the instrumentation tests (tests/python).

The probe is a sitecustomize.py injected through PYTHONPATH, so every test runs a fresh
interpreter: `run_probe` starts one with WCP_EVENT_DIR set and returns its events, grouped by
process. WCP_EXPECT_WARP says which Warp era the interpreter running pytest has ("1.19" or
"old"). CTest sets it (tests/CMakeLists.txt), and then a Warp that cannot be imported fails
every test that needs real Warp, with the reason; only where it is unset (pytest run by hand in
an interpreter nobody said has Warp) do those tests skip.
"""
import glob
import importlib
import importlib.util
import json
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "helpers"))  # tests/helpers/

from launch_sequence import expand  # noqa: E402  (re-exported for the tests)
from probe_tree import native_module, probe_dir  # noqa: E402

# The instrumentation as the CLI ships it: with the build's native launch counter where there is
# one (WCP_EXPECT_NATIVE, set by CTest, says there must be; tests/python/test_counter.py).
NATIVE_MODULE = native_module()
NATIVE_EXPECTED = bool(os.environ.get("WCP_EXPECT_NATIVE"))
PROBE_DIR = probe_dir(NATIVE_MODULE)
PROBE_FILE = os.path.join(PROBE_DIR, "sitecustomize.py")
PROBE_PACKAGE = os.path.join(PROBE_DIR, "_wcp_probe")

EXPECT = os.environ.get("WCP_EXPECT_WARP", "1.19")
WARP_EXPECTED = bool(os.environ.get("WCP_EXPECT_WARP"))


def load_probe_module(name="record"):
    """One module of the probe package, imported as a plain module (nothing is installed:
    only `_wcp_probe.install()` hooks anything)."""
    if PROBE_DIR not in sys.path:
        sys.path.insert(0, PROBE_DIR)
    return importlib.import_module("_wcp_probe." + name)


def read_events(event_dir):
    by_pid = {}
    for path in sorted(glob.glob(os.path.join(event_dir, "events-*.jsonl"))):
        with open(path, encoding="utf-8") as handle:
            records = [json.loads(line) for line in handle]
        assert records, path
        by_pid[records[0]["pid"]] = records
    return by_pid


def of_type(records, kind):
    return [r for r in records if r["type"] == kind]


def last_launches(records):
    snapshots = of_type(records, "launches")
    return snapshots[-1] if snapshots else None


def launched(records):
    """The process's launches as a list of signature dicts, in order."""
    snapshot = last_launches(records)
    if snapshot is None:
        return []
    return [snapshot["signatures"][i] for i in expand(snapshot["sequence"])]


class Run:
    def __init__(self, proc, events, event_dir):
        self.proc = proc
        self.events = events
        self.event_dir = event_dir

    @property
    def main(self):
        """Records of the process that was started (the first to write)."""
        firsts = [records for records in self.events.values() if records[0].get("forked_from") is None
                  and not records[0].get("mp_child")]
        assert len(firsts) == 1, list(self.events)
        return firsts[0]


_runs = 0


def run_script(tmp_path, source, probe=True, extra_path=(), env=None, args=(), name="app.py", timeout=600,
               python=None, cache=None):
    """Runs `source` (a file, since Warp reads kernel source from files) in a fresh interpreter."""
    global _runs
    _runs += 1
    script = tmp_path / name
    script.write_text(textwrap.dedent(source))
    event_dir = tmp_path / ("events-%d" % _runs)
    event_dir.mkdir()
    environment = dict(os.environ)
    for key in ("WCP_EVENT_DIR", "WCP_EVENT_FILE", "WCP_PROBE_FAULT"):
        environment.pop(key, None)
    paths = list(extra_path)
    if probe:
        paths.insert(0, PROBE_DIR)
        environment["WCP_EVENT_DIR"] = str(event_dir)
    if environment.get("PYTHONPATH"):
        paths.append(environment["PYTHONPATH"])
    if paths:
        environment["PYTHONPATH"] = os.pathsep.join(str(p) for p in paths)
    else:
        environment.pop("PYTHONPATH", None)
    environment["WARP_CACHE_PATH"] = str(cache or (tmp_path / ("warp-cache-%d" % _runs)))
    environment["PYTHONDONTWRITEBYTECODE"] = "1"
    environment.update(env or {})
    proc = subprocess.run([python or sys.executable, str(script), *args], cwd=str(tmp_path), env=environment,
                          capture_output=True, text=True, timeout=timeout)
    return Run(proc, read_events(str(event_dir)), str(event_dir))


def warp_import_error():
    """None when this interpreter imports warp, else why not. Imported in a child, as every test
    program is: a package that is found but fails to load counts as missing."""
    if importlib.util.find_spec("warp") is None:
        return "no module named 'warp'"
    probe = subprocess.run([sys.executable, "-c", "import warp"], capture_output=True, text=True, timeout=300)
    if probe.returncode == 0:
        return None
    tail = (probe.stderr or probe.stdout).strip().splitlines()[-1:] or [f"exit {probe.returncode}"]
    return tail[0]


@pytest.fixture(scope="session")
def real_warp():
    """Fails (WCP_EXPECT_WARP set: Warp is expected) or skips (nothing says so) when this
    interpreter cannot import Warp."""
    error = warp_import_error()
    if error is None:
        return
    if WARP_EXPECTED:
        pytest.fail(f"WCP_EXPECT_WARP={EXPECT} says {sys.executable} has Warp, but `import warp` fails: {error}",
                    pytrace=False)
    pytest.skip(f"real Warp is not importable in this interpreter ({error}) and WCP_EXPECT_WARP is unset")


needs_warp = pytest.mark.usefixtures("real_warp")


def pytest_configure(config):
    # CTest runs `-m timing` alone and `-m "not timing"` beside other tests (tests/CMakeLists.txt).
    config.addinivalue_line("markers", "timing: asserts a time or a clock, so it must not share the machine")


@pytest.fixture(scope="session")
def warp_cache(tmp_path_factory):
    """One kernel cache for the tests that do not care about cold builds (saves compiles)."""
    return tmp_path_factory.mktemp("warp-cache")
