# warp-compile-probe's instrumentation, injected into the measured process by sitecustomize.py.
#
# It waits for `warp` to be imported, then records module creation and loads, option writes,
# cache clears and every kernel launch, as JSON lines in <WCP_EVENT_DIR>/events-<pid>.jsonl
# (docs/instrumentation.md is the protocol, docs/launch-record.md the launch sequence).
# Rule one: it never changes whether or how the application runs. Every hook swallows its own
# failures and names them in `missing`; the original Warp function always runs first, with the
# original arguments, and its result or exception is passed through unchanged; no threads;
# nothing is printed. Rule two: nothing unbounded runs inside Warp's timed regions or on the
# launch path (loads.py says what a load hook may do).
#
# Modules: events (the writer and shared state), attach (finding Warp's internals), loads,
# launches with record (the launch record's encoder), options, processes. Only this file runs in
# a process that never imports warp.
import os
import sys


def install():
    event_dir = os.environ.get("WCP_EVENT_DIR")
    if not event_dir or not os.path.isdir(event_dir):
        return
    import importlib.abc

    from .events import Probe

    probe = Probe(event_dir, filter(None, os.environ.get("WCP_PROBE_FAULT", "").split(",")))

    class WarpImportWatcher(importlib.abc.MetaPathFinder):
        # Finds `warp` through the other finders, then wraps its loader so that the probe
        # attaches right after warp's own __init__ ran, before the application sees the module.
        def find_spec(self, name, path=None, target=None):
            if name != "warp":
                return None
            spec = None
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                try:
                    spec = finder.find_spec(name, path, target)
                except Exception:
                    spec = None
                if spec is not None:
                    break
            if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
                return spec
            original_exec = spec.loader.exec_module

            def exec_module(module):
                original_exec(module)
                try:
                    sys.meta_path.remove(self)
                except ValueError:
                    pass
                try:
                    from .attach import attach

                    attach(probe, module)
                except Exception as e:
                    probe.fail("attach", e)
                    probe.emit_attach()

            try:
                spec.loader.exec_module = exec_module
            except Exception:
                pass
            return spec

    sys.meta_path.insert(0, WarpImportWatcher())
