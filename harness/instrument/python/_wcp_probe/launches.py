# Kernel launches: wp.launch, wp.launch_tiled, Launch.launch (record_cmd) and graph capture and
# replay, recorded as signatures plus the folded sequence of record.py (docs/launch-record.md).
#
# Launches are the hot path (a solver launches millions of times). An identical launch costs a
# field-by-field compare with the previous one and a counter increment under the lock: no
# container is allocated (allocations drive Python's garbage collector, which then costs more
# than the compare). Loads that a launch caused are written after it returns (loads.py).
import inspect
import itertools
import threading
import time
import weakref

from .events import injected_fault, is_probe_file, wrap_like
from .record import LaunchRecord

# For tuple(map(getattr, args, DTYPE_NAMES, NONES)): every argument's dtype (or None) in C.
DTYPE_NAMES = itertools.repeat("dtype")
NONES = itertools.repeat(None)
# The same for a list or tuple of up to MAX_UNROLLED arguments, unrolled: DTYPES_OF[n](args) is
# a tuple of n getattr calls, about half of what map() and tuple() cost for many arguments.
MAX_UNROLLED = 16
DTYPES_OF = [eval("lambda s: (%s)" % "".join("getattr(s[%d], 'dtype', None), " % i for i in range(n)),
                  {"getattr": getattr}) for n in range(MAX_UNROLLED + 1)]
# The parameters of launch() in Warp 1.9 to 1.19: a wrapper with exactly these binds in C.
KNOWN_LAUNCH_PARAMETERS = ["kernel", "dim", "inputs", "outputs", "adj_inputs", "adj_outputs", "device", "stream",
                           "adjoint", "record_tape", "record_cmd", "max_blocks", "block_dim"]


# The same for inputs and outputs together, PAIR_DTYPES_OF[n][m](inputs, outputs), built on first
# use for the arguments of that launch: where they had a dtype it is read as an attribute (a third
# of getattr's cost), elsewhere with getattr. An argument there without one raises AttributeError:
# the caller then puts the all-getattr form in its place (pair_getter(n, m)) and calls that.
PAIR_DTYPES_OF = [[None] * (MAX_UNROLLED + 1) for _ in range(MAX_UNROLLED + 1)]


def pair_getter(n, m, inputs=None, outputs=None):
    def read(name, i, arg):
        if arg is not None and hasattr(arg, "dtype"):
            return "%s[%d].dtype, " % (name, i)
        return "getattr(%s[%d], 'dtype', None), " % (name, i)

    parts = [read("s", i, None if inputs is None else inputs[i]) for i in range(n)]
    parts += [read("o", i, None if outputs is None else outputs[i]) for i in range(m)]
    getter = PAIR_DTYPES_OF[n][m] = eval("lambda s, o: (%s)" % "".join(parts), {"getattr": getattr})
    return getter


def dtypes_of(args):
    """Every argument's dtype (None for a Python scalar or None), as a tuple."""
    if (args.__class__ is list or args.__class__ is tuple) and len(args) <= MAX_UNROLLED:
        return DTYPES_OF[len(args)](args)
    return tuple(map(getattr, args, DTYPE_NAMES, NONES))


def dim_key(dim):
    # A launch dim as a hashable value that cannot change under us (the caller may reuse a list).
    try:
        return tuple(dim)
    except TypeError:
        return dim


def launch_dims(bounds):
    # Warp's launch bounds: the dims padded or folded to the kernel's dimensionality.
    try:
        shape = bounds.shape
        return tuple(int(x) for x in shape[:getattr(bounds, "ndim", len(shape))])
    except Exception:
        return ()


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


