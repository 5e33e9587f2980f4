# Module loads (docs/instrumentation.md: load, load_error).
#
# The rule this file lives by: a hook that runs inside Warp's timed load (Warp 1.19 times from
# before Module._compile to after the ModuleExec is built) takes only what must be read at that
# moment: the clock, the module, device, block_dim and hash, the kernels (held until then), the
# options and config values as objects, the stack as (code, line) pairs, and pytest's current-test
# variable as its raw value (tests.py: one dict lookup; which test it names is worked out in
# `drain`, from it or from that stack). It takes no lock,
# formats no string and writes nothing, so loads on several threads run as they would without
# the probe. Everything else (kernel descriptions, reprs, the stack as text, the JSON line, the
# launch snapshot) is done by `drain`, which runs after the load returned: right after the
# launch, force_load or load_module that caused it, or at the latest at exit. Ownership of the
# kernels' files (which installed distribution they ship in) is not looked up here at all: the
# tool does it from the file paths after the run (harness/measure/distributions.cpp).
#
# Each load carries `hook_ms`, the probe's own time inside Warp's timer for that load (its
# thread's CPU time in the hooks), so the cost of this rule is measured on every run rather
# than assumed.
#
# Each load also carries its CPU clock (issue 49): `cpu_ms`, the loading thread's CPU time
# across the same span as the wall clock, less `hook_ms` (Warp's code generation and its
# in-process compilers, clang or NVRTC, run on that thread), and `children_cpu_s`, the
# process's reaped-children CPU counter (os.times) at the span's two ends, for a build that
# waits on a child process. Both are read at the boundaries the hooks already have, beside the
# reads of the hook's own cost; `cpu_ms` is null where the platform has no per-thread clock.
#
# Native compile time comes from wrapping Warp's build functions (`hook_builds`), not from Warp's
# "Compile x86 took" timers: those print only at LOG_DEBUG (or with `verbose` on older Warp), and
# the probe leaves the program's log level alone (attach.py says why).
import collections
import operator
import os
import sys
import threading
import time
import weakref

from .events import (CONFIG_NAMES, EXTRA_CONFIG_NAMES, capture_stack, environ_reader, environ_text, injected_fault,
                     wrap_like)
from .references import MAX_KERNELS, describe_functions, kernel_arguments, kernel_constants
from .tests import pytest_reader, test_of, worker_id

# Frames of a thread pool's worker: a load there was asked for by the thread that submitted it.
WORKER_FILES = (os.path.join(os.sep + "concurrent", "futures", "thread.py"), os.sep + "threading.py")

# What the hooks read inside Warp's timer. As module globals they cost a hook one specialised
# lookup each, as closure variables did; an attribute of an object costs more, so the hooks below
# that run inside the timer are functions whose state is bound to their own variables when they
# are made (the objects that make them own that state).
monotonic = time.monotonic
# The hook's own cost is the CPU time of its thread in the probe's code: on a thread that
# waits for the GIL while other threads run (a parallel preload), wall time would count them.
cpu_time = getattr(time, "thread_time", time.process_time)
# The build's CPU clock needs the thread's own: the process's would count other threads.
thread_clock = getattr(time, "thread_time", None)
get_ident = threading.get_ident
native_id = getattr(threading, "get_native_id", get_ident)
getframe = sys._getframe


class LoadCapture:
    """What a load hook took inside Warp's timer; turned into a record after the load."""

    __slots__ = ("module", "name", "device", "block_dim", "hash", "compiled", "t_start", "t_end", "kernels",
                 "options", "config", "cache_env", "stack", "origin", "thread", "hook_s", "error", "native_s",
                 "native_builds", "built_pch", "hasher", "pytest_test", "cpu_start", "cpu_s", "children")

    def __init__(self, module, t_start):
        self.module = module
        self.t_start = t_start
        self.t_end = None
        self.compiled = None
        self.hook_s = 0.0
        self.error = None
        self.native_s = 0.0
        self.native_builds = 0
        self.built_pch = False
        self.hasher = None
        self.pytest_test = None
        self.cpu_start = None  # the loading thread's CPU clock where the span starts
        self.cpu_s = None  # the thread's CPU seconds across the span, less hook_s
        self.children = None  # (start, end) of the process's reaped-children CPU seconds


def children_cpu():
    """The CPU seconds of this process's reaped children so far (user + system)."""
    times = os.times()
    return times[2] + times[3]


