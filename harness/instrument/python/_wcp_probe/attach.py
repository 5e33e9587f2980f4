# Attaching to an imported `warp`: find its internals by what exists (not by version number) and
# install every hook module. Each step that fails is named in `missing` and the others still run
# (docs/instrumentation.md, "Warp versions"). Nothing here changes what Warp prints: the program's
# log level, `verbose` and `quiet` stay as the program set them, since a program that checks its
# own output (Warp's own test modules do) would fail otherwise. Load and native compile times come
# from the probe's own hooks (loads.py).
import os
import sys

from . import cuda_build, launches, levers, loads, options, processes
from .events import injected_fault


def attach(probe, warp):
    info = probe.info
    info["warp_dir"] = os.path.dirname(os.path.abspath(warp.__file__)) + os.sep
    config = getattr(warp, "config", None)
    info["warp_version"] = str(getattr(config, "version", "") or getattr(warp, "__version__", ""))
    ctx = sys.modules.get("warp._src.context")
    if ctx is not None:
        info["api"] = "warp._src"
    else:
        ctx = sys.modules.get("warp.context")
        info["api"] = "warp.context" if ctx is not None else None
    probe.warp, probe.ctx, probe.config = warp, ctx, config
    if ctx is None:
        probe.note_missing("Warp internals (neither warp._src.context nor warp.context found)")
    info["mp_child"] = processes.is_mp_child_by_argv()

    steps = []
    # Loads before launches: the launch wrappers write the loads they caused.
    for module in (options, loads, launches):
        try:
            steps.extend(module.install(probe, warp, ctx, config))
        except Exception as e:
            probe.fail(module.__name__.rsplit(".", 1)[-1], e)
    for step in steps:
        name = getattr(step, "__name__", "")
        if "attach" in probe.faults and name in ("hook_modules", "hook_loads", "hook_launches"):
            step = injected_fault
        try:
            step()
        except Exception as e:
            probe.fail(name.replace("hook_", "").replace("_", " ") or "hooks", e)
    processes.install(probe)
    # After the exit records' handler: atexit runs it first, so its records precede the exit record.
    try:
        cuda_build.install(probe, warp, ctx, config)
    except Exception as e:
        probe.fail("cuda build at exit", e)
    # Last: a lever's setting lands where the program's first line after `import warp` would.
    try:
        levers.install(probe, warp, ctx, config)
    except Exception as e:
        probe.fail("levers", e)
    probe.emit_attach()
