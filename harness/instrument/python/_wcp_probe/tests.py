# Which test was running when a module load happened (docs/instrumentation.md: a load's "test").
#
# Inside Warp's timed load the load hook reads one thing for this: pytest's PYTEST_CURRENT_TEST,
# straight from os.environ's own dict (a dict lookup, no decoding, no exception when it is unset;
# events.environ_reader). Everything else runs in `drain`, after the load: `test_of` turns that value,
# or else the stack the hook already took, into {"id", "phase", "worker"}:
#
# - pytest: its variable says "path::name[param] (setup|call|teardown)" while a test runs;
# - unittest: the running test is the frame just inside unittest's _callSetUp/_callTestMethod/
#   _callTearDown/doCleanups;
# - under a test runner but in no test: "collection" (pytest collecting), "import" (a module's
#   import) or "session" (between or after tests, session fixtures);
# - under no test runner at all (a plain script): None, no "test" field.
#
# The xdist worker ("gw0") is read here too: xdist sets PYTEST_XDIST_WORKER once, in the worker,
# before its collection starts, and never changes it.
import os

from .events import environ_reader, environ_text

PYTEST_VARIABLE = "PYTEST_CURRENT_TEST"
PYTEST_PHASES = ("setup", "call", "teardown")
# unittest/case.py's frames that run a test's parts (3.8+), by the phase they run.
UNITTEST_PARTS = {"_callSetUp": "setup", "_callTestMethod": "call", "_callTearDown": "teardown",
                  "doCleanups": "teardown", "_callCleanup": "teardown"}
# pytest's frames that collect (import test files, build the items), in any pytest since 6.
PYTEST_COLLECTING = frozenset(("perform_collect", "collect_one_node", "pytest_make_collect_report", "genitems",
                               "importtestmodule", "_importtestmodule", "import_path", "pytest_collect_file",
                               "pytest_pycollect_makemodule", "_importconftest"))
UNITTEST_DIR = os.sep + "unittest" + os.sep
PYTEST_DIRS = (os.sep + "_pytest" + os.sep, os.sep + "pluggy" + os.sep, os.sep + "xdist" + os.sep)
# What runs a module's code on import: importlib, or pytest's assertion rewriter for test files.
IMPORTERS = ("<frozen importlib._bootstrap", os.sep + "importlib" + os.sep,
             os.sep + "_pytest" + os.sep + "assertion" + os.sep + "rewrite.py")


def pytest_test(value):
    """(id, phase) from PYTEST_CURRENT_TEST, e.g. "tests/test_x.py::test_y[a (b)] (call)"."""
    test_id, _, phase = value.rpartition(" (")
    phase = phase[:-1] if phase.endswith(")") else phase
    if not test_id:
        return value, "call"
    return test_id, phase if phase in PYTEST_PHASES else "call"


def code_name(code):
    return getattr(code, "co_qualname", None) or getattr(code, "co_name", "?")


def unittest_test(stack):
    """(id, phase) of the unittest test running on `stack` ((code, line) pairs, innermost first),
    or None. The id is "<file stem>.<Class>.<method>" from the test's own frame; for setup and
    teardown, whose frame is setUp or a cleanup, the test's class ("<file stem>.<Class>")."""
    for index, (code, _) in enumerate(stack):
        phase = UNITTEST_PARTS.get(code.co_name)
        if phase is None or UNITTEST_DIR not in code.co_filename or not code.co_filename.endswith("case.py"):
            continue
        if index == 0:
            return None
        inner = stack[index - 1][0]
        name = code_name(inner)
        if "<locals>" in name:  # a method made by a helper (a test per device): its own name
            name = inner.co_name
        if phase != "call":
            name = name.rpartition(".")[0] if "." in name else ""
        stem = os.path.splitext(os.path.basename(inner.co_filename))[0]
        return (stem + "." + name if name else stem), phase
    return None


def runner_of(stack):
    """"pytest", "unittest" or None: the test runner whose frames are on the stack."""
    runner = None
    for code, _ in stack:
        filename = code.co_filename
        if any(part in filename for part in PYTEST_DIRS):
            return "pytest"
        if UNITTEST_DIR in filename:
            runner = "unittest"
    return runner


def suite_phase(stack, runner):
    """The phase of the suite for a load under `runner` outside any test."""
    if runner == "pytest":
        for code, _ in stack:
            if code.co_name in PYTEST_COLLECTING and os.sep + "_pytest" + os.sep in code.co_filename:
                return "collection"
    for index, (code, _) in enumerate(stack[:-1]):
        if code.co_name == "<module>" and any(part in stack[index + 1][0].co_filename for part in IMPORTERS):
            return "import"
    return "session"


def test_of(raw_value, stack, worker):
    """The load's "test" field: {"id", "phase", "worker"}, or None under no test runner."""
    value = environ_text(raw_value)
    if value:
        test_id, phase = pytest_test(value)
        return {"id": test_id, "phase": phase, "worker": worker}
    found = unittest_test(stack)
    if found is not None:
        return {"id": found[0], "phase": found[1], "worker": worker}
    runner = runner_of(stack)
    if runner is None:
        return None
    return {"id": "", "phase": suite_phase(stack, runner), "worker": worker}


def pytest_reader():
    """(read, key) of PYTEST_CURRENT_TEST for the load hook (events.environ_reader)."""
    return environ_reader(PYTEST_VARIABLE)


def worker_id():
    return os.environ.get("PYTEST_XDIST_WORKER") or ""