def build_cpu_s(item, cpu_end):
    # The span's CPU less the probe's own share of it; never below 0 (clock granularity).
    if item.cpu_start is None or cpu_end is None:
        return None
    return max(0.0, cpu_end - item.cpu_start - item.hook_s)


class KernelSerials:
    """A serial per kernel object, so two loads can tell one kernel whose content changed from a
    kernel re-created from the same line (a closure)."""

    def __init__(self):
        self.known = {}  # id -> (weak reference, serial)
        self.last = 0  # counts on in a fork child, where only `known` is cleared

    def serial_of(self, kernel):
        entry = self.known.get(id(kernel))
        if entry is not None and entry[0]() is kernel:
            return entry[1]
        self.last += 1
        try:
            self.known[id(kernel)] = (weakref.ref(kernel), self.last)
        except TypeError:
            return None
        return self.last


class LoadCapturer:
    """Takes a load's LoadCapture inside Warp's timer: references and values only (the top of
    this file says why)."""

    def __init__(self, config):
        self.config = config
        self.origins = {}  # ident of a thread inside force_load/load_module -> its stack (for its pool's workers)
        # Environment values inside the timer are one dict lookup each, decoded in `drain`
        # (events.environ_reader): the cache variables, and PYTEST_CURRENT_TEST (tests.py).
        self.pytest = pytest_reader()
        self.cuda_cache = environ_reader("CUDA_CACHE_DISABLE")
        self.cache_path = environ_reader("WARP_CACHE_PATH")
        # warp.config's values in one C call (the names are read once, here): on a parallel preload
        # each microsecond a hook holds the GIL inside Warp's timer is paid again by every thread
        # waiting for it, so the timed part is kept to references and this one read.
        self.config_names = CONFIG_NAMES + EXTRA_CONFIG_NAMES
        self.present = tuple(name for name in self.config_names if hasattr(config, name))
        self.read_config = operator.attrgetter(*self.present) if self.present else None

    def config_values_slowly(self):
        # For a name deleted since the names were read.
        config = self.config
        names = tuple(name for name in self.config_names if hasattr(config, name))
        return names, tuple(getattr(config, name) for name in names)

    def make_capture(self):
        """The function the load hooks call inside Warp's timer."""
        config, present, read_config, origins = self.config, self.present, self.read_config, self.origins
        read_environ, pytest_key = self.pytest
        read_cuda_cache, cuda_cache_key = self.cuda_cache
        read_cache_path, cache_path_key = self.cache_path
        config_values_slowly = self.config_values_slowly

        def capture(module, t_start, frame, device, block_dim, module_hash):
            # Inside Warp's timer: references and values only (see the top of this file). The
            # kernels are held as they are until `drain`, which describes them.
            item = LoadCapture(module, t_start)
            item.name = getattr(module, "name", "?")
            item.device = device
            item.block_dim = block_dim
            item.hash = module_hash
            live = getattr(module, "_live_kernels", None)
            item.kernels = tuple(live if live is not None else getattr(module, "kernels", {}).values())
            try:
                item.options = dict(module.options)
            except Exception:
                item.options = {}
            if read_config is not None:
                try:
                    values = read_config(config)
                    item.config = present, values if len(present) > 1 else (values,)
                except Exception:
                    item.config = config_values_slowly()
            else:
                item.config = ((), ())
            item.cache_env = (read_cuda_cache(cuda_cache_key), read_cache_path(cache_path_key))
            item.pytest_test = read_environ(pytest_key)
            item.thread = native_id()
            item.origin = None
            # The hasher this load's hash came from (Warp keeps one per block_dim): a reference now,
            # its function hashes are read in `drain`.
            hashers = getattr(module, "hashers", None)
            item.hasher = hashers.get(block_dim) if isinstance(hashers, dict) else None
            if origins and get_ident() not in origins:
                # Maybe a pool worker of a force_load: the stack of the call that submitted the work
                # is kept beside the worker's own; `drain` decides which names the application.
                item.stack = capture_stack(frame, WORKER_FILES)
                item.origin = next(iter(list(origins.values())), None)
            else:
                item.stack = capture_stack(frame)
            return item

        return capture


