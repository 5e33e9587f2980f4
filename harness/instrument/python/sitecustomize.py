# Injected by warp-compile-probe into the process it measures (via PYTHONPATH).
#
# It waits for `warp` to be imported, then records module loads and kernel launches to the
# JSON-lines file named by WCP_EVENT_FILE. Rule one: it must never change whether or how the
# application runs. Every hook is wrapped so that a failure inside the probe is swallowed and
# noted ("missing"), and the original Warp function always runs with the original arguments.
import os as _os
import sys as _sys


def _wcp_install():
    event_path = _os.environ.get("WCP_EVENT_FILE")
    if not event_path:
        return
    import atexit
    import importlib.abc
    import json
    import threading
    import time

    probe_file = _os.path.abspath(__file__)
    state = {"file": None, "missing": [], "warp_dir": None, "t0": time.perf_counter()}
    write_lock = threading.Lock()
    runs = []  # run-length encoded launches: [key, count]

    def emit(record):
        try:
            line = json.dumps(record, default=str) + "\n"
            with write_lock:
                if state["file"] is None:
                    state["file"] = open(event_path, "a", encoding="utf-8")
                state["file"].write(line)
                state["file"].flush()
        except Exception:
            pass

    def missing(what):
        state["missing"].append(what)

    def user_frame(depth=2):
        # The first frame outside Warp and outside this probe: where the user's code asked.
        try:
            frame = _sys._getframe(depth)
            warp_dir = state["warp_dir"]
            while frame is not None:
                filename = frame.f_code.co_filename
                if filename != probe_file and not (warp_dir and filename.startswith(warp_dir)):
                    return {"file": filename, "line": frame.f_lineno, "function": frame.f_code.co_name}
                frame = frame.f_back
        except Exception:
            pass
        return None

    def attach(warp):
        state["warp_dir"] = _os.path.dirname(_os.path.abspath(warp.__file__)) + _os.sep
        config = getattr(warp, "config", None)
        enable_timers(warp, config)
        context = _sys.modules.get("warp._src.context") or _sys.modules.get("warp.context")
        module_class = getattr(context, "Module", None) if context is not None else None
        if module_class is not None and hasattr(module_class, "load"):
            hook_module_load(warp, config, module_class)
        else:
            missing("module loads (warp Module.load not found)")
        hook_launches(warp)
        hook_cache_clears(warp)
        hook_tape(warp)
        emit({"type": "attach", "warp_version": str(getattr(config, "version", "")), "pid": _os.getpid()})
        atexit.register(finish, warp, config, context)

    def enable_timers(warp, config):
        # Module load and native compile timers. Recent Warp logs them at LOG_DEBUG (and
        # deprecates `verbose`); older Warp prints them when `config.verbose` is set.
        try:
            if config is None:
                missing("compile timers (warp.config not found)")
            elif hasattr(config, "log_level") and hasattr(warp, "LOG_DEBUG"):
                if config.log_level > warp.LOG_DEBUG:
                    config.log_level = warp.LOG_DEBUG
            elif "verbose" in vars(config):
                config.verbose = True
            else:
                missing("compile timers (no log_level or verbose in warp.config)")
        except Exception:
            missing("compile timers")

    def describe_module(warp, config, module, result):
        kernels = []
        try:
            live = getattr(module, "_live_kernels", None)
            members = list(live) if live is not None else list(module.kernels.values())
            for kernel in members:
                code = getattr(getattr(kernel, "func", None), "__code__", None)
                overloads = getattr(kernel, "overloads", None) or {}
                kernels.append(
                    {
                        "key": str(getattr(kernel, "key", "?")),
                        "file": code.co_filename if code else "",
                        "line": code.co_firstlineno if code else 0,
                        "overloads": sorted(str(key) for key in overloads),
                    }
                )
        except Exception:
            pass
        options = {}
        try:
            options = {str(k): repr(v) for k, v in module.options.items()}
        except Exception:
            pass
        config_values = {}
        for name in ("enable_backward", "max_unroll", "lineinfo", "deterministic", "deterministic_max_records",
                     "compile_time_trace", "cache_kernels", "kernel_cache_dir", "use_precompiled_headers", "mode"):
            if config is not None and hasattr(config, name):
                config_values[name] = repr(getattr(config, name))
        module_hash = getattr(result, "module_hash", None) if result is not None else None
        return {
            "name": str(getattr(module, "name", "?")),
            "full_hash": module_hash.hex() if isinstance(module_hash, (bytes, bytearray)) else "",
            "device": str(getattr(result, "device", "")) if result is not None else "",
            "block_dim": getattr(result, "block_dim", None) if result is not None else None,
            "kernels": kernels,
            "options": options,
            "config": config_values,
            "trigger": user_frame(3),
            "t": time.perf_counter() - state["t0"],
            "pid": _os.getpid(),
        }

    def hook_module_load(warp, config, module_class):
        original_load = module_class.load

        def load(self, *args, **kwargs):
            try:
                result = original_load(self, *args, **kwargs)
            except BaseException:
                try:
                    record = describe_module(warp, config, self, None)
                    record["type"] = "load_error"
                    emit(record)
                except Exception:
                    pass
                raise
            # Warp calls load() on every launch; only a new executable is a load worth noting.
            try:
                if result is not None and not getattr(result, "_wcp_seen", False):
                    result._wcp_seen = True
                    record = describe_module(warp, config, self, result)
                    record["type"] = "load"
                    emit(record)
            except Exception:
                pass
            return result

        try:
            load.__wrapped__ = original_load
            load.__doc__ = original_load.__doc__
            module_class.load = load
        except Exception:
            missing("module loads")

    def hook_launches(warp):
        def wrap(name, tiled):
            original = getattr(warp, name, None)
            if original is None:
                missing("launches via warp." + name)
                return
            append = runs.append
            last = [None]

            def key_of(args, kwargs):
                # wp.launch(kernel, dim, inputs, outputs, adj_inputs, adj_outputs, device, stream,
                # adjoint, record_tape, record_cmd, max_blocks, block_dim): most callers pass
                # the first one or two positionally and the rest by keyword.
                n = len(args)
                get = kwargs.get
                if n < 3:
                    kernel = args[0] if n else get("kernel")
                    dim = args[1] if n == 2 else get("dim")
                    inputs = get("inputs", ())
                    outputs = get("outputs", ())
                    call = (kernel, dim, get("device"), get("adjoint", False), get("block_dim"))
                else:
                    inputs = args[2]
                    outputs = args[3] if n > 3 else get("outputs", ())
                    call = (args[0], args[1], args[6] if n > 6 else get("device"),
                            args[8] if n > 8 else get("adjoint", False), args[12] if n > 12 else get("block_dim"))
                types = [x.dtype if hasattr(x, "dtype") else None for x in inputs]
                if outputs:
                    types += [x.dtype if hasattr(x, "dtype") else None for x in outputs]
                return call, types

            def launch(*args, **kwargs):
                try:
                    call, types = key_of(args, kwargs)
                    previous = last[0]
                    # Consecutive identical launches become one record with a count, so a
                    # million-launch loop costs one record.
                    if previous is not None and previous[0] == call and previous[1] == types:
                        runs[-1][1] += 1
                    else:
                        record = (call, types, tiled)
                        last[0] = record
                        append([record, 1])
                except Exception:
                    pass
                return original(*args, **kwargs)

            launch.__wrapped__ = original
            launch.__doc__ = original.__doc__
            setattr(warp, name, launch)

        wrap("launch", False)
        wrap("launch_tiled", True)

    def hook_cache_clears(warp):
        build = _sys.modules.get("warp._src.build") or _sys.modules.get("warp.build")
        for owner in (warp, build):
            for name in ("clear_kernel_cache", "clear_lto_cache"):
                original = getattr(owner, name, None) if owner is not None else None
                if original is None or getattr(original, "_wcp_hook", False):
                    continue

                def make(original, name):
                    def clear(*args, **kwargs):
                        emit({"type": "cache_clear", "what": name, "trigger": user_frame(2), "pid": _os.getpid()})
                        return original(*args, **kwargs)

                    clear._wcp_hook = True
                    clear.__wrapped__ = original
                    return clear

                try:
                    setattr(owner, name, make(original, name))
                except Exception:
                    pass

    def hook_tape(warp):
        tape_class = getattr(warp, "Tape", None)
        original = getattr(tape_class, "backward", None)
        if original is None:
            missing("tape backward")
            return

        def backward(self, *args, **kwargs):
            try:
                keys = sorted({str(getattr(item[0], "key", "?")) for item in getattr(self, "launches", []) if isinstance(item, (list, tuple)) and item})
                emit({"type": "tape_backward", "kernels": keys, "pid": _os.getpid()})
            except Exception:
                pass
            return original(self, *args, **kwargs)

        try:
            tape_class.backward = backward
        except Exception:
            missing("tape backward")

    def dtype_name(dtype):
        if dtype is None:
            return ""
        return str(getattr(dtype, "__name__", dtype))

    def finish(warp, config, context):
        try:
            get_device = getattr(warp, "get_device", None)
            default_device = None
            launches = []
            for (call, types, tiled), count in runs:
                kernel, dim, device, adjoint, block_dim = call
                if isinstance(dim, list):
                    dim = tuple(dim)
                if device is None:
                    if default_device is None and get_device is not None:
                        default_device = str(get_device())
                    device_name = default_device or ""
                else:
                    device_name = str(device)
                module = getattr(kernel, "module", None)
                launches.append(
                    {
                        "kernel": str(getattr(kernel, "key", kernel)),
                        "module": str(getattr(module, "name", "")),
                        "dim": list(dim) if isinstance(dim, tuple) else [dim],
                        "device": device_name,
                        "dtypes": [dtype_name(t) for t in types],
                        "block_dim": block_dim if isinstance(block_dim, int) else 0,
                        "adjoint": bool(adjoint),
                        "tiled": tiled,
                        "count": count,
                    }
                )
            runtime = getattr(context, "runtime", None) if context is not None else None
            toolkit = getattr(runtime, "toolkit_version", None) if runtime is not None else None
            emit(
                {
                    "type": "exit",
                    "pid": _os.getpid(),
                    "launches": launches,
                    "missing": state["missing"],
                    "kernel_cache_dir": str(getattr(config, "kernel_cache_dir", "")),
                    "cache_kernels": bool(getattr(config, "cache_kernels", True)),
                    "use_precompiled_headers": getattr(config, "use_precompiled_headers", None),
                    "cuda_toolkit": ".".join(str(p) for p in toolkit) if isinstance(toolkit, tuple) else "",
                }
            )
        except Exception:
            pass
        try:
            if state["file"] is not None:
                state["file"].close()
        except Exception:
            pass

    class WarpImportWatcher(importlib.abc.MetaPathFinder):
        # Finds `warp` through the other finders, then wraps its loader so that we attach
        # right after warp's own __init__ ran, before the application sees the module.
        def find_spec(self, name, path=None, target=None):
            if name != "warp":
                return None
            spec = None
            for finder in _sys.meta_path:
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
                    _sys.meta_path.remove(self)
                except ValueError:
                    pass
                try:
                    attach(module)
                except Exception:
                    missing("attach")

            try:
                spec.loader.exec_module = exec_module
            except Exception:
                missing("import hook")
            return spec

    _sys.meta_path.insert(0, WarpImportWatcher())


def _wcp_chain_user_sitecustomize():
    # We took the name `sitecustomize`; the environment may have had its own. Load it as
    # Python would have, including Python's own behaviour when it raises.
    here = _os.path.dirname(_os.path.abspath(__file__))
    this_module = _sys.modules.get("sitecustomize")
    saved_path = list(_sys.path)
    try:
        _sys.path[:] = [p for p in _sys.path if _os.path.abspath(p or ".") != here]
        del _sys.modules["sitecustomize"]
        import importlib.util

        if importlib.util.find_spec("sitecustomize") is not None:
            try:
                import sitecustomize  # noqa: F401
            except Exception as error:
                print(f"Error in sitecustomize; set PYTHONVERBOSE for traceback:\n{type(error).__name__}: {error}",
                      file=_sys.stderr)
    except Exception:
        pass
    finally:
        _sys.path[:] = saved_path
        user_module = _sys.modules.get("sitecustomize")
        if user_module is None and this_module is not None:
            _sys.modules["sitecustomize"] = this_module


try:
    _wcp_install()
except Exception:
    pass
_wcp_chain_user_sitecustomize()
