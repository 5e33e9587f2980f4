# Kernel launches: wp.launch, wp.launch_tiled, Launch.launch (record_cmd) and graph capture and
# replay, recorded as signatures plus the folded sequence of record.py (docs/launch-record.md).
#
# Launches are the hot path (a solver launches millions of times). An identical launch costs a
# field-by-field compare with the previous one and a counter increment under the lock: no
# container is allocated (allocations drive Python's garbage collector, which then costs more
# than the compare). Loads that a launch caused are written after it returns (loads.py).
import dis
import functools
import inspect
import sys
import threading
import time
import types
import weakref

from .events import injected_fault, is_probe_file, wrap_like
from .counter import PyCounter, PyState, dtypes_of, launch_dtypes, native_types
from .record import LaunchRecord

# The parameters of launch() in Warp 1.9 to 1.19: a wrapper with exactly these binds in C.
KNOWN_LAUNCH_PARAMETERS = ["kernel", "dim", "inputs", "outputs", "adj_inputs", "adj_outputs", "device", "stream",
                           "adjoint", "record_tape", "record_cmd", "max_blocks", "block_dim"]


def launch_dims(dim):
    """The one dim normaliser: a launch's dims as a tuple of ints, hashable and safe from a caller
    who changes its list later. From an int, a sequence or Warp's launch bounds (a ctypes
    structure: its shape up to its ndim); anything else as its string, no bounds as ()."""
    if isinstance(dim, int):
        return (dim,)
    try:
        return tuple(int(x) for x in dim)
    except Exception:
        pass
    shape = getattr(dim, "shape", None)
    if shape is not None:
        try:
            return tuple(int(x) for x in shape[:getattr(dim, "ndim", len(shape))])
        except Exception:
            return ()
    return () if dim is None else (str(dim),)


def takes_exactly(function, names, required):
    """Whether `function` has exactly these positional-or-keyword parameters, all after the first
    `required` with a default, and nothing else: a wrapper with the same list binds in C."""
    try:
        params = list(inspect.signature(function).parameters.values())
        return ([p.name for p in params] == names and all(p.kind == p.POSITIONAL_OR_KEYWORD for p in params)
                and len(function.__defaults__ or ()) == len(names) - required and not function.__kwdefaults__)
    except (TypeError, ValueError, AttributeError):
        return False


def reading_global_as(function, name, target):
    """A copy of `function` (its code, globals, defaults) whose global `name` is `target`, or None
    where its code uses `name` other than as a global it reads. Warp's launch_tiled forwards to
    its module's launch(), the probe's wrapper: its copy calling Warp's launch() lets the
    launch_tiled wrapper count the launch itself, without a second wrapper in between (issue
    27.4). `target` is kept in the module under a probe name; the module is otherwise unchanged."""
    code = getattr(function, "__code__", None)
    module = inspect.getmodule(function)
    if code is None or module is None or function.__globals__ is not vars(module) or name not in code.co_names:
        return None
    if any(isinstance(const, types.CodeType) for const in code.co_consts):
        return None  # a nested function or comprehension could read the name too
    if any(op.argval == name and op.opname != "LOAD_GLOBAL" for op in dis.get_instructions(code)):
        return None
    alias = "_wcp_probe_original_" + name
    setattr(module, alias, target)
    renamed = code.replace(co_names=tuple(alias if n == name else n for n in code.co_names))
    copy = types.FunctionType(renamed, function.__globals__, function.__name__, function.__defaults__,
                              function.__closure__)
    copy.__kwdefaults__ = function.__kwdefaults__
    copy.__qualname__ = function.__qualname__
    return copy


