"""warp-compile-probe from a wheel: the native CLI that measures and gates NVIDIA Warp JIT compile cost.

The wheel installs the binary itself as a script (``<prefix>/bin/warp-compile-probe``) and its
CMake package under ``<prefix>/lib/cmake/WarpCompileProbe``; this package only finds the binary,
for ``python -m warp_compile_probe`` where scripts are not on PATH (``uv run``, ``pipx``).
"""

import importlib.metadata
import os
import sysconfig

DISTRIBUTION = "warp-compile-probe"
EXECUTABLE = "warp-compile-probe"

try:
    __version__ = importlib.metadata.version(DISTRIBUTION)
except importlib.metadata.PackageNotFoundError:  # imported from the source tree
    __version__ = "0+unknown"


def _is_executable(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


def executable():
    """The path of the installed warp-compile-probe binary.

    Its installed location is read from the wheel's record, which is right for every install
    scheme (a venv, ``--user``, ``--prefix``, ``--target``); the scripts folder of this
    interpreter is the fallback. Raises FileNotFoundError when neither has it.
    """
    try:
        files = importlib.metadata.distribution(DISTRIBUTION).files or []
    except importlib.metadata.PackageNotFoundError:
        files = []
    for file in files:
        if file.name == EXECUTABLE:
            path = os.path.realpath(file.locate())
            if _is_executable(path):
                return path
    fallback = os.path.join(sysconfig.get_path("scripts"), EXECUTABLE)
    if _is_executable(fallback):
        return fallback
    raise FileNotFoundError(
        f"the {EXECUTABLE} binary is not installed beside this package (looked in the {DISTRIBUTION} "
        f"wheel's record and in {os.path.dirname(fallback)}); reinstall the wheel"
    )
