"""Which test each load happened in (schema 11; _wcp_probe/tests.py): pytest's test and phase,
unittest's running test, the suite's own phases, xdist's worker, and nothing for a plain script.
The parsing on synthetic stacks, then real Warp of both API eras under pytest and unittest."""
import importlib.util
import os
import subprocess
import sys
import types

import pytest

from conftest import PROBE_DIR, load_probe_module, needs_warp, of_type, read_events, run_script

tests_module = load_probe_module("tests")


def code(filename, name, qualname=None):
    return types.SimpleNamespace(co_filename=filename, co_name=name, co_qualname=qualname or name)


CASE = os.path.join(os.sep, "usr", "lib", "python3.11", "unittest", "case.py")
PYTEST_RUNNER = os.path.join(os.sep, "venv", "site-packages", "_pytest", "runner.py")
PYTEST_PYTHON = os.path.join(os.sep, "venv", "site-packages", "_pytest", "python.py")
WARP = os.path.join(os.sep, "venv", "site-packages", "warp", "_src", "context.py")
TEST_FILE = os.path.join(os.sep, "work", "tests", "test_solver.py")


def test_pytest_variable_names_the_test_and_phase():
    for raw in ("tests/test_x.py::test_y[a (b)] (setup)", b"tests/test_x.py::test_y[a (b)] (setup)"):
        assert tests_module.test_of(raw, [], "gw1") == {"id": "tests/test_x.py::test_y[a (b)]", "phase": "setup",
                                                        "worker": "gw1"}
    assert tests_module.test_of("t.py::T::test_z (teardown)", [], "")["phase"] == "teardown"


def test_unittest_test_is_the_frame_inside_its_part():
    stack = [(code(WARP, "load"), 1), (code(TEST_FILE, "test_step", "TestSolver.test_step"), 9),
             (code(CASE, "_callTestMethod"), 5), (code(CASE, "run"), 6)]
    assert tests_module.test_of(None, stack, "") == {"id": "test_solver.TestSolver.test_step", "phase": "call",
                                                     "worker": ""}
    stack[1:3] = [(code(TEST_FILE, "setUp", "TestSolver.setUp"), 3), (code(CASE, "_callSetUp"), 5)]
    assert tests_module.test_of(None, stack, "") == {"id": "test_solver.TestSolver", "phase": "setup", "worker": ""}
    # a method a helper made (one test per device) is named by its own name
    stack[1:3] = [(code(TEST_FILE, "test_func", "add_function_test.<locals>.test_func"), 3),
                  (code(CASE, "_callTestMethod"), 5)]
    assert tests_module.test_of(None, stack, "")["id"] == "test_solver.test_func"


def test_suite_phases_and_no_runner():
    importer = code("<frozen importlib._bootstrap>", "_call_with_frames_removed")
    module = code(TEST_FILE, "<module>")
    collecting = [(code(WARP, "load"), 1), (module, 2), (importer, 3), (code(PYTEST_PYTHON, "importtestmodule"), 4),
                  (code(PYTEST_RUNNER, "collect_one_node"), 5)]
    assert tests_module.test_of(None, collecting, "gw0") == {"id": "", "phase": "collection", "worker": "gw0"}
    fixture = [(code(WARP, "load"), 1), (code(TEST_FILE, "warm"), 2), (code(PYTEST_RUNNER, "call_and_report"), 3)]
    assert tests_module.test_of(None, fixture, "")["phase"] == "session"
    importing = [(code(WARP, "load"), 1), (module, 2), (importer, 3), (code(PYTEST_RUNNER, "call_and_report"), 3)]
    assert tests_module.test_of(None, importing, "")["phase"] == "import"
    main = code("/work/app.py", "<module>")
    runpy = code("/usr/lib/python3.11/runpy.py", "_run_code")
    assert tests_module.test_of(None, [(code(WARP, "load"), 1), (main, 2), (runpy, 3)], "") is None


def test_the_value_read_inside_the_timer_is_the_raw_variable(monkeypatch):
    read, key = tests_module.pytest_reader()
    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)
    assert read(key) is None
    monkeypatch.setenv("PYTEST_CURRENT_TEST", "a.py::t (call)")
    assert tests_module.environ_text(read(key)) == "a.py::t (call)"