def binder_for(function, fallback=None):
    """Positions and defaults of the arguments the record needs, from the real signature,
    computed once. A (*args, **kwargs) forwarder (launch_tiled) binds like what it forwards to."""
    params = list(inspect.signature(function).parameters.values())
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if "kernel" not in positional and fallback is not None:
        return binder_for(fallback)
    index = {name: i for i, name in enumerate(positional)}
    defaults = {p.name: p.default for p in params if p.default is not p.empty}
    keyword_only = {p.name for p in params if p.kind == p.KEYWORD_ONLY}
    fields = ("kernel", "dim", "inputs", "outputs", "device", "stream", "adjoint", "block_dim", "record_tape")
    plan = []
    for name in fields:
        if name not in index and name not in keyword_only and name not in ("stream", "record_tape", "block_dim"):
            raise LookupError("launch argument %r not in the signature" % name)
        plan.append((name, index.get(name, 1 << 30), defaults.get(name)))
    canonical = positional[:2] == ["kernel", "dim"]
    inputs_default = defaults.get("inputs", ())
    outputs_default = defaults.get("outputs", ())

    def bind(args, kwargs):
        n = len(args)
        if n <= 2 and canonical:
            get = kwargs.get
            if n == 1:
                kernel, dim = args[0], get("dim")
            elif n == 2:
                kernel, dim = args
            else:
                kernel, dim = get("kernel"), get("dim")
            return (kernel, dim, get("inputs", inputs_default), get("outputs", outputs_default), get("device"),
                    get("stream"), get("adjoint", False), get("block_dim"), get("record_tape", True))
        return tuple(args[i] if i < n else kwargs.get(name, default) for name, i, default in plan)

    return bind