class NativeBuilds:
    """Native compile times: Warp's build functions wrapped (`hook_builds`), each build's time
    added to its thread's current load."""

    def __init__(self, probe, ctx):
        self.probe = probe
        self.ctx = ctx
        # Native builds a thread ran since its current load's timer started: ident -> [seconds, builds,
        # generated the precompiled header, the probe's own CPU seconds]. Reset when a load starts.
        self.by_thread = {}
        self.hooked = False  # Warp's build functions are wrapped and Warp calls them where wrapped
        self.pch_dirs = set()  # precompiled-header folders a CPU build already used: the first build on one makes it

    def take(self, item, thread):
        # The native builds this thread ran inside the load: they belong to it.
        entry = self.by_thread.pop(thread, None)
        if entry is not None:
            item.native_s += entry[0]
            item.native_builds += entry[1]
            item.built_pch = item.built_pch or entry[2]
            item.hook_s += entry[3]

    def ms_of(self, item):
        # Measured when the build hooks saw this load's builds; 0 for a load that built nothing
        # (from the cache); unknown when the hooks are off, or when a load compiled and no build
        # call was seen (Warp built it some way the hooks do not reach: never a made-up 0).
        if not self.hooked:
            return None
        if item.native_builds:
            return round(item.native_s * 1000.0, 4)
        return 0.0 if item.compiled is False else None

    def wrap(self, original, cpu):
        """The wrapper of one build function (`cpu`: build_cpu, whose precompiled header is noted)."""
        probe = self.probe
        native = self.by_thread
        pch_dirs = self.pch_dirs

        def build(*args, **kwargs):
            t_start = monotonic()
            try:
                return original(*args, **kwargs)
            finally:
                # Inside Warp's load timer: a clock read, a dict entry and, for a CPU build, a set
                # lookup. Warp's own result or exception passes through unchanged.
                spent = monotonic() - t_start
                cpu_start = cpu_time()
                try:
                    tid = get_ident()
                    entry = native.get(tid)
                    if entry is None:
                        entry = native[tid] = [0.0, 0, False, 0.0]
                    entry[0] += spent
                    entry[1] += 1
                    if cpu and kwargs.get("use_precompiled_headers"):
                        pch_dir = kwargs.get("pch_dir")
                        if pch_dir and pch_dir not in pch_dirs:
                            pch_dirs.add(pch_dir)
                            entry[2] = True
                    if "build" in probe.faults:
                        injected_fault()
                    entry[3] += cpu_time() - cpu_start
                except Exception as e:
                    native.pop(get_ident(), None)
                    probe.fail("native compile times", e)

        return build

    def hook_builds(self):
        # Warp looks its build functions up on its build module at call time
        # (`warp._src.build.build_cpu(...)` on 1.19, `warp.build.build_cpu(...)` before), so
        # replacing them there times every native compile. Checked against the code that calls
        # them: a Warp that imported them by name would not reach the wrappers.
        probe, ctx = self.probe, self.ctx
        module_class = getattr(ctx, "Module", None)
        caller = getattr(module_class, "_compile", None) or getattr(module_class, "compile", None)
        caller = getattr(caller, "__wrapped__", caller)  # hook_loads may have wrapped it already
        called = set(getattr(getattr(caller, "__code__", None), "co_names", ()))
        package = getattr(ctx, "__name__", "").rpartition(".")[0]
        build = sys.modules.get(package + ".build") if package else None
        hooked = []
        for name, cpu in (("build_cpu", True), ("build_cuda", False)):
            original = getattr(build, name, None)
            if callable(original) and name in called:
                setattr(build, name, wrap_like(self.wrap(original, cpu), original))
                hooked.append(name)
        if "build_cpu" not in hooked:
            probe.note_missing("native compile times (Warp's build_cpu is not called through %s.build)" % package)
        self.hooked = "build_cpu" in hooked
        probe.hooks.extend(hooked)