def install(probe, warp, ctx, config):
    monotonic = time.monotonic
    get_ident = threading.get_ident
    getframe = __import__("sys")._getframe
    finished_loads = probe.finished_loads  # loads.py's queue: written after the launch returns

    # ---- state (reset in a fork child) ---------------------------------------------------------
    lock = probe.lock
    record = LaunchRecord()
    signatures = []  # index -> signature dict
    sig_by_value = {}  # value key -> index
    sig_cache = {}  # fast key (with id(kernel)) -> index
    kernel_refs = {}  # id(kernel) -> weakref, so a dead kernel's id is never reused in sig_cache
    dead_ids = []
    unrecorded = {}
    last_key = None
    # The previous launch's key as separate values, for the fast wrapper's allocation-free compare.
    l_kid = l_dim = l_dev = l_dtypes = l_block_dim = l_adjoint = l_entry = None
    open_sig = -1
    open_n = 0
    total = 0
    snap_total = 0
    snap_t = 0.0
    snap_interval = 0.5
    idle_interval = 0.0  # between eager snapshots: 20x the last snapshot's cost
    capturing = 0
    capture_counts = {}
    tiled_threads = {}  # thread id -> the kwargs of the launch_tiled call it is inside, until counted

    def reset():
        nonlocal lock, record, signatures, sig_by_value, sig_cache, last_key, open_sig, open_n, total, snap_total
        nonlocal snap_t, snap_interval, unrecorded, capturing, l_kid
        lock = probe.lock
        record = LaunchRecord()
        signatures, sig_by_value, sig_cache = [], {}, {}
        last_key, open_sig, open_n, total, l_kid = None, -1, 0, 0, None
        snap_total, snap_t, snap_interval = 0, 0.0, 0.5
        unrecorded = {}
        capturing = 0
        capture_counts.clear()
        tiled_threads.clear()

    def dims_of(dim):
        if isinstance(dim, int):
            return [dim]
        try:
            return [int(x) for x in dim]
        except Exception:
            return [str(dim)]

    def kernel_gone(kid):
        # Weakref callback (any thread, maybe inside GC): no lock, just note it.
        nonlocal last_key, l_kid
        dead_ids.append(kid)
        last_key = l_kid = None

    def purge_dead():
        while dead_ids:
            kid = dead_ids.pop()
            kernel_refs.pop(kid, None)
            for key in [k for k in sig_cache if k[0] == kid]:
                del sig_cache[key]

    def new_signature(key, kernel, name, module, dim, dev, dtypes, block_dim, adjoint, entry):
        # Slow path, under the lock: a launch whose key differs from the previous one.
        nonlocal last_key, open_sig, open_n, l_kid, l_dim, l_dev, l_dtypes, l_block_dim, l_adjoint, l_entry
        if dead_ids:
            purge_dead()
        cache_key = key if (dev is None or isinstance(dev, str)) else key[:2] + (id(dev),) + key[3:]
        try:
            index = sig_cache.get(cache_key)
        except TypeError:  # an unhashable dtype object: look the signature up by value only
            cache_key = index = None
        if index is None:
            if kernel is not None:
                name = str(getattr(kernel, "key", kernel))
                module = str(getattr(getattr(kernel, "module", None), "name", ""))
            if not isinstance(dtypes, tuple):
                dtypes = (dtypes,)  # the fast wrapper's single-argument form
            value = (name, module, tuple(dims_of(dim)), probe.device_name(dev),
                     tuple(x if isinstance(x, str) else str(getattr(x, "__name__", x)) if x is not None else ""
                           for x in dtypes),
                     block_dim if isinstance(block_dim, int) and not isinstance(block_dim, bool) else 0,
                     bool(adjoint), entry)
            index = sig_by_value.get(value)
            if index is None:
                index = len(signatures)
                sig_by_value[value] = index
                signatures.append({"kernel": value[0], "module": value[1], "dim": list(value[2]), "device": value[3],
                                   "dtypes": list(value[4]), "block_dim": value[5], "adjoint": value[6],
                                   "entry": value[7]})
            if kernel is not None and key[0] not in kernel_refs:
                kernel_refs[key[0]] = weakref.ref(kernel, lambda _ref, kid=key[0]: kernel_gone(kid))
            if cache_key is not None and (kernel is None or key[0] in kernel_refs):
                sig_cache[cache_key] = index
        if open_n:
            record.add(open_sig, open_n)
        open_sig = index
        open_n = 1
        last_key = key if kernel is None or key[0] in kernel_refs else None
        if last_key is not None and len(key) == 7 and (entry == "launch" or entry == "launch_tiled"):
            l_kid, l_dim, l_dev, l_dtypes, l_block_dim, l_adjoint, l_entry = key
        else:
            l_kid = None
        maybe_snapshot()

    if "record" in probe.faults:
        new_signature = injected_fault  # noqa: F811

    def count(key, kernel, dim, dev, dtypes, block_dim, adjoint, entry):
        # One launch of the general wrappers (launch_tiled, Launch.launch, capture, the tape).
        nonlocal open_n, total
        lock.acquire()  # not `with`: its method lookups cost more than the compare below
        try:
            total += 1
            if key == last_key:
                open_n += 1
                if not total & 63:
                    maybe_snapshot()
            else:
                new_signature(key, kernel, None, None, dim, dev, dtypes, block_dim, adjoint, entry)
        finally:
            lock.release()

    def call_original(function, args, kwargs):
        # Warp's own entry point. A load it started and did not finish failed with its error;
        # the records of the loads it finished are written now, outside Warp's timers.
        try:
            result = function(*args, **kwargs)
        except BaseException as error:
            probe.fail_pending(error)
            raise
        if finished_loads:
            probe.drain()
        return result

    def count_call(kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, entry):
        # A launch by its call's arguments: the device Warp launched on, hashable dims, dtypes.
        dev = stream.device if stream is not None else (ctx.runtime.default_device if device is None else device)
        if dim.__class__ is not int and dim.__class__ is not tuple:
            dim = dim_key(dim)
        dtypes = dtypes_of(inputs) + dtypes_of(outputs) if outputs else dtypes_of(inputs)
        if capturing:
            entry = capture_entry(dev, entry)
        count((id(kernel), dim, dev, dtypes, block_dim, adjoint, entry), kernel, dim, dev, dtypes, block_dim, adjoint,
              entry)

    def flush_open():
        nonlocal open_n
        if open_n:
            record.add(open_sig, open_n)
            open_n = 0

    def write_snapshot(final):
        nonlocal snap_total, snap_t, snap_interval, idle_interval
        start = monotonic()
        flush_open()
        if final and record.open_count:
            record.close_open()
        probe.emit("launches", {"final": final, "total": total, "signatures": signatures,
                                "sequence": record.snapshot(), "unrecorded": dict(unrecorded)})
        snap_total = total
        snap_t = monotonic()
        # Back off when serialising is slow (a long aperiodic record): at most ~5% of the time.
        idle_interval = 20 * (snap_t - start)
        snap_interval = max(0.5, idle_interval)

    def maybe_snapshot():
        if total != snap_total and (monotonic() - snap_t >= snap_interval):
            write_snapshot(False)

    def eager_snapshot(final=False):
        # After a load's record, when a multiprocessing worker hands back work, and at exit: no
        # 0.5 s floor, only the back-off for a record that is slow to serialise. The probe's
        # lock, not this closure's: at exit it is replaced when another thread holds it forever.
        with probe.lock:
            if final:
                write_snapshot(True)
            elif total != snap_total and (idle_interval < 0.02 or monotonic() - snap_t >= idle_interval):
                write_snapshot(False)

    def count_unrecorded(what):
        unrecorded[what] = unrecorded.get(what, 0) + 1

    probe.snapshot = eager_snapshot
    probe.on_fork.append(reset)

    # ---- wp.launch ----------------------------------------------------------------------------
    def fix_tape_caller(frame):
        # Warp's launch records its caller's frame on an active tape; through the wrapper that
        # frame would be ours, so put back the frame Warp would have seen.
        try:
            tape = ctx.runtime.tape
            last = tape.launches[-1] if tape is not None and tape.launches else None
            if isinstance(last, list) and isinstance(last[-1], dict):
                caller = last[-1].get("caller")
                if isinstance(caller, dict) and is_probe_file(str(caller.get("file", ""))):
                    code = frame.f_code
                    last[-1]["caller"] = {"file": code.co_filename, "lineno": frame.f_lineno, "func": code.co_name}
        except Exception:
            pass

    def hook_launches():
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

        def record_launch(kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, record_tape, result,
                          caller):
            # The general path: any call shape the fast wrapper below does not take.
            if block_dim == default_block_dim:
                block_dim = None
            runtime = ctx.runtime
            if runtime.tape is not None and record_tape:
                fix_tape_caller(caller)
            if tiled_threads and get_ident() in tiled_threads:
                return  # the launch_tiled wrapper records this launch
            if result is not None:
                remember_cmd(result, kernel, dim, device, stream, inputs, outputs, adjoint, block_dim)
                return
            count_call(kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, "launch")

        def launch_any(*args, **kwargs):
            result = call_original(original, args, kwargs)
            try:
                kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, record_tape = bind(args, kwargs)
                record_launch(kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, record_tape, result,
                              getframe(1))
            except Exception as e:
                count_unrecorded("launches via warp.launch (probe error: %s)" % type(e).__name__)
            return result

        # Fast path: when launch() has the signature this probe knows (Warp 1.9 to 1.19 do), a
        # wrapper with the same parameters and the very same default objects lets Python bind
        # the call in C (no *args/**kwargs repacking) and passes Warp identical arguments.
        try:
            params = list(inspect.signature(original).parameters.values())
            explicit = ([p.name for p in params] == KNOWN_LAUNCH_PARAMETERS
                        and all(p.kind == p.POSITIONAL_OR_KEYWORD for p in params)
                        and len(original.__defaults__ or ()) == len(KNOWN_LAUNCH_PARAMETERS) - 2
                        and not original.__kwdefaults__)
        except (TypeError, ValueError, AttributeError):
            explicit = False

        max_unrolled, pair_getters = MAX_UNROLLED, PAIR_DTYPES_OF

        def launch(kernel, dim, inputs=(), outputs=(), adj_inputs=(), adj_outputs=(), device=None, stream=None,
                   adjoint=False, record_tape=True, record_cmd=False, max_blocks=0, block_dim=None):
            nonlocal open_n, total
            try:
                result = original(kernel, dim, inputs, outputs, adj_inputs, adj_outputs, device, stream, adjoint,
                                  record_tape, record_cmd, max_blocks, block_dim)
            except BaseException as error:
                probe.fail_pending(error)
                raise
            try:
                if finished_loads:
                    probe.drain()
                runtime = ctx.runtime
                entry = "launch"
                if block_dim == default_block_dim:
                    block_dim = None
                if runtime.tape is not None and record_tape or result is not None or capturing:
                    # A tape, record_cmd or a capture: inside launch_tiled, record_launch leaves it
                    # to the launch_tiled wrapper (the thread's mark stays).
                    record_launch(kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, record_tape,
                                  result, getframe(1))
                    return result
                if tiled_threads:
                    mark = tiled_threads.pop(get_ident(), None)
                    if mark is not None:
                        # launch_tiled's own launch: counted here as the launch_tiled call it is, with
                        # the dim and block_dim that call was given (`mark` is its kwargs, which Warp
                        # requires to hold both); taking the mark tells the wrapper it is counted.
                        entry = "launch_tiled"
                        dim = mark["dim"]
                        block_dim = mark["block_dim"]
                dev = (runtime.default_device if device is None else device) if stream is None else stream.device
                if dim.__class__ is not int and dim.__class__ is not tuple:
                    # A list the caller may change later: a tuple of its values.
                    dim = tuple(dim) if dim.__class__ is list else dim_key(dim)
                # Every argument's dtype (None for a Python scalar): a tuple, a lone input's bare.
                if outputs:
                    if (inputs.__class__ is list and outputs.__class__ is list and (n := len(inputs)) <= max_unrolled
                            and (m := len(outputs)) <= max_unrolled):
                        # One unrolled getter for both lists: no second call, no concatenation.
                        getter = pair_getters[n][m]
                        if getter is None:
                            getter = pair_getter(n, m, inputs, outputs)
                        try:
                            dtypes = getter(inputs, outputs)
                        except AttributeError:  # an argument without a dtype where the first had one
                            dtypes = pair_getter(n, m)(inputs, outputs)
                    else:
                        dtypes = dtypes_of(inputs) + dtypes_of(outputs)
                elif len(inputs) == 1:
                    dtypes = getattr(inputs[0], "dtype", None)
                elif inputs.__class__ is list and (n := len(inputs)) <= max_unrolled:
                    getter = pair_getters[n][0]
                    if getter is None:
                        getter = pair_getter(n, 0, inputs)
                    try:
                        dtypes = getter(inputs, None)
                    except AttributeError:
                        dtypes = pair_getter(n, 0)(inputs, None)
                else:
                    dtypes = dtypes_of(inputs)
                kid = id(kernel)
                lock.acquire()  # not `with`: its method lookups cost more than the compare below
                try:
                    total += 1
                    # A device named by a string that is equal but not the same object (built per
                    # call, e.g. f"cuda:{i}") is the same device: compare strings by value.
                    if (kid == l_kid and dim == l_dim and dtypes == l_dtypes
                            and (dev is l_dev or dev.__class__ is str and dev == l_dev)
                            and block_dim == l_block_dim and adjoint == l_adjoint and entry is l_entry):
                        open_n += 1
                        if not total & 63:
                            maybe_snapshot()
                    else:
                        new_signature((kid, dim, dev, dtypes, block_dim, adjoint, entry), kernel, None, None, dim,
                                      dev, dtypes, block_dim, adjoint, entry)
                finally:
                    lock.release()
            except Exception as e:
                count_unrecorded("launches via warp.launch (probe error: %s)" % type(e).__name__)
            return result

        if explicit:
            launch.__defaults__ = original.__defaults__
        else:
            launch = launch_any
        probe.replace((warp, ctx), "launch", original, launch)

        tiled_original = getattr(warp, "launch_tiled", None) or getattr(ctx, "launch_tiled", None)
        if tiled_original is None:
            probe.note_missing("launches via warp.launch_tiled (not found)")
            return
        tiled_bind = binder_for(tiled_original, original)

        def launch_tiled(*args, **kwargs):
            # Marks its thread with the caller's kwargs while Warp runs: Warp's launch_tiled calls
            # launch() (the wrapper above), which counts it and takes the mark. Anything else
            # (a tape, record_cmd, capture, a Warp that does not call launch()) is counted here.
            tid = get_ident()
            if tid in tiled_threads:
                return launch_tiled_nested(tid, args, kwargs)
            tiled_threads[tid] = kwargs
            try:
                result = tiled_original(*args, **kwargs)
            except BaseException as error:
                tiled_threads.pop(tid, None)
                probe.fail_pending(error)
                raise
            if tid not in tiled_threads:  # counted by launch(), which took the mark
                if finished_loads:
                    drain_tiled()
                return result
            tiled_threads.pop(tid, None)
            return count_tiled(result, args, kwargs)

        def launch_tiled_nested(tid, args, kwargs):
            # A launch_tiled inside another on the same thread: the outer call's mark put back.
            outer = tiled_threads[tid]
            tiled_threads[tid] = kwargs
            try:
                result = tiled_original(*args, **kwargs)
            except BaseException as error:
                probe.fail_pending(error)
                raise
            finally:
                mark = tiled_threads.pop(tid, None)
                tiled_threads[tid] = outer
            if mark is None:
                if finished_loads:
                    drain_tiled()
                return result
            return count_tiled(result, args, kwargs)

        def drain_tiled():
            try:
                probe.drain()
            except Exception as e:
                count_unrecorded("launches via warp.launch_tiled (probe error: %s)" % type(e).__name__)

        def count_tiled(result, args, kwargs):
            try:
                if finished_loads:
                    probe.drain()
                kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, _ = tiled_bind(args, kwargs)
                if result is not None:
                    remember_cmd(result, kernel, dim, device, stream, inputs, outputs, adjoint, block_dim)
                    return result
                count_call(kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, "launch_tiled")
            except Exception as e:
                count_unrecorded("launches via warp.launch_tiled (probe error: %s)" % type(e).__name__)
            return result

        probe.replace((warp, ctx), "launch_tiled", tiled_original, launch_tiled)

    # ---- record_cmd launches replayed with Launch.launch() ---------------------------------------
    # id(Launch) -> [kernel, dim, dtypes, block_dim, adjoint, bounds, weakref, cached key]; the
    # weakref's callback drops the entry when the Launch dies, before its id can be reused. The
    # cached key (with the device and bounds it was built for) makes a repeat .launch() an
    # identity compare with the previous launch's key.
    cmd_info = {}

    def keep_cmd(launch_object, known):
        kid = id(launch_object)
        entry = cmd_info[kid] = [*known, weakref.ref(launch_object, lambda _ref: cmd_info.pop(kid, None)), None]
        return entry

    def remember_cmd(launch_object, kernel, dim, device, stream, inputs, outputs, adjoint, block_dim):
        # record_cmd=True runs nothing: keep the signature for each later .launch().
        try:
            dtypes = dtypes_of(inputs) + dtypes_of(outputs or ())
            keep_cmd(launch_object, (kernel, dim_key(dim) if dim.__class__ is not int else dim, dtypes, block_dim,
                                     adjoint, getattr(launch_object, "bounds", None)))
        except Exception as e:
            probe.fail("record_cmd launches", e)

    def count_cmd(launch_object):
        # One .launch() of a Launch object.
        nonlocal open_n, total
        known = cmd_info.get(id(launch_object))
        if known is None:
            # Built without wp.launch(record_cmd=True): rebuild from its fields.
            bounds = getattr(launch_object, "bounds", None)
            known = keep_cmd(launch_object, (
                launch_object.kernel, launch_dims(bounds), dtypes_of(getattr(launch_object, "fwd_args", None) or ()),
                getattr(launch_object, "block_dim", None), getattr(launch_object, "adjoint", False), bounds))
        kernel = known[0]
        dev = launch_object.device
        bounds = getattr(launch_object, "bounds", known[5])
        cached = known[7]
        if cached is not None and cached[0] is dev and cached[1] is bounds and not capturing:
            key = cached[2]
        else:
            dim = known[1]
            if known[5] is not None and bounds is not known[5]:
                dim = launch_dims(bounds)  # set_dim() since it was recorded
            entry = capture_entry(dev, "cmd") if capturing else "cmd"
            key = (id(kernel), dim, dev, known[2], known[3], known[4], entry)
            if entry == "cmd":
                known[7] = (dev, bounds, key)
        lock.acquire()
        try:
            if key is last_key:
                total += 1
                open_n += 1
                if not total & 63:
                    maybe_snapshot()
            else:
                count(key, kernel, key[1], dev, key[3], key[4], key[5], key[6])
        finally:
            lock.release()

    def hook_cmd():
        launch_class = getattr(ctx, "Launch", None)
        original = getattr(launch_class, "launch", None)
        if original is None:
            probe.note_missing("launches via Launch.launch (not found)")
            return

        def launch_any(self, *args, **kwargs):
            result = call_original(original, (self,) + args, kwargs)
            try:
                count_cmd(self)
            except Exception as e:
                count_unrecorded("launches via Launch.launch (probe error: %s)" % type(e).__name__)
            return result

        def launch(self, stream=None):
            # launch(self, stream=None) as in Warp 1.9 to 1.19, bound in C, Warp's default object.
            try:
                result = original(self, stream)
            except BaseException as error:
                probe.fail_pending(error)
                raise
            try:
                if finished_loads:
                    probe.drain()
                count_cmd(self)
            except Exception as e:
                count_unrecorded("launches via Launch.launch (probe error: %s)" % type(e).__name__)
            return result

        try:
            params = list(inspect.signature(original).parameters.values())
            explicit = ([p.name for p in params] == ["self", "stream"]
                        and all(p.kind == p.POSITIONAL_OR_KEYWORD for p in params)
                        and len(original.__defaults__ or ()) == 1 and not original.__kwdefaults__)
        except (TypeError, ValueError, AttributeError):
            explicit = False
        if explicit:
            launch.__defaults__ = original.__defaults__
        else:
            launch = launch_any
        launch_class.launch = wrap_like(launch, original)
        probe.hooks.append("Launch.launch")

    # ---- graph capture and replay ------------------------------------------------------------------
    graph_numbers = weakref.WeakKeyDictionary()
    graph_counts = weakref.WeakKeyDictionary()
    graph_serial = [0]

    def capture_entry(dev, entry):
        try:
            if isinstance(dev, str) or dev is None:
                dev = ctx.runtime.get_device(dev)
            if dev.is_capturing:
                name = str(dev)
                capture_counts[name] = capture_counts.get(name, 0) + 1
                return "capture"
        except Exception:
            pass
        return entry

    def hook_capture():
        begin = getattr(ctx, "capture_begin", None)
        end = getattr(ctx, "capture_end", None)
        replay = getattr(ctx, "capture_launch", None)
        if begin is None or end is None:
            probe.note_missing("launches during graph capture (capture_begin/capture_end not found)")
        else:
            def capture_begin(*args, **kwargs):
                nonlocal capturing
                result = begin(*args, **kwargs)
                try:
                    with lock:
                        capturing += 1
                except Exception:
                    pass
                return result

            def capture_end(*args, **kwargs):
                nonlocal capturing
                graph = end(*args, **kwargs)
                try:
                    with lock:
                        capturing = max(0, capturing - 1)
                        graph_counts[graph] = capture_counts.pop(str(getattr(graph, "device", "")), 0)
                except Exception as e:
                    probe.fail("graph capture", e)
                return graph

            probe.replace((warp, ctx), "capture_begin", begin, capture_begin)
            probe.replace((warp, ctx), "capture_end", end, capture_end)
        if replay is None:
            probe.note_missing("launches via warp.capture_launch (not found)")
            return

        def capture_launch(graph, *args, **kwargs):
            nonlocal open_n, total
            result = replay(graph, *args, **kwargs)
            try:
                with lock:
                    number = graph_numbers.get(graph)
                    if number is None:
                        graph_serial[0] += 1
                        number = graph_numbers[graph] = graph_serial[0]
                    key = ("graph", number)
                    total += 1
                    if key == last_key:
                        open_n += 1
                    else:
                        new_signature(key, None, "graph#%d" % number, "", (graph_counts.get(graph, 0),),
                                      str(getattr(graph, "device", "")), (), 0, False, "graph")
            except Exception as e:
                count_unrecorded("graph replays via warp.capture_launch (probe error: %s)" % type(e).__name__)
            return result

        probe.replace((warp, ctx), "capture_launch", replay, capture_launch)

    return [hook_launches, hook_cmd, hook_capture]