class Launches:
    """This process's launch record and the wrappers that count into it. Its hot fields live in
    its second base (counter.py), which install() gives it: the native State where the native
    counter loads, else PyState.

    The record is attributes, reset in a fork child. The wp.launch fast path keeps the previous
    launch's fields in its own closure for an allocation-free compare; they hold while
    self.last_key is the key that path set, so any other path that counts a launch (or a kernel
    that dies) invalidates them by replacing last_key."""

    def __init__(self, probe, warp, ctx):
        self.probe, self.warp, self.ctx = probe, warp, ctx
        self.kernel_refs = {}  # id(kernel) -> weakref, so a dead kernel's id is never reused in sig_cache
        self.dead_ids = []
        self.idle_interval = 0.0  # between eager snapshots: 20x the last snapshot's cost
        self.capture_counts = {}
        self.tiled_threads = {}  # thread id -> launch_tiled calls it is inside (the fallback's mark)
        # id(Launch) -> [kernel, dim, dtypes, block_dim, adjoint, bounds, weakref, cached key]; the
        # weakref's callback drops the entry when the Launch dies, before its id can be reused. The
        # cached key (with the device and bounds it was built for) makes a repeat .launch() an
        # identity compare with the previous launch's key.
        self.cmd_info = {}
        self.graph_numbers = weakref.WeakKeyDictionary()
        self.graph_counts = weakref.WeakKeyDictionary()
        self.graph_serial = 0
        self.reset()
        if "record" in probe.faults:
            self.new_signature = injected_fault
        probe.snapshot = self.eager_snapshot
        probe.on_fork.append(self.reset)

    def reset(self):
        self.lock = self.probe.lock
        self.record = LaunchRecord()
        self.signatures = []  # index -> signature dict
        self.sig_by_value = {}  # value key -> index
        self.sig_cache = {}  # fast key (with id(kernel)) -> index
        self.last_key = None
        self.open_sig, self.open_n, self.total = -1, 0, 0
        self.snap_total, self.snap_t, self.snap_interval = 0, 0.0, 0.5
        self.unrecorded = {}
        self.capturing = 0
        self.capture_counts.clear()
        self.tiled_threads.clear()

    # ---- the record ------------------------------------------------------------------------------
    def kernel_gone(self, kid):
        # Weakref callback (any thread, maybe inside GC): no lock, just note it.
        self.dead_ids.append(kid)
        self.last_key = None

    def purge_dead(self):
        while self.dead_ids:
            kid = self.dead_ids.pop()
            self.kernel_refs.pop(kid, None)
            for key in [k for k in self.sig_cache if k[0] == kid]:
                del self.sig_cache[key]

    def new_signature(self, key, kernel, name, module, dim, dev, dtypes, block_dim, adjoint, entry):
        # Slow path, under the lock: a launch whose key differs from the previous one.
        if self.dead_ids:
            self.purge_dead()
        cache_key = key if (dev is None or isinstance(dev, str)) else key[:2] + (id(dev),) + key[3:]
        try:
            index = self.sig_cache.get(cache_key)
        except TypeError:  # an unhashable dtype object: look the signature up by value only
            cache_key = index = None
        kernel_refs = self.kernel_refs
        if index is None:
            if kernel is not None:
                name = str(getattr(kernel, "key", kernel))
                module = str(getattr(getattr(kernel, "module", None), "name", ""))
            if not isinstance(dtypes, tuple):
                dtypes = (dtypes,)  # the fast wrapper's single-argument form
            value = (name, module, launch_dims(dim), self.probe.device_name(dev),
                     tuple(x if isinstance(x, str) else str(getattr(x, "__name__", x)) if x is not None else ""
                           for x in dtypes),
                     block_dim if isinstance(block_dim, int) and not isinstance(block_dim, bool) else 0,
                     bool(adjoint), entry)
            index = self.sig_by_value.get(value)
            if index is None:
                index = len(self.signatures)
                self.sig_by_value[value] = index
                self.signatures.append({"kernel": value[0], "module": value[1], "dim": list(value[2]),
                                        "device": value[3], "dtypes": list(value[4]), "block_dim": value[5],
                                        "adjoint": value[6], "entry": value[7]})
            if kernel is not None and key[0] not in kernel_refs:
                kernel_refs[key[0]] = weakref.ref(kernel, lambda _ref, kid=key[0]: self.kernel_gone(kid))
            if cache_key is not None and (kernel is None or key[0] in kernel_refs):
                self.sig_cache[cache_key] = index
        if self.open_n:
            self.record.add(self.open_sig, self.open_n)
        self.open_sig = index
        self.open_n = 1
        self.last_key = key if kernel is None or key[0] in kernel_refs else None
        self.maybe_snapshot()

    def count(self, key, kernel, dim, dev, dtypes, block_dim, adjoint, entry):
        # One launch of the general wrappers (launch_tiled, Launch.launch, capture, the tape).
        lock = self.lock
        lock.acquire()  # not `with`: its method lookups cost more than the compare below
        try:
            total = self.total = self.total + 1
            if key == self.last_key:
                self.open_n += 1
                if not total & 63:
                    self.maybe_snapshot()
            else:
                self.new_signature(key, kernel, None, None, dim, dev, dtypes, block_dim, adjoint, entry)
        finally:
            lock.release()

    def count_call(self, kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, entry):
        # A launch by its call's arguments: the device Warp launched on, hashable dims, dtypes.
        dev = stream.device if stream is not None else (
            self.ctx.runtime.default_device if device is None else device)
        if dim.__class__ is not int and dim.__class__ is not tuple:
            dim = launch_dims(dim)
        dtypes = launch_dtypes(inputs, outputs)
        if self.capturing:
            entry = self.capture_entry(dev, entry)
        self.count((id(kernel), dim, dev, dtypes, block_dim, adjoint, entry), kernel, dim, dev, dtypes, block_dim,
                   adjoint, entry)

    def count_unrecorded(self, what):
        self.unrecorded[what] = self.unrecorded.get(what, 0) + 1

    # ---- snapshots ---------------------------------------------------------------------------------
    def write_snapshot(self, final):
        start = time.monotonic()
        if self.open_n:
            self.record.add(self.open_sig, self.open_n)
            self.open_n = 0
        if final and self.record.open_count:
            self.record.close_open()
        self.probe.emit("launches", {"final": final, "total": self.total, "signatures": self.signatures,
                                     "sequence": self.record.snapshot(), "unrecorded": dict(self.unrecorded)})
        self.snap_total = self.total
        self.snap_t = time.monotonic()
        # Back off when serialising is slow (a long aperiodic record): at most ~5% of the time.
        self.idle_interval = 20 * (self.snap_t - start)
        self.snap_interval = max(0.5, self.idle_interval)

    def maybe_snapshot(self):
        if self.total != self.snap_total and (time.monotonic() - self.snap_t >= self.snap_interval):
            self.write_snapshot(False)

    def eager_snapshot(self, final=False):
        # After a load's record, when a multiprocessing worker hands back work, and at exit: no
        # 0.5 s floor, only the back-off for a record that is slow to serialise. The probe's
        # lock, not self.lock: at exit it is replaced when another thread holds it forever.
        with self.probe.lock:
            if final:
                self.write_snapshot(True)
            elif self.total != self.snap_total and (
                    self.idle_interval < 0.02 or time.monotonic() - self.snap_t >= self.idle_interval):
                self.write_snapshot(False)

    # ---- calling Warp ------------------------------------------------------------------------------
    def call_original(self, function, args, kwargs):
        # Warp's own entry point. A load it started and did not finish failed with its error;
        # the records of the loads it finished are written now, outside Warp's timers.
        probe = self.probe
        try:
            result = function(*args, **kwargs)
        except BaseException as error:
            probe.fail_pending(error)
            raise
        if probe.finished_loads:
            probe.drain()
        return result

    def call_marked(self, function, args, kwargs):
        # Warp's launch_tiled where its copy cannot be used: the thread is marked while it runs,
        # so the launch() it forwards to leaves the count to the launch_tiled wrapper.
        marks, tid = self.tiled_threads, threading.get_ident()
        marks[tid] = marks.get(tid, 0) + 1
        try:
            return self.call_original(function, args, kwargs)
        finally:
            depth = marks.get(tid, 1) - 1
            if depth:
                marks[tid] = depth
            else:
                marks.pop(tid, None)

    def fix_tape_caller(self, frame):
        # Warp's launch records its caller's frame on an active tape; through the wrapper that
        # frame would be ours, so put back the frame Warp would have seen.
        try:
            tape = self.ctx.runtime.tape
            last = tape.launches[-1] if tape is not None and tape.launches else None
            if isinstance(last, list) and isinstance(last[-1], dict):
                caller = last[-1].get("caller")
                if isinstance(caller, dict) and is_probe_file(str(caller.get("file", ""))):
                    code = frame.f_code
                    last[-1]["caller"] = {"file": code.co_filename, "lineno": frame.f_lineno, "func": code.co_name}
        except Exception:
            pass

    # ---- the launch counter --------------------------------------------------------------------------
    def new_counter(self, default_block_dim, entry, is_launch):
        """A launch counter for one entry point (counter.py): native on a native State."""
        native = native_types(self.probe)
        make = native.Counter if native is not None and isinstance(self, native.State) else PyCounter
        return make(self, self.ctx, default_block_dim, self.tiled_threads, entry, is_launch)

    # ---- wp.launch -------------------------------------------------------------------------------
    def hook_launches(self):
        probe, warp, ctx, state = self.probe, self.warp, self.ctx, self
        original = getattr(warp, "launch", None) or getattr(ctx, "launch", None)
        if original is None:
            probe.note_missing("launches via warp.launch (not found)")
            return
        bind = binder_for(original)
        # A launch that leaves block_dim to Warp is recorded with block_dim 0, whatever the
        # default is: Warp 1.9 writes 256 into its signature, 1.19 None. Without this the same
        # program would record a different workload under the two versions.
        try:
            default_block_dim = inspect.signature(original).parameters["block_dim"].default
        except (TypeError, ValueError, KeyError):
            default_block_dim = None
        if not isinstance(default_block_dim, int):
            default_block_dim = None
        finished_loads = probe.finished_loads  # loads.py's queue: written after the launch returns
        tiled_threads = self.tiled_threads  # never replaced (reset clears it)
        getframe, get_ident = sys._getframe, threading.get_ident

        def record_launch(kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, record_tape, result,
                          caller):
            # The general path: any call shape the fast wrapper below does not take.
            if block_dim == default_block_dim:
                block_dim = None
            if ctx.runtime.tape is not None and record_tape:
                state.fix_tape_caller(caller)
            if tiled_threads and get_ident() in tiled_threads:
                return  # the launch_tiled wrapper counts this launch
            if result is not None:
                state.remember_cmd(result, kernel, dim, device, stream, inputs, outputs, adjoint, block_dim)
                return
            state.count_call(kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, "launch")

        def launch_any(*args, **kwargs):
            result = state.call_original(original, args, kwargs)
            try:
                kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, record_tape = bind(args, kwargs)
                record_launch(kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, record_tape, result,
                              getframe(1))
            except Exception as e:
                state.count_unrecorded("launches via warp.launch (probe error: %s)" % type(e).__name__)
            return result

        # Fast path: when launch() has the signature this probe knows (Warp 1.9 to 1.19 do), a
        # wrapper with the same parameters and the very same default objects lets Python bind
        # the call in C (no *args/**kwargs repacking) and passes Warp identical arguments; the
        # count is one call of the launch counter (counter.py, native where it loads).
        count = self.new_counter(default_block_dim, "launch", True).count

        def launch(kernel, dim, inputs=(), outputs=(), adj_inputs=(), adj_outputs=(), device=None, stream=None,
                   adjoint=False, record_tape=True, record_cmd=False, max_blocks=0, block_dim=None):
            try:
                result = original(kernel, dim, inputs, outputs, adj_inputs, adj_outputs, device, stream, adjoint,
                                  record_tape, record_cmd, max_blocks, block_dim)
            except BaseException as error:
                probe.fail_pending(error)
                raise
            try:
                if finished_loads:
                    probe.drain()
                if result is not None or not count(kernel, dim, inputs, outputs, device, stream, adjoint, block_dim,
                                                   record_tape):
                    # record_cmd, a tape, a capture, launch_tiled's fallback, launch bounds: in general.
                    record_launch(kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, record_tape,
                                  result, getframe(1))
            except Exception as e:
                state.count_unrecorded("launches via warp.launch (probe error: %s)" % type(e).__name__)
            return result

        if takes_exactly(original, KNOWN_LAUNCH_PARAMETERS, 2):
            launch.__defaults__ = original.__defaults__
        else:
            launch = launch_any
        probe.replace((warp, ctx), "launch", original, launch)
        self.hook_tiled(original, launch)

    # ---- wp.launch_tiled ---------------------------------------------------------------------------
    def hook_tiled(self, launch_original, launch_wrapper):
        probe, warp, ctx, state = self.probe, self.warp, self.ctx, self
        tiled_original = getattr(warp, "launch_tiled", None) or getattr(ctx, "launch_tiled", None)
        if tiled_original is None:
            probe.note_missing("launches via warp.launch_tiled (not found)")
            return
        tiled_bind = binder_for(tiled_original, launch_original)
        try:  # what Warp's launch() takes for inputs and outputs not given
            parameters = inspect.signature(launch_original).parameters
            inputs_default, outputs_default = parameters["inputs"].default, parameters["outputs"].default
        except (TypeError, ValueError, KeyError):
            inputs_default = outputs_default = ()
        # Warp's launch_tiled with its launch() reaching Warp's original, used while Warp's
        # module still points launch at this probe's wrapper (else Warp's own, marked).
        direct = reading_global_as(tiled_original, "launch", launch_original)
        warp_globals = getattr(tiled_original, "__globals__", {})
        finished_loads = probe.finished_loads
        counter = self.new_counter(None, "launch_tiled", False)
        count = counter.count

        def record_tiled(args, kwargs, result):
            # Any call the counter does not take: bound by launch()'s signature, counted in general.
            try:
                kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, _ = tiled_bind(args, kwargs)
                if result is not None:
                    state.remember_cmd(result, kernel, dim, device, stream, inputs, outputs, adjoint, block_dim)
                else:
                    state.count_call(kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, "launch_tiled")
            except Exception as e:
                state.count_unrecorded("launches via warp.launch_tiled (probe error: %s)" % type(e).__name__)

        native = native_types(probe)
        if native is not None and isinstance(counter, native.Counter):
            # In C: the call forwarded as the caller made it, without a Python frame (and, where the
            # interpreter exports vectorcall, without a tuple and dict of its own).
            launch_tiled = native.Forwarder(direct, warp_globals if isinstance(warp_globals, dict) else {},
                                            launch_wrapper, functools.partial(state.call_marked, tiled_original),
                                            probe, finished_loads, counter, record_tiled, inputs_default,
                                            outputs_default)
            probe.replace((warp, ctx), "launch_tiled", tiled_original, launch_tiled)
            return

        def launch_tiled(*args, **kwargs):
            # Counted here, once, with the dim and block_dim its caller gave (Warp's launch_tiled
            # appends the block to the dim and resolves block_dim before it calls launch()).
            if direct is not None and warp_globals.get("launch") is launch_wrapper:
                try:
                    result = direct(*args, **kwargs)
                except BaseException as error:
                    probe.fail_pending(error)
                    raise
                if finished_loads:
                    probe.drain()
            else:
                result = state.call_marked(tiled_original, args, kwargs)
            try:
                # The usual call, launch_tiled(kernel, dim=..., block_dim=..., ...), by the counter.
                counted = (result is None and len(args) == 1 and "dim" in kwargs and "block_dim" in kwargs
                           and count(args[0], kwargs["dim"], kwargs.get("inputs", inputs_default),
                                     kwargs.get("outputs", outputs_default), kwargs.get("device"),
                                     kwargs.get("stream"), kwargs.get("adjoint", False), kwargs["block_dim"], True))
            except Exception as e:
                state.count_unrecorded("launches via warp.launch_tiled (probe error: %s)" % type(e).__name__)
                return result
            if not counted:
                record_tiled(args, kwargs, result)
            return result

        probe.replace((warp, ctx), "launch_tiled", tiled_original, launch_tiled)

    # ---- record_cmd launches replayed with Launch.launch() -------------------------------------------
    def keep_cmd(self, launch_object, known):
        kid = id(launch_object)
        cmd_info = self.cmd_info
        entry = cmd_info[kid] = [*known, weakref.ref(launch_object, lambda _ref: cmd_info.pop(kid, None)), None]
        return entry

    def remember_cmd(self, launch_object, kernel, dim, device, stream, inputs, outputs, adjoint, block_dim):
        # record_cmd=True runs nothing: keep the signature for each later .launch().
        try:
            self.keep_cmd(launch_object, (kernel, launch_dims(dim) if dim.__class__ is not int else dim,
                                          launch_dtypes(inputs, outputs), block_dim, adjoint,
                                          getattr(launch_object, "bounds", None)))
        except Exception as e:
            self.probe.fail("record_cmd launches", e)

    def count_cmd(self, launch_object):
        # One .launch() of a Launch object.
        known = self.cmd_info.get(id(launch_object))
        if known is None:
            # Built without wp.launch(record_cmd=True): rebuild from its fields.
            bounds = getattr(launch_object, "bounds", None)
            known = self.keep_cmd(launch_object, (
                launch_object.kernel, launch_dims(bounds), dtypes_of(getattr(launch_object, "fwd_args", None) or ()),
                getattr(launch_object, "block_dim", None), getattr(launch_object, "adjoint", False), bounds))
        kernel = known[0]
        dev = launch_object.device
        bounds = getattr(launch_object, "bounds", known[5])
        cached = known[7]
        if cached is not None and cached[0] is dev and cached[1] is bounds and not self.capturing:
            key = cached[2]
        else:
            dim = known[1]
            if known[5] is not None and bounds is not known[5]:
                dim = launch_dims(bounds)  # set_dim() since it was recorded
            entry = self.capture_entry(dev, "cmd") if self.capturing else "cmd"
            key = (id(kernel), dim, dev, known[2], known[3], known[4], entry)
            if entry == "cmd":
                known[7] = cached = (dev, bounds, key)
        if not (key is self.last_key and self.count_repeat(key)):
            lock = self.lock
            lock.acquire()
            try:
                if key is self.last_key:
                    total = self.total = self.total + 1
                    self.open_n += 1
                    if not total & 63:
                        self.maybe_snapshot()
                else:
                    self.count(key, kernel, key[1], dev, key[3], key[4], key[5], key[6])
            finally:
                lock.release()
        cache = self.cache_cmd_repeat
        if cache is not None and cached is not None and cached[2] is key and key is self.last_key:
            # The next replay of this object, unchanged, is counted by State.count_cmd_repeat.
            cache(launch_object, dev, bounds, key)

    def hook_cmd(self):
        probe, state = self.probe, self
        launch_class = getattr(self.ctx, "Launch", None)
        original = getattr(launch_class, "launch", None)
        if original is None:
            probe.note_missing("launches via Launch.launch (not found)")
            return
        finished_loads = probe.finished_loads
        # The native State counts a replay of the Launch replayed last, unchanged, without Python.
        count_repeat = state.count_cmd_repeat if native_types(probe) is not None else None

        def launch_any(self, *args, **kwargs):
            result = state.call_original(original, (self,) + args, kwargs)
            try:
                state.count_cmd(self)
            except Exception as e:
                state.count_unrecorded("launches via Launch.launch (probe error: %s)" % type(e).__name__)
            return result

        def launch(self, stream=None):
            # launch(self, stream=None) as in Warp 1.9 to 1.19, bound in C, Warp's default object;
            # call_original inlined: a replay is a hot path too.
            try:
                result = original(self, stream)
            except BaseException as error:
                probe.fail_pending(error)
                raise
            try:
                if finished_loads:
                    probe.drain()
                if count_repeat is None or not count_repeat(self):
                    state.count_cmd(self)
            except Exception as e:
                state.count_unrecorded("launches via Launch.launch (probe error: %s)" % type(e).__name__)
            return result

        if takes_exactly(original, ["self", "stream"], 1):
            launch.__defaults__ = original.__defaults__
        else:
            launch = launch_any
        launch_class.launch = wrap_like(launch, original)
        probe.hooks.append("Launch.launch")

    # ---- graph capture and replay ------------------------------------------------------------------
    def capture_entry(self, dev, entry):
        try:
            if isinstance(dev, str) or dev is None:
                dev = self.ctx.runtime.get_device(dev)
            if dev.is_capturing:
                name = str(dev)
                self.capture_counts[name] = self.capture_counts.get(name, 0) + 1
                return "capture"
        except Exception:
            pass
        return entry

    def hook_capture(self):
        probe, warp, ctx, state = self.probe, self.warp, self.ctx, self
        begin = getattr(ctx, "capture_begin", None)
        end = getattr(ctx, "capture_end", None)
        replay = getattr(ctx, "capture_launch", None)
        if begin is None or end is None:
            probe.note_missing("launches during graph capture (capture_begin/capture_end not found)")
        else:
            def capture_begin(*args, **kwargs):
                result = begin(*args, **kwargs)
                try:
                    with state.lock:
                        state.capturing += 1
                except Exception:
                    pass
                return result

            def capture_end(*args, **kwargs):
                graph = end(*args, **kwargs)
                try:
                    with state.lock:
                        state.capturing = max(0, state.capturing - 1)
                        state.graph_counts[graph] = state.capture_counts.pop(str(getattr(graph, "device", "")), 0)
                except Exception as e:
                    probe.fail("graph capture", e)
                return graph

            probe.replace((warp, ctx), "capture_begin", begin, capture_begin)
            probe.replace((warp, ctx), "capture_end", end, capture_end)
        if replay is None:
            probe.note_missing("launches via warp.capture_launch (not found)")
            return

        def capture_launch(graph, *args, **kwargs):
            result = replay(graph, *args, **kwargs)
            try:
                with state.lock:
                    state.count_replay(graph)
            except Exception as e:
                state.count_unrecorded("graph replays via warp.capture_launch (probe error: %s)" % type(e).__name__)
            return result

        probe.replace((warp, ctx), "capture_launch", replay, capture_launch)

    def count_replay(self, graph):
        # One replay of a captured graph, under the lock: a signature per graph, numbered in order.
        number = self.graph_numbers.get(graph)
        if number is None:
            self.graph_serial += 1
            number = self.graph_numbers[graph] = self.graph_serial
        key = ("graph", number)
        self.total += 1
        if key == self.last_key:
            self.open_n += 1
        else:
            self.new_signature(key, None, "graph#%d" % number, "", (self.graph_counts.get(graph, 0),),
                               str(getattr(graph, "device", "")), (), 0, False, "graph")


def install(probe, warp, ctx, config):
    native = native_types(probe)
    kind = type("Launches", (Launches, PyState), {})
    if native is not None:
        # The native counter's base for the record, and the probe's lock in view of it (the same
        # RLock, so that a thread holding it now still excludes the others; a fork or exit that
        # replaces it makes a new one the same way).
        kind = type("Launches", (Launches, native.State), {})
        probe.lock = native.Lock(probe.lock)
        probe.new_lock = lambda: native.Lock(threading.RLock())
    probe.info["launch_counter"] = "python" if native is None else "native"
    launches = kind(probe, warp, ctx)
    return [launches.hook_launches, launches.hook_cmd, launches.hook_capture]