class LoadRecords:
    """Loads between their hooks (`pending`, `finished`) and their records, which `drain` writes
    after the load returned, outside every Warp timer."""

    def __init__(self, probe, warp, natives):
        self.probe = probe
        self.natives = natives
        self.pending = {}  # thread ident -> LoadCapture of a load that started and has no executable yet
        self.finished = collections.deque()  # captures waiting for `drain`; appended by any thread
        self.serials = KernelSerials()
        types_module = getattr(warp, "types", None)
        self.is_value = getattr(types_module, "is_value", None)

    def clear(self):
        # A fork child starts with none of its parent's loads.
        self.pending.clear()
        self.finished.clear()
        self.serials.known.clear()

    def stack_of(self, item):
        # A pool worker's stack continues with its submitter's where no frame of its own is the
        # application's.
        stack = item.stack
        if item.origin and not any(not self.probe.in_warp(code.co_filename) for code, _ in stack):
            stack = stack + list(item.origin)
        return stack

    def describe_kernels(self, members, module_options):
        probe, serial_of, is_value = self.probe, self.serials.serial_of, self.is_value
        kernels = []
        for index, kernel in enumerate(members):
            try:
                func = getattr(kernel, "func", None)
                code = getattr(func, "__code__", None)
                overloads = getattr(kernel, "overloads", None) or {}
                backward = (getattr(kernel, "options", None) or {}).get("enable_backward")
                if backward is None:
                    backward = module_options.get("enable_backward")
                content = getattr(kernel, "hash", None)
                noted = (getattr(probe, "kernel_closures", None) or {}).get(id(kernel))
                closure = noted[1] if noted is not None and noted[0]() is kernel else None
                kernels.append({"key": str(getattr(kernel, "key", "?")),
                                "file": code.co_filename if code else "",
                                "line": code.co_firstlineno if code else 0,
                                "overloads": sorted(str(key) for key in overloads),
                                "adjoint": bool(backward) if backward is not None else None,
                                "qualname": str(getattr(func, "__qualname__", "") or ""),
                                "python_module": str(getattr(func, "__module__", None) or ""),
                                "hash": content.hex()[:8] if isinstance(content, (bytes, bytearray)) else "",
                                "closure": closure,
                                "object": serial_of(kernel),
                                "args": kernel_arguments(kernel),
                                "constants": kernel_constants(kernel, is_value) if index < MAX_KERNELS else None})
            except Exception:
                pass
        kernels.sort(key=lambda k: (k["key"], k["file"], k["line"]))
        return kernels

    def test_field(self, item, stack):
        try:
            return test_of(item.pytest_test, stack, worker_id())
        except Exception as e:
            self.probe.fail("test attribution", e)
            return None

    def record_of(self, item):
        full_stack = self.stack_of(item)
        stack, trigger = self.probe.describe_stack(full_stack)
        values = dict(zip(*item.config))
        block_dim = item.block_dim
        return {"t_start": item.t_start, "t_end": item.t_end if item.t_end is not None else item.t_start,
                "name": str(item.name), "device": "" if item.device is None else str(item.device),
                "block_dim": block_dim if isinstance(block_dim, int) and not isinstance(block_dim, bool) else None,
                "full_hash": item.hash.hex() if isinstance(item.hash, (bytes, bytearray)) else "",
                "compiled": item.compiled, "kernels": self.describe_kernels(item.kernels, item.options),
                "options": {str(k): repr(v) for k, v in item.options.items()},
                "config": {name: repr(value) for name, value in values.items()},
                "cache": {"kernel_cache_dir": str(values.get("kernel_cache_dir")),
                          "cache_kernels": bool(values.get("cache_kernels", True)),
                          "CUDA_CACHE_DISABLE": environ_text(item.cache_env[0]),
                          "WARP_CACHE_PATH": environ_text(item.cache_env[1])},
                "stack": stack, "trigger": trigger, "thread": item.thread,
                "hook_ms": round(item.hook_s * 1000.0, 4), "native_ms": self.natives.ms_of(item),
                "cpu_ms": round(item.cpu_s * 1000.0, 4) if item.cpu_s is not None else None,
                "children_cpu_s": list(item.children) if item.children is not None else None,
                "native_builds": item.native_builds, "built_pch": item.built_pch,
                "functions": describe_functions(item.hasher, self.is_value) if item.hasher is not None else None,
                "test": self.test_field(item, full_stack)}

    def drain(self):
        """Writes the records of finished loads (outside any Warp timer), then a snapshot."""
        probe, finished = self.probe, self.finished
        wrote = False
        while finished:
            try:
                item = finished.popleft()
            except IndexError:
                break
            try:
                fields = self.record_of(item)
                if item.error is not None:
                    fields["error"] = ("%s: %s" % (type(item.error).__name__, item.error)).replace("\n", " ")[:2000]
                probe.emit("load_error" if item.error is not None else "load", fields)
                wrote = True
            except Exception as e:
                probe.fail("module loads", e)
        if wrote:
            probe.snapshot()

    def abandon(self, thread, error=None):
        # A load that started and produced no executable: it failed (outside Warp's timer now).
        item = self.pending.pop(thread, None)
        if item is None:
            return
        self.natives.take(item, thread)
        item.error = error if error is not None else RuntimeError(
            "the load did not complete (no module executable was created)")
        self.finished.append(item)

    def fail_pending(self, error):
        """For a launch that raised: its thread's unfinished load failed with `error`."""
        if self.pending:
            self.abandon(get_ident(), error)
        if self.finished:
            self.drain()

    def finish_all(self):
        for thread in list(self.pending):
            self.abandon(thread)
        self.drain()


