"""The instrumentation as the CLI ships it, for tests and benches that run it from the source
tree: harness/instrument/python with the native launch counter the build made beside it.

The CLI writes both from the binary into each run's temp folder; here the build's module
(WCP_FASTLAUNCH, set by CTest, or build/harness/native/_fastlaunch.abi3.so) is copied into a
copy of the Python tree, so nothing is ever written into the source folder."""
import atexit
import os
import shutil
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SOURCE_DIR = os.path.join(ROOT, "harness", "instrument", "python")
BUILT_MODULE = os.path.join(ROOT, "build", "harness", "native", "_fastlaunch.abi3.so")
MODULE_NAME = "_fastlaunch.abi3.so"


def native_module():
    """The built native counter's path, or None where the build has none."""
    path = os.environ.get("WCP_FASTLAUNCH") or BUILT_MODULE
    return path if os.path.isfile(path) else None


def probe_dir(module=None):
    """A folder to put first on PYTHONPATH: the Python tree with `module` (default: the build's)
    in its package, removed at exit; the source tree itself where there is no module."""
    module = module or native_module()
    if module is None:
        return SOURCE_DIR
    folder = tempfile.mkdtemp(prefix="wcp-probe-")
    atexit.register(shutil.rmtree, folder, True)
    target = os.path.join(folder, "python")
    shutil.copytree(SOURCE_DIR, target, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(module, os.path.join(target, "_wcp_probe", MODULE_NAME))
    return target