SUITE = '''
import warp as wp
import pytest

wp.config.quiet = True

@wp.kernel
def at_collection(a: wp.array(dtype=float)):
    a[wp.tid()] = 1.0

A = wp.zeros(2, dtype=float, device="cpu")
wp.launch(at_collection, dim=2, inputs=[A], device="cpu")


@pytest.fixture
def built():
    @wp.kernel(module="unique")
    def in_setup(a: wp.array(dtype=float)):
        a[wp.tid()] = 2.0
    wp.launch(in_setup, dim=2, inputs=[A], device="cpu")


@pytest.mark.parametrize("scale", [3.0, 4.0])
def test_scaled(built, scale):
    @wp.kernel(module="unique")
    def in_call(a: wp.array(dtype=float)):
        a[wp.tid()] = scale
    wp.launch(in_call, dim=2, inputs=[A], device="cpu")
'''


def run_pytest(tmp_path, *args):
    (tmp_path / "test_suite.py").write_text(SUITE)
    event_dir = tmp_path / "events"
    event_dir.mkdir()
    env = dict(os.environ, WCP_EVENT_DIR=str(event_dir), WARP_CACHE_PATH=str(tmp_path / "cache"),
               PYTHONPATH=PROBE_DIR, PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTEST_CURRENT_TEST", None)
    env.pop("PYTEST_XDIST_WORKER", None)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args, "test_suite.py"],
                          cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    loads = [load for records in read_events(str(event_dir)).values() for load in of_type(records, "load")]
    assert loads, proc.stdout
    return loads


def attributed(loads):
    return sorted((load["test"]["id"], load["test"]["phase"]) for load in loads)


@needs_warp
def test_pytest_suite_loads_name_their_test(tmp_path):
    loads = run_pytest(tmp_path)
    by_kernel = {}
    for load in loads:
        for kernel in load["kernels"]:
            by_kernel.setdefault(kernel["key"], set()).add((load["test"]["id"], load["test"]["phase"]))
    assert by_kernel["at_collection"] == {("", "collection")}
    # Warp 1.19 finds the second fixture's identical kernel loaded; older Warp loads it again
    assert by_kernel["built__locals__in_setup"] <= {("test_suite.py::test_scaled[3.0]", "setup"),
                                                    ("test_suite.py::test_scaled[4.0]", "setup")}
    assert ("test_suite.py::test_scaled[3.0]", "setup") in by_kernel["built__locals__in_setup"]
    assert by_kernel["test_scaled__locals__in_call"] == {("test_suite.py::test_scaled[3.0]", "call"),
                                                         ("test_suite.py::test_scaled[4.0]", "call")}
    assert all(load["test"]["worker"] == "" for load in loads)


@needs_warp
@pytest.mark.skipif(importlib.util.find_spec("xdist") is None, reason="pytest-xdist is not installed here")
def test_xdist_workers_name_themselves(tmp_path):
    loads = run_pytest(tmp_path, "-n", "2")
    workers = {load["test"]["worker"] for load in loads}
    assert workers <= {"gw0", "gw1"} and workers, workers
    calls = sorted(load["test"]["id"] for load in loads if load["test"]["phase"] == "call")
    assert calls == ["test_suite.py::test_scaled[3.0]", "test_suite.py::test_scaled[4.0]"]
    # every worker collects the file: the module-level launch is a collection load in each
    assert {load["test"]["phase"] for load in loads if load["name"] == "test_suite"} == {"collection"}


UNITTEST_SUITE = '''
import unittest
import warp as wp

wp.config.quiet = True

@wp.kernel
def at_import(a: wp.array(dtype=float)):
    a[wp.tid()] = 1.0

A = wp.zeros(2, dtype=float, device="cpu")
wp.launch(at_import, dim=2, inputs=[A], device="cpu")


class TestSolver(unittest.TestCase):
    def test_step(self):
        @wp.kernel(module="unique")
        def step(a: wp.array(dtype=float)):
            a[wp.tid()] = 2.0
        wp.launch(step, dim=2, inputs=[A], device="cpu")
'''


@needs_warp
def test_unittest_loads_name_their_test_and_a_plain_script_none(tmp_path, monkeypatch):
    monkeypatch.delenv("PYTEST_CURRENT_TEST")  # a child of a test inherits it: its loads are that test's
    (tmp_path / "test_unit.py").write_text(UNITTEST_SUITE)
    run = run_script(tmp_path, "import unittest\nunittest.main(module=None, argv=['x', 'test_unit'])\n",
                     name="runner.py")
    assert run.proc.returncode == 0, run.proc.stderr
    assert attributed(of_type(run.main, "load")) == [("", "import"), ("test_unit.TestSolver.test_step", "call")]
    plain = run_script(tmp_path, UNITTEST_SUITE, name="plain.py")
    assert plain.proc.returncode == 0, plain.proc.stderr
    assert [load["test"] for load in of_type(plain.main, "load")] == [None]