class ExecLoadHooks:
    """Warp 1.19: Module._compile + ModuleExec.__init__.

    Module.load() runs on every launch and returns early when loaded, so it is not wrapped. A
    real load calls Module._compile() (cached or not) and then constructs a ModuleExec, both from
    Module.load's own frame, inside Warp's load timer."""

    def __init__(self, probe, records, natives, capture, load_code):
        self.probe = probe
        self.records = records
        self.natives = natives
        self.capture = capture
        self.load_code = load_code

    def install(self, module_class, exec_class):
        original_compile = module_class._compile
        original_init = exec_class.__init__
        module_class._compile = wrap_like(self.compile_hook(original_compile), original_compile)
        exec_class.__init__ = wrap_like(self.init_hook(original_init), original_init)
        self.probe.hooks.extend(["Module._compile", "ModuleExec.__init__"])

    def compile_hook(self, original_compile):
        """Module._compile's wrapper: the load's span and capture start here."""
        probe, load_code, capture = self.probe, self.load_code, self.capture
        pending, abandon = self.records.pending, self.records.abandon
        native = self.natives.by_thread

        def _compile(module, *args, **kwargs):
            frame = getframe(1)
            if frame.f_code is not load_code:
                return original_compile(module, *args, **kwargs)
            t_start = monotonic()
            cpu_start = cpu_time()
            tid = get_ident()
            item = None
            try:
                children_start = children_cpu()
                if tid in pending:
                    abandon(tid)
                if tid in native:
                    del native[tid]  # builds outside any load (an AOT build) are not this load's
                local = frame.f_locals
                item = pending[tid] = capture(module, t_start, frame, local.get("device"),
                                              local.get("active_block_dim"), local.get("module_hash"))
                item.cpu_start = cpu_start if thread_clock is not None else None
                item.children = (children_start, None)
                item.hook_s = cpu_time() - cpu_start
            except Exception as e:
                probe.fail("module loads", e)
            try:
                result = original_compile(module, *args, **kwargs)
            except BaseException as error:
                abandon(tid, error)
                raise
            if item is not None and isinstance(result, bool):
                item.compiled = result
            return result

        return _compile

    def init_hook(self, original_init):
        """ModuleExec.__init__'s wrapper: the load's span ends where its executable exists."""
        probe, load_code, capture = self.probe, self.load_code, self.capture
        pending, finished = self.records.pending, self.records.finished
        take_native = self.natives.take

        def __init__(module_exec, *args, **kwargs):
            original_init(module_exec, *args, **kwargs)
            t_hook = monotonic()
            cpu_start = cpu_time()
            try:
                children_end = children_cpu()
                frame = getframe(1)
                if frame.f_code is load_code:
                    local = frame.f_locals
                    module = local.get("self")
                    item = pending.pop(get_ident(), None)
                    if item is None or item.module is not module:
                        # Loaded from a given binary_path: no _compile ran.
                        item = capture(module, t_hook, frame, None, local.get("active_block_dim"), None)
                        item.compiled = False if local.get("binary_path") else None
                    item.module = None  # no strong reference beyond the load
                    if item.hasher is None:
                        hashers = getattr(module, "hashers", None)
                        item.hasher = hashers.get(item.block_dim) if isinstance(hashers, dict) else None
                    item.device = getattr(module_exec, "device", item.device)
                    item.block_dim = getattr(module_exec, "block_dim", item.block_dim)
                    item.hash = getattr(module_exec, "module_hash", item.hash)
                    item.t_end = t_hook
                    take_native(item, get_ident())
                    if thread_clock is not None:
                        item.cpu_s = build_cpu_s(item, cpu_start)
                    if item.children is not None:
                        item.children = (item.children[0], children_end)
                    item.hook_s += cpu_time() - cpu_start
                    finished.append(item)
            except Exception as e:
                probe.fail("module loads", e)

        return __init__


