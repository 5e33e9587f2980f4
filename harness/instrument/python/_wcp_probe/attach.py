# Attaching to an imported `warp`: find its internals by what exists (not by version number),
# switch its module timers on, and install every hook module. Each step that fails is named in
# `missing` and the others still run (docs/instrumentation.md, "Warp versions").
import os
import sys

from . import launches, loads, options, processes
from .events import injected_fault


def enable_timers(probe, warp, config):
    # Module load and native compile timers, which the tool reads from Warp's log. Recent Warp
    # logs them at LOG_DEBUG (`verbose` is gone); older Warp prints them with `verbose`.
    if config is None:
        probe.note_missing("compile timers (warp.config not found)")
    elif hasattr(config, "log_level") and hasattr(warp, "LOG_DEBUG"):
        if config.log_level > warp.LOG_DEBUG:
            config.log_level = warp.LOG_DEBUG
        probe.info["timers"] = "log_level"
    elif hasattr(config, "verbose"):
        config.verbose = True
        probe.info["timers"] = "verbose"
    else:
        probe.note_missing("compile timers (no log_level or verbose in warp.config)")


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

    steps = [lambda: enable_timers(probe, warp, config)]
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
            probe.fail(name.replace("hook_", "").replace("_", " ") or "compile timers", e)
    processes.install(probe)
    probe.emit_attach()