class LoadWrapperHooks:
    """Older Warp: Module.load wrapped.

    Warp calls Module.load on every launch, so this costs a Python call per launch; only a new
    executable is a load worth recording. Warp's timer runs inside the original load: only the
    compile counter runs inside it."""

    def __init__(self, probe, records, natives, capture, module_class, original_load, compile_name):
        self.probe = probe
        self.records = records
        self.natives = natives
        self.capture = capture
        self.module_class = module_class
        self.original_load = original_load
        self.compile_name = compile_name
        self.compiles = 0  # calls of Module.compile (or _compile) so far
        self.hook_s = 0.0  # the compile counter's own CPU seconds so far
        self.seen = weakref.WeakSet()  # executables already recorded that cannot take the marker
        self.timer_starts = {}  # ident -> where Module.load's timer started (see identifier_hook)

    def clear(self):
        self.timer_starts.clear()

    def install(self):
        probe, module_class, compile_name = self.probe, self.module_class, self.compile_name
        if compile_name is not None:
            original_compile = getattr(module_class, compile_name)
            setattr(module_class, compile_name, wrap_like(self.compile_hook(original_compile), original_compile))
            probe.hooks.append("Module." + compile_name)
        # Warp's load timer starts right after Module.load asks for the module's identifier (the
        # hash is computed before it, outside the timer), so the load's span starts there too and
        # leaves the hashing out, as Warp's own "took N ms" does. Only real loads get that far.
        load_code = getattr(self.original_load, "__code__", None)
        original_identifier = getattr(module_class, "get_module_identifier", None)
        if load_code is not None and callable(original_identifier):
            module_class.get_module_identifier = wrap_like(self.identifier_hook(original_identifier, load_code),
                                                           original_identifier)
            probe.hooks.append("Module.get_module_identifier")
        module_class.load = wrap_like(self.load_hook(), self.original_load)
        probe.hooks.append("Module.load")

    def compile_hook(self, original_compile):
        """The compile counter, inside Warp's timer: it tells a compiled load from a cached one."""
        counts = self

        def compile_(module, *args, **kwargs):
            t0 = cpu_time()
            counts.compiles += 1
            counts.hook_s += cpu_time() - t0
            return original_compile(module, *args, **kwargs)

        return compile_

    def identifier_hook(self, original_identifier, load_code):
        probe, timer_starts, native = self.probe, self.timer_starts, self.natives.by_thread

        def get_module_identifier(module, *args, **kwargs):
            result = original_identifier(module, *args, **kwargs)
            try:
                if getframe(1).f_code is load_code:
                    tid = get_ident()
                    native.pop(tid, None)
                    timer_starts[tid] = (monotonic(), cpu_time() if thread_clock is not None else None,
                                         children_cpu())
            except Exception as e:
                probe.fail("module loads", e)
            return result

        return get_module_identifier

    def first_time(self, result):
        if getattr(result, "_wcp_seen", False):
            return False
        try:
            result._wcp_seen = True
            return True
        except Exception:
            pass
        try:
            if result in self.seen:
                return False
            self.seen.add(result)
            return True
        except TypeError as e:
            self.probe.note_missing("module loads (cannot mark module executables: %s)" % type(e).__name__)
            return False

    def load_hook(self):
        """Module.load's wrapper (every launch calls it): records a load that made a new executable."""
        probe, capture, original_load, compile_name = self.probe, self.capture, self.original_load, self.compile_name
        counts, first_time, timer_starts = self, self.first_time, self.timer_starts
        finished, drain, take_native = self.records.finished, self.records.drain, self.natives.take

        def load(module, *args, **kwargs):
            t_start = monotonic()
            before = counts.compiles
            hook_before = counts.hook_s
            try:
                result = original_load(module, *args, **kwargs)
            except BaseException as error:
                try:
                    device = args[0] if args else kwargs.get("device")
                    tid = get_ident()
                    item = capture(module, timer_starts.pop(tid, (t_start,))[0], getframe(1),
                                   probe.device_name(device), None, None)
                    item.t_end = monotonic()
                    take_native(item, tid)
                    item.error = error
                    finished.append(item)
                    drain()
                except Exception as e:
                    probe.fail("module loads", e)
                raise
            try:
                if result is not None and first_time(result):
                    t_end = monotonic()
                    cpu_end = cpu_time() if thread_clock is not None else None
                    children_end = children_cpu()
                    block_dim = getattr(result, "block_dim", None)
                    if block_dim is None:
                        block_dim = module.options.get("block_dim")
                    tid = get_ident()
                    # Without the identifier hook's start there is no CPU reading to pair with.
                    started = timer_starts.pop(tid, (t_start, None, None))
                    item = capture(module, started[0], getframe(1), getattr(result, "device", None),
                                   block_dim, getattr(result, "module_hash", None))
                    item.module = None
                    item.t_end = t_end
                    item.compiled = (counts.compiles > before) if compile_name else None
                    item.hook_s = counts.hook_s - hook_before
                    take_native(item, tid)
                    item.cpu_start = started[1]
                    item.cpu_s = build_cpu_s(item, cpu_end)
                    if started[2] is not None:
                        item.children = (started[2], children_end)
                    finished.append(item)
                    drain()
            except Exception as e:
                probe.fail("module loads", e)
            return result

        return load


class PreloadHooks:
    """force_load and load_module load modules outside any launch (on a thread pool with
    max_workers): their wrappers write the records when they return, and lend their stack to the
    pool's workers so each parallel load names where the application asked for it."""

    def __init__(self, probe, warp, ctx, records, origins):
        self.probe = probe
        self.warp = warp
        self.ctx = ctx
        self.records = records
        self.origins = origins

    def install(self):
        warp, ctx = self.warp, self.ctx
        for name in ("force_load", "load_module"):
            original = getattr(warp, name, None) or getattr(ctx, name, None)
            if original is None:
                continue
            self.probe.replace((warp, ctx), name, original, self.wrap(original))

    def wrap(self, original):
        origins, finished, drain = self.origins, self.records.finished, self.records.drain

        def preload(*args, **kwargs):
            tid = get_ident()
            outer = tid in origins
            try:
                if not outer:
                    origins[tid] = capture_stack(getframe(1))
            except Exception:
                pass
            try:
                return original(*args, **kwargs)
            finally:
                if not outer:
                    origins.pop(tid, None)
                if finished:
                    drain()

        return preload


class LoadHooks:
    """The parts of load recording, and the step that picks the hooks this Warp needs."""

    def __init__(self, probe, warp, ctx, config):
        self.probe = probe
        self.warp = warp
        self.ctx = ctx
        self.capturer = LoadCapturer(config)
        self.natives = NativeBuilds(probe, ctx)
        self.records = LoadRecords(probe, warp, self.natives)
        self.capture = injected_fault if "load" in probe.faults else self.capturer.make_capture()
        self.wrapper = None  # the older Warp's LoadWrapperHooks, once installed

    def clear(self):
        # In a fork child: nothing of the parent's loads in flight carries over.
        self.records.clear()
        self.capturer.origins.clear()
        self.natives.by_thread.clear()
        if self.wrapper is not None:
            self.wrapper.clear()

    def hook_loads(self):
        probe = self.probe
        module_class = getattr(self.ctx, "Module", None)
        exec_class = getattr(self.ctx, "ModuleExec", None)
        load = getattr(module_class, "load", None)
        compile_name = "_compile" if hasattr(module_class, "_compile") else (
            "compile" if hasattr(module_class, "compile") else None)
        load_code = getattr(load, "__code__", None)
        names = getattr(load_code, "co_names", ())
        if load is None:
            probe.note_missing("module loads (warp Module.load not found)")
            return
        parts = (probe, self.records, self.natives, self.capture)
        if (exec_class is not None and compile_name == "_compile" and "_compile" in names
                and "ModuleExec" in names and isinstance(exec_class.__dict__.get("__init__"), type(load))):
            ExecLoadHooks(*parts, load_code).install(module_class, exec_class)
        else:
            self.wrapper = LoadWrapperHooks(*parts, module_class, load, compile_name)
            self.wrapper.install()
        probe.info["timers"] = "hooks"
        PreloadHooks(probe, self.warp, self.ctx, self.records, self.capturer.origins).install()


def install(probe, warp, ctx, config):
    loads = LoadHooks(probe, warp, ctx, config)
    records = loads.records
    probe.drain = records.drain
    probe.fail_pending = records.fail_pending
    probe.finished_loads = records.finished
    probe.on_final.append(records.finish_all)
    probe.on_fork.append(loads.clear)
    return [loads.hook_loads, loads.natives.hook_builds]
