# Injected by warp-compile-probe into the process it measures (via PYTHONPATH).
#
# It waits for `warp` to be imported, then records module creation and loads, option writes,
# cache clears and every kernel launch, as JSON lines in <WCP_EVENT_DIR>/events-<pid>.jsonl
# (one file per process; docs/instrumentation.md is the protocol, docs/launch-record.md the
# launch sequence). Rule one: it must never change whether or how the application runs.
# Every hook swallows its own failures and names them in `missing`; the original Warp
# function always runs first, with the original arguments, and its result or exception is
# passed through unchanged; no threads; nothing is printed.
#
# Launches are the hot path (a solver launches millions of times), so the launch wrapper is
# written for speed: an identical launch costs a key compare and a counter increment under a
# lock, and the record folds repetition into loops as it goes so memory stays bounded.
import os as _os
import sys as _sys

_PROBE_FILE = _os.path.abspath(__file__)


class _WcpOptions(dict):
    """A Warp Module's `options` dict that reports writes (item set, update, setdefault, |=).

    Everything Warp does with it behaves as with a plain dict: reads are dict's own C code,
    `dict(o)`, `o | x` and `o.copy()` give plain dicts, and copy/pickle reduce it to a plain
    dict (so a pickled module option set never names this class).
    """

    __slots__ = ("_wcp_module",)
    _wcp_report = None  # set by the probe: report(options, items, caller_frame)

    def __setitem__(self, key, value):
        dict.__setitem__(self, key, value)
        report = _WcpOptions._wcp_report
        if report is not None:
            report(self, ((key, value),), _sys._getframe(1))

    def update(self, *args, **kwargs):
        report = _WcpOptions._wcp_report
        if report is None:
            return dict.update(self, *args, **kwargs)
        if len(args) == 1 and type(args[0]) is dict or not args:
            dict.update(self, *args, **kwargs)
            items = list(args[0].items()) if args else []
        else:
            # An iterable may be single-use: read it once, then apply what was read.
            staged = {}
            dict.update(staged, *args)
            dict.update(self, staged)
            items = list(staged.items())
            if kwargs:
                dict.update(self, kwargs)
        items.extend(kwargs.items())
        report(self, items, _sys._getframe(1))

    def setdefault(self, key, default=None):
        missing = key not in self
        value = dict.setdefault(self, key, default)
        report = _WcpOptions._wcp_report
        if missing and report is not None:
            report(self, ((key, default),), _sys._getframe(1))
        return value

    def __ior__(self, other):
        self.update(other)
        return self

    def __reduce_ex__(self, protocol):
        return (dict, (dict(self),))

    def __reduce__(self):
        return (dict, (dict(self),))


class _WcpLaunchRecord:
    """The process's launch sequence, folded into loops as it grows (see docs/launch-record.md).

    Items are leaf runs [S, count] (shape = ("L", S)) or _WcpLoop objects. `add(S)` is
    the per-launch entry; everything else runs when a run closes, which is once per change
    of signature, not once per launch.
    """

    K = 32  # longest loop body the tail fold looks for

    def __init__(self):
        self.items = []  # closed top-level items
        self.shapes = []  # their shape ids, in step with items
        self.shape_ids = {}  # shape key -> id
        self.shape_keys = []  # id -> shape key: ("L", S) or ("P", body shape ids)
        self.leaf_sids = {}  # signature -> its leaf shape id
        self.vectors = {}  # iteration vector -> the one shared instance of it
        self.open_sig = -1  # the open leaf run
        self.open_count = 0
        self.frames = None  # absorption state of the last item when it is a loop: [[loop_shape_id, body, pos, vec, iters], ...]
        self.total = 0

    # -- shapes -----------------------------------------------------------------------------
    def shape(self, key):
        sid = self.shape_ids.get(key)
        if sid is None:
            sid = len(self.shape_keys)
            self.shape_ids[key] = sid
            self.shape_keys.append(key)
        return sid

    def can_start(self, loop_sid, sid):
        # Whether an item of shape `sid` can begin an instance of loop shape `loop_sid`.
        first = self.shape_keys[loop_sid][1][0]
        if first == sid:
            return True
        return self.shape_keys[first][0] == "P" and self.can_start(first, sid)

    # -- per launch -------------------------------------------------------------------------
    def add(self, sig, n=1):
        self.total += n
        if sig == self.open_sig:
            self.open_count += n
            return
        count = self.open_count
        if count:
            # Close the open run. The common case, inlined: it is the next body item of the
            # expected top-level loop (two kernels alternating come here on every launch).
            previous = self.open_sig
            sid = self.leaf_sids.get(previous)
            if sid is None:
                sid = self.leaf_sids[previous] = self.shape(("L", previous))
            frames = self.frames
            if frames is not None and len(frames) == 1:
                frame = frames[0]
                body = frame[1]
                pos = frame[2]
                if body[pos] == sid:
                    frame[3].append(count)
                    pos += 1
                    if pos == len(body):
                        vec = tuple(frame[3])
                        vec = self.vectors.setdefault(vec, vec)
                        iters = frame[4]
                        last = iters[-1]
                        if last[0] == vec:
                            last[1] += 1
                        else:
                            iters.append([vec, 1])
                        frame[2] = 0
                        frame[3] = []
                    else:
                        frame[2] = pos
                    self.open_sig = sig
                    self.open_count = n
                    return
            self.open_sig = -1
            self.open_count = 0
            self.push(["L", previous, count], sid)
        self.open_sig = sig
        self.open_count = n

    def close_open(self):
        if not self.open_count:
            return
        item = ["L", self.open_sig, self.open_count]
        self.open_sig = -1
        self.open_count = 0
        self.push(item, self.shape(("L", item[1])))

    # -- items ------------------------------------------------------------------------------
    def push(self, item, sid):
        if self.frames is not None:
            if self.feed(item, sid):
                return
        self.append(item, sid)

    def append(self, item, sid):
        items, shapes = self.items, self.shapes
        items.append(item)
        shapes.append(sid)
        # Fold the tail: the last k shapes equal the k before them -> one loop of 2 iterations.
        while True:
            n = len(shapes)
            folded = False
            for k in range(1, min(self.K, n // 2) + 1):
                if shapes[-1] != shapes[-k - 1]:
                    continue
                if shapes[n - k:] == shapes[n - 2 * k:n - k]:
                    body = tuple(shapes[n - k:])
                    first = tuple(self.value(x) for x in items[n - 2 * k:n - k])
                    second = tuple(self.value(x) for x in items[n - k:])
                    iters = [[self.vectors.setdefault(first, first), 1]]
                    self.rle_append(iters, second)
                    loop_sid = self.shape(("P", body))
                    loop = ["P", loop_sid, iters]
                    del items[n - 2 * k:]
                    del shapes[n - 2 * k:]
                    items.append(loop)
                    shapes.append(loop_sid)
                    folded = True
                    break
            if not folded:
                break
        last = items[-1]
        if last[0] == "P":
            self.frames = [[shapes[-1], self.shape_keys[shapes[-1]][1], 0, [], last[2]]]
        else:
            self.frames = None

    def rle_append(self, iters, vec):
        # Equal vectors are shared: a data-dependent count costs a list entry, not a new tuple.
        vec = self.vectors.setdefault(vec, vec)
        last = iters[-1] if iters else None
        if last is not None and last[0] == vec:
            last[1] += 1
        else:
            iters.append([vec, 1])

    def value(self, item):
        # The count-part of an item: a leaf's count, or a loop's iterations (hashable).
        if item[0] == "L":
            return item[2]
        return tuple((vec, k) for vec, k in item[2])

    def item_of(self, sid, value):
        key = self.shape_keys[sid]
        if key[0] == "L":
            return ["L", key[1], value]
        return ["P", sid, [[vec, k] for vec, k in value]]

    # -- absorbing items into the expected loop ----------------------------------------------
    def feed(self, item, sid):
        frames = self.frames
        while True:
            frame = frames[-1]
            loop_sid, body, pos, vec, iters = frame
            want = body[pos]
            if want == sid:
                vec.append(self.value(item))
                self.advance(frames)
                return True
            if self.shape_keys[want][0] == "P" and self.can_start(want, sid):
                frames.append([want, self.shape_keys[want][1], 0, [], []])
                continue
            if pos == 0 and len(frames) > 1 and iters:
                # The nested loop instance ended here: hand its value to the enclosing body.
                frames.pop()
                frames[-1][3].append(tuple((v, k) for v, k in iters))
                self.advance(frames)
                continue
            break
        # Mismatch: the loop at the top level ends; a partial iteration goes back to items.
        partial = self.materialize(frames)
        self.frames = None
        for p_item, p_sid in partial:
            self.push(p_item, p_sid)
        self.push(item, sid)
        return True

    def advance(self, frames):
        frame = frames[-1]
        frame[2] += 1
        if frame[2] == len(frame[1]):
            self.rle_append(frame[4], tuple(frame[3]))
            frame[2] = 0
            frame[3] = []

    def materialize(self, frames):
        # Items equivalent to the partial state below the top-level loop (which stays as is).
        out = []
        for depth, (loop_sid, body, pos, vec, iters) in enumerate(frames):
            if depth > 0 and iters:
                total = sum(k for _, k in iters)
                if total == 1:
                    out.extend((self.item_of(b, v), b) for b, v in zip(body, iters[0][0]))
                else:
                    out.append((["P", loop_sid, [[v, k] for v, k in iters]], loop_sid))
            out.extend((self.item_of(b, v), b) for b, v in zip(body, vec))
        return out

    # -- serialisation -------------------------------------------------------------------------
    def snapshot(self):
        """The sequence as JSON-ready items; does not change the state."""
        out = [self.ser(item) for item in self.items]
        if self.frames is not None:
            for p_item, _ in self.materialize(self.frames):
                out.append(self.ser(p_item))
        if self.open_count:
            out.append(self.ser(["L", self.open_sig, self.open_count]))
        return out

    def ser(self, item):
        if item[0] == "L":
            return item[1] if item[2] == 1 else [item[1], item[2]]
        return self.ser_loop(item[1], item[2])

    def ser_value(self, sid, value, out):
        # Appends the serialised item (shape sid, value) to out; a one-iteration loop is spliced.
        key = self.shape_keys[sid]
        if key[0] == "L":
            out.append(key[1] if value == 1 else [key[1], value])
            return
        if len(value) == 1 and value[0][1] == 1:
            for b, v in zip(key[1], value[0][0]):
                self.ser_value(b, v, out)
            return
        out.append(self.ser_loop(sid, value))

    def ser_whole(self, sid, value):
        # One item (never spliced), for a "?" fill.
        key = self.shape_keys[sid]
        if key[0] == "L":
            return key[1] if value == 1 else [key[1], value]
        if len(value) == 1 and value[0][1] == 1:
            body = []
            for b, v in zip(key[1], value[0][0]):
                self.ser_value(b, v, body)
            return {"loop": body, "iterations": [[[], 1]]}
        return self.ser_loop(sid, value)

    def ser_loop(self, sid, iters):
        body = self.shape_keys[sid][1]
        if len(iters) == 1 and iters[0][1] >= 2:
            items = []
            for b, v in zip(body, iters[0][0]):
                self.ser_value(b, v, items)
            return {"loop": items, "times": iters[0][1]}
        template = []
        plans = [self.plan(b, [vec[i] for vec, _ in iters], template) for i, b in enumerate(body)]
        iterations = []
        for vec, k in iters:
            fill = []
            for p, v in zip(plans, vec):
                self.fill(p, v, fill)
            iterations.append([fill, k])
        return {"loop": template, "iterations": iterations}

    def plan(self, sid, values, out):
        # Appends the template for one body position to out and returns how to fill it:
        # None (constant), ("count",), ("times",), ("whole", sid) or ("body", [plans]).
        first = values[0]
        if all(v == first for v in values):
            self.ser_value(sid, first, out)
            return None
        key = self.shape_keys[sid]
        if key[0] == "L":
            out.append([key[1], "?"])
            return ("count",)
        if all(len(v) == 1 for v in values):
            if all(v[0][0] == first[0][0] for v in values):
                inner = []
                for b, x in zip(key[1], first[0][0]):
                    self.ser_value(b, x, inner)
                out.append({"loop": inner, "times": "?"})
                return ("times",)
            k = first[0][1]
            if all(v[0][1] == k for v in values):
                target = out if k == 1 else []
                children = [self.plan(b, [v[0][0][j] for v in values], target) for j, b in enumerate(key[1])]
                if k != 1:
                    target = {"loop": target, "times": k}
                    out.append(target)
                return ("body", children)
        out.append("?")
        return ("whole", sid)

    def fill(self, plan, value, out):
        if plan is None:
            return
        kind = plan[0]
        if kind == "count":
            out.append(value)
        elif kind == "times":
            out.append(value[0][1])
        elif kind == "whole":
            out.append(self.ser_whole(plan[1], value))
        else:
            for child, v in zip(plan[1], value[0][0]):
                self.fill(child, v, out)


def _wcp_install():
    event_dir = _os.environ.get("WCP_EVENT_DIR")
    if not event_dir or not _os.path.isdir(event_dir):
        return
    import importlib.abc
    import json
    import threading
    import time
    import weakref

    monotonic = time.monotonic
    get_ident = threading.get_ident
    getframe = _sys._getframe
    dumps = json.JSONEncoder(default=str, separators=(",", ":")).encode
    probe_file = _PROBE_FILE

    # ---- per-process state (reset in a fork child) ---------------------------------------
    lock = threading.RLock()  # re-entrant: a signal handler or __del__ may record while held
    pid = _os.getpid()
    forked_from = None
    fd = None
    missing = []
    missing_seen = set()
    hooks = []
    info = {"warp_dir": None, "api": None, "timers": None, "warp_version": "", "mp_child": False}
    final_done = False
    sigterm_installed = False

    # launch record
    record = _WcpLaunchRecord()
    signatures = []  # index -> signature dict
    sig_by_value = {}  # value key -> index
    sig_cache = {}  # fast key (with id(kernel)) -> index
    kernel_refs = {}  # id(kernel) -> weakref, so a dead kernel's id is never reused in sig_cache
    dead_ids = []
    unrecorded = {}
    last_key = None
    # The same key as separate values, for the explicit launch wrapper's allocation-free compare.
    l_kid = l_dim = l_dev = l_dtypes = l_block_dim = l_adjoint = l_entry = None
    open_sig = -1
    open_n = 0
    total = 0
    snap_total = 0
    snap_t = 0.0
    snap_interval = 0.5
    idle_interval = [0.0]  # between snapshots of a multiprocessing worker going idle
    pending_loads = {}  # thread id -> context of a load that has started (exec strategy)
    capturing = 0
    capture_counts = {}
    tiled_threads = {}

    refs = {"warp": None, "ctx": None, "config": None}

    # ---- writing -----------------------------------------------------------------------------
    def write_line(data):
        nonlocal fd
        if fd is None:
            first = dumps(process_record()).encode("utf-8") + b"\n"
            fd = _os.open(_os.path.join(event_dir, "events-%d.jsonl" % pid),
                          _os.O_WRONLY | _os.O_CREAT | _os.O_APPEND | getattr(_os, "O_CLOEXEC", 0), 0o600)
            _os.write(fd, first)
        view = memoryview(data)
        while view:
            written = _os.write(fd, view)
            view = view[written:]

    def emit(kind, fields):
        try:
            with lock:
                if fd is None:
                    write_line(b"")  # the process record comes first, and first in time
                record_ = {"type": kind, "pid": pid, "t": monotonic()}
                record_.update(fields)
                write_line(dumps(record_).encode("utf-8") + b"\n")
        except Exception:
            pass

    def note_missing(what):
        if what not in missing_seen:
            missing_seen.add(what)
            missing.append(what)

    def fail(what, error=None):
        note_missing(what + (" (probe error: %s)" % type(error).__name__ if error is not None else ""))

    def process_record():
        main = None
        try:
            main_module = _sys.modules.get("__main__")
            spec = getattr(main_module, "__spec__", None)
            if spec is not None and getattr(spec, "name", None):
                main = spec.name
            elif getattr(main_module, "__file__", None):
                main = _os.path.abspath(main_module.__file__)
        except Exception:
            pass
        try:
            cwd = _os.getcwd()
        except Exception:
            cwd = None
        return {"type": "process", "pid": pid, "t": monotonic(), "ppid": _os.getppid(), "argv": list(_sys.argv),
                "executable": _sys.executable, "cwd": cwd, "main": main, "mp_child": info["mp_child"],
                "forked_from": forked_from}

    # ---- frames ------------------------------------------------------------------------------
    def in_warp(filename):
        # Warp's own code. Its examples and tests are programs (one may be the measured program):
        # frames there are where the application asked.
        warp_dir = info["warp_dir"]
        if not warp_dir or not filename.startswith(warp_dir):
            return False
        rest = filename[len(warp_dir):]
        return not (rest.startswith("examples" + _os.sep) or rest.startswith("tests" + _os.sep))

    def site_of(frame):
        # First frame outside Warp and outside this probe: where the application asked.
        while frame is not None:
            filename = frame.f_code.co_filename
            if filename != probe_file and not in_warp(filename):
                return {"file": filename, "line": frame.f_lineno, "function": frame.f_code.co_name}
            frame = frame.f_back
        return None

    def stack_of(frame, limit=48):
        out = []
        while frame is not None and len(out) < limit:
            code = frame.f_code
            if code.co_filename != probe_file:
                out.append({"file": code.co_filename, "line": frame.f_lineno, "function": code.co_name})
            frame = frame.f_back
        return out

    # ---- cache / config state ----------------------------------------------------------------
    config_names = ("enable_backward", "max_unroll", "lineinfo", "deterministic", "deterministic_max_records",
                    "compile_time_trace")
    extra_config_names = ("mode", "verify_fp", "fast_math", "cache_kernels", "kernel_cache_dir",
                          "use_precompiled_headers", "optimization_level", "cpu_compiler_flags")

    def config_values(names):
        config = refs["config"]
        out = {}
        for name in names:
            try:
                if config is not None and hasattr(config, name):
                    out[name] = repr(getattr(config, name))
            except Exception:
                pass
        return out

    def cache_state():
        config = refs["config"]
        return {"kernel_cache_dir": str(getattr(config, "kernel_cache_dir", None)),
                "cache_kernels": bool(getattr(config, "cache_kernels", True)),
                "CUDA_CACHE_DISABLE": _os.environ.get("CUDA_CACHE_DISABLE"),
                "WARP_CACHE_PATH": _os.environ.get("WARP_CACHE_PATH")}

    # ---- launch record -----------------------------------------------------------------------
    def dtype_name(dtype):
        if dtype is None:
            return ""
        return str(getattr(dtype, "__name__", dtype))

    def device_name(dev):
        if dev is None or isinstance(dev, str):
            try:
                ctx = refs["ctx"]
                runtime = getattr(ctx, "runtime", None)
                if runtime is not None:
                    return str(runtime.get_device(dev))
            except Exception:
                pass
            return "" if dev is None else dev
        return str(dev)

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
                dtypes = (dtypes,)  # the explicit launch wrapper's single-argument form
            value = (name, module, tuple(dims_of(dim)), device_name(dev),
                     tuple(x if isinstance(x, str) else dtype_name(x) for x in dtypes),
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
        if last_key is not None and len(key) == 7:
            l_kid, l_dim, l_dev, l_dtypes, l_block_dim, l_adjoint, l_entry = key
        else:
            l_kid = None
        maybe_snapshot()

    def flush_open():
        nonlocal open_n
        if open_n:
            record.add(open_sig, open_n)
            open_n = 0

    def write_snapshot(final):
        nonlocal snap_total, snap_t, snap_interval
        start = monotonic()
        flush_open()
        if final and record.open_count:
            record.close_open()
        sequence = record.snapshot()
        emit("launches", {"final": final, "total": total, "signatures": signatures, "sequence": sequence,
                          "unrecorded": dict(unrecorded)})
        snap_total = total
        snap_t = monotonic()
        # Back off when serialising is slow (a long aperiodic record): at most ~5% of the time.
        idle_interval[0] = 20 * (snap_t - start)
        snap_interval = max(0.5, idle_interval[0])

    def maybe_snapshot():
        if total != snap_total and (monotonic() - snap_t >= snap_interval):
            write_snapshot(False)

    def eager_snapshot():
        # At a module load and when a multiprocessing worker hands back work: no 0.5 s floor,
        # only the back-off for a record that is slow to serialise (20x its last cost).
        if total != snap_total and (idle_interval[0] < 0.02 or monotonic() - snap_t >= idle_interval[0]):
            with lock:
                write_snapshot(False)

    def count_unrecorded(what):
        unrecorded[what] = unrecorded.get(what, 0) + 1

    # ---- loads -------------------------------------------------------------------------------
    packages = {}  # top-level import name -> [distribution, version] or None, filled on first use

    def package_of(python_module):
        # Which installed distribution a kernel's code comes from (None for the application's own
        # code): the tool tells the user's code from a dependency's and names it with its version.
        top = str(python_module or "").split(".")[0]
        if top in packages:
            return packages[top]
        found = None
        try:
            import importlib.metadata as metadata
            names = metadata.packages_distributions().get(top) or []
            if names:
                found = [names[0], metadata.version(names[0])]
        except Exception:
            found = None
        packages[top] = found
        return found

    def describe_kernels(module):
        kernels = []
        live = getattr(module, "_live_kernels", None)
        members = list(live) if live is not None else list(getattr(module, "kernels", {}).values())
        module_options = getattr(module, "options", {}) or {}
        for kernel in members:
            try:
                code = getattr(getattr(kernel, "func", None), "__code__", None)
                overloads = getattr(kernel, "overloads", None) or {}
                kernel_options = getattr(kernel, "options", None) or {}
                backward = kernel_options.get("enable_backward")
                if backward is None:
                    backward = module_options.get("enable_backward")
                func = getattr(kernel, "func", None)
                python_module = getattr(func, "__module__", None)
                content = getattr(kernel, "hash", None)
                kernels.append({"key": str(getattr(kernel, "key", "?")),
                                "file": code.co_filename if code else "",
                                "line": code.co_firstlineno if code else 0,
                                "overloads": sorted(str(key) for key in overloads),
                                "adjoint": bool(backward) if backward is not None else None,
                                "qualname": str(getattr(func, "__qualname__", "") or ""),
                                "python_module": str(python_module or ""),
                                "package": package_of(python_module),
                                "hash": content.hex()[:8] if isinstance(content, (bytes, bytearray)) else ""})
            except Exception:
                pass
        kernels.sort(key=lambda k: (k["key"], k["file"], k["line"]))
        return kernels

    def load_fields(module, device, block_dim, module_hash, compiled, t_start, frame):
        options = {}
        try:
            options = {str(k): repr(v) for k, v in module.options.items()}
        except Exception:
            pass
        config = config_values(config_names + extra_config_names)
        return {"t_start": t_start, "t_end": monotonic(), "name": str(getattr(module, "name", "?")),
                "device": "" if device is None else str(device),
                "block_dim": block_dim if isinstance(block_dim, int) else None,
                "full_hash": module_hash.hex() if isinstance(module_hash, (bytes, bytearray)) else "",
                "compiled": compiled, "kernels": describe_kernels(module), "options": options, "config": config,
                "cache": cache_state(), "stack": stack_of(frame), "trigger": site_of(frame)}

    def emit_load(kind, fields, error=None):
        if error is not None:
            fields["error"] = ("%s: %s" % (type(error).__name__, error)).replace("\n", " ")[:2000]
        emit(kind, fields)
        eager_snapshot()

    def flush_pending(error=None, thread=None):
        # A load that started but produced no executable: report it as failed.
        for tid in ([thread] if thread is not None else list(pending_loads)):
            ctx_ = pending_loads.pop(tid, None)
            if ctx_ is None:
                continue
            try:
                fields = load_fields(ctx_["module"], ctx_["device"], ctx_["block_dim"], ctx_["hash"],
                                     ctx_["compiled"], ctx_["t_start"], None)
                fields["stack"] = ctx_["stack"]
                fields["trigger"] = ctx_["trigger"]
                emit_load("load_error", fields, error if error is not None else RuntimeError(
                    "the load did not complete (no module executable was created)"))
            except Exception as e:
                fail("module loads", e)

    # ---- attach ------------------------------------------------------------------------------
    def attach(warp):
        info["warp_dir"] = _os.path.dirname(_os.path.abspath(warp.__file__)) + _os.sep
        refs["warp"] = warp
        config = getattr(warp, "config", None)
        refs["config"] = config
        info["warp_version"] = str(getattr(config, "version", "") or getattr(warp, "__version__", ""))
        ctx = _sys.modules.get("warp._src.context")
        if ctx is not None:
            info["api"] = "warp._src"
        else:
            ctx = _sys.modules.get("warp.context")
            info["api"] = "warp.context" if ctx is not None else None
        refs["ctx"] = ctx
        if ctx is None:
            note_missing("Warp internals (neither warp._src.context nor warp.context found)")
        info["mp_child"] = is_mp_child_by_argv()

        for step in (enable_timers, hook_modules, hook_loads, hook_launches, hook_cmd, hook_capture, hook_kernel,
                     hook_config, hook_cache_clears, hook_tape):
            try:
                step(warp, ctx, config)
            except Exception as e:
                fail(step.__name__.replace("hook_", "").replace("_", " "), e)
        try:
            import atexit

            atexit.register(final, "atexit")
            hooks.append("atexit")
        except Exception as e:
            fail("exit record at normal exit", e)
        try:
            hook_os_exit()
        except Exception as e:
            fail("os._exit", e)
        try:
            _os.register_at_fork(after_in_child=after_fork_child)
            hooks.append("fork")
        except Exception as e:
            fail("fork children", e)
        if info["mp_child"]:
            mp_child_hooks()
        emit_attach()

    def emit_attach():
        emit("attach", {"warp_version": info["warp_version"], "warp_dir": info["warp_dir"], "api": info["api"],
                        "timers": info["timers"], "hooks": list(hooks), "missing": list(missing)})

    def is_mp_child_by_argv():
        # A spawn/forkserver child imports the main module (and so warp) from inside
        # multiprocessing's bootstrap, before parent_process() is set and after its prepare()
        # restored the parent's argv: look at argv, then at the stack.
        try:
            if "--multiprocessing-fork" in _sys.argv:
                return True
            mp = _sys.modules.get("multiprocessing")
            if mp is not None and mp.parent_process() is not None:
                return True
            frame = getframe(1)
            while frame is not None:
                filename = frame.f_code.co_filename
                if "multiprocessing" in filename and filename.endswith(("spawn.py", "forkserver.py", "popen_fork.py",
                                                                       "process.py")):
                    return True
                frame = frame.f_back
        except Exception:
            pass
        return False

    def enable_timers(warp, ctx, config):
        # Module load and native compile timers, which the tool reads from Warp's log. Recent
        # Warp logs them at LOG_DEBUG (`verbose` is gone); older Warp prints them with `verbose`.
        if config is None:
            note_missing("compile timers (warp.config not found)")
        elif hasattr(config, "log_level") and hasattr(warp, "LOG_DEBUG"):
            if config.log_level > warp.LOG_DEBUG:
                config.log_level = warp.LOG_DEBUG
            info["timers"] = "log_level"
        elif hasattr(config, "verbose"):
            config.verbose = True
            info["timers"] = "verbose"
        else:
            note_missing("compile timers (no log_level or verbose in warp.config)")

    def rebind(original, replacement, name):
        # Warp's own modules may hold the function under its name (context's globals, the
        # public package, anything that imported it): point all of them at the wrapper.
        for module in list(_sys.modules.values()):
            module_name = getattr(module, "__name__", "") or ""
            if not (module_name == "warp" or module_name.startswith("warp.")):
                continue
            try:
                if module.__dict__.get(name) is original:
                    setattr(module, name, replacement)
            except Exception:
                pass

    def wrap_like(wrapper, original):
        for attr in ("__name__", "__qualname__", "__doc__", "__module__"):
            try:
                setattr(wrapper, attr, getattr(original, attr))
            except Exception:
                pass
        wrapper.__wrapped__ = original
        return wrapper

    # ---- modules and their options -----------------------------------------------------------
    option_codes = {"sms": None, "strip": None, "load": None, "kernel_wrappers": ()}

    def report_options(options, items, frame):
        try:
            code = frame.f_code
            if code in option_codes["kernel_wrappers"]:
                return  # the @wp.kernel wrapper reports these as api "kernel"
            if code is option_codes["load"]:
                return  # Warp's own bookkeeping on every launch (old Warp writes block_dim)
            if code is option_codes["strip"]:
                back = frame.f_back
                if back is not None and back.f_code is option_codes["sms"]:
                    return  # set_module_options reports strip_hash itself
            api = "set_module_options" if code is option_codes["sms"] else "module.options"
            module = options._wcp_module() if getattr(options, "_wcp_module", None) is not None else None
            target = str(getattr(module, "name", "?"))
            site = site_of(frame)
            if api == "set_module_options":
                # set_module_options itself lives in Warp: who called it decides (warp.fem and
                # warp.optim call it at import for their own modules).
                caller = frame.f_back
                while caller is not None and caller.f_code.co_filename == probe_file:
                    caller = caller.f_back
                by_warp = caller is not None and in_warp(caller.f_code.co_filename)
            else:
                by_warp = in_warp(code.co_filename)
            for key, value in items:
                emit("option_write", {"api": api, "target": target, "key": str(key), "value": repr(value),
                                      "site": site, "by_warp": by_warp})
        except Exception as e:
            fail("option writes", e)

    def adopt_options(module):
        options = module.__dict__.get("options")
        if type(options) is dict:
            wrapped = _WcpOptions(options)
            wrapped._wcp_module = weakref.ref(module)
            module.options = wrapped

    def hook_modules(warp, ctx, config):
        module_class = getattr(ctx, "Module", None)
        if module_class is None:
            note_missing("module creation (Module not found)")
            note_missing("module option writes (Module not found)")
            return
        sms = getattr(ctx, "set_module_options", None)
        option_codes["sms"] = getattr(sms, "__code__", None)
        option_codes["strip"] = getattr(getattr(module_class, "_set_strip_hash", None), "__code__", None)
        option_codes["load"] = getattr(getattr(module_class, "load", None), "__code__", None)
        original_init = module_class.__init__

        def __init__(self, *args, **kwargs):
            original_init(self, *args, **kwargs)
            try:
                adopt_options(self)
                emit("module_created", {"name": str(getattr(self, "name", "?")), "config": config_values(config_names),
                                        "options": {str(k): repr(v) for k, v in dict(self.options).items()},
                                        "site": site_of(getframe(1))})
            except Exception as e:
                fail("module creation", e)

        module_class.__init__ = wrap_like(__init__, original_init)
        hooks.append("Module.__init__")
        for module in list(getattr(ctx, "user_modules", {}).values()):
            try:
                adopt_options(module)
            except Exception:
                pass
        _WcpOptions._wcp_report = report_options
        hooks.append("Module.options")

    # ---- loads -------------------------------------------------------------------------------
    def hook_loads(warp, ctx, config):
        module_class = getattr(ctx, "Module", None)
        exec_class = getattr(ctx, "ModuleExec", None)
        load = getattr(module_class, "load", None)
        compile_name = "_compile" if hasattr(module_class, "_compile") else ("compile" if hasattr(module_class, "compile") else None)
        load_code = getattr(load, "__code__", None)
        names = getattr(load_code, "co_names", ())
        if load is None:
            note_missing("module loads (warp Module.load not found)")
            return
        if (exec_class is not None and compile_name == "_compile" and "_compile" in names
                and "ModuleExec" in names and isinstance(exec_class.__dict__.get("__init__"), type(load))):
            hook_exec_loads(module_class, exec_class, load_code)
        else:
            hook_load_wrapper(module_class, load, compile_name)

    def hook_exec_loads(module_class, exec_class, load_code):
        # Warp 1.19: Module.load() runs on every launch and returns early when loaded, so it is
        # not wrapped. A real load calls Module._compile() (cached or not) and then constructs
        # a ModuleExec, both from Module.load's own frame.
        original_compile = module_class._compile
        original_init = exec_class.__init__

        def _compile(self, *args, **kwargs):
            frame = getframe(1)
            if frame.f_code is not load_code:
                return original_compile(self, *args, **kwargs)
            tid = get_ident()
            try:
                if tid in pending_loads:
                    flush_pending(None, tid)
                local = frame.f_locals
                pending_loads[tid] = {"module": self, "t_start": monotonic(), "compiled": None,
                                      "device": local.get("device"), "block_dim": local.get("active_block_dim"),
                                      "hash": local.get("module_hash"), "stack": stack_of(frame),
                                      "trigger": site_of(frame)}
            except Exception as e:
                fail("module loads", e)
            try:
                result = original_compile(self, *args, **kwargs)
            except BaseException as error:
                flush_pending(error, tid)
                raise
            try:
                context = pending_loads.get(tid)
                if context is not None and isinstance(result, bool):
                    context["compiled"] = result
            except Exception:
                pass
            return result

        def __init__(self, *args, **kwargs):
            original_init(self, *args, **kwargs)
            try:
                frame = getframe(1)
                if frame.f_code is load_code:
                    local = frame.f_locals
                    module = local.get("self")
                    context = pending_loads.pop(get_ident(), None)
                    if context is not None and context["module"] is module:
                        t_start, compiled = context["t_start"], context["compiled"]
                    else:
                        t_start = monotonic()
                        compiled = False if local.get("binary_path") and context is None else None
                    emit_load("load", load_fields(module, getattr(self, "device", None),
                                                  getattr(self, "block_dim", local.get("active_block_dim")),
                                                  getattr(self, "module_hash", None), compiled, t_start, frame))
            except Exception as e:
                fail("module loads", e)

        module_class._compile = wrap_like(_compile, original_compile)
        exec_class.__init__ = wrap_like(__init__, original_init)
        hooks.extend(["Module._compile", "ModuleExec.__init__"])

    def hook_load_wrapper(module_class, original_load, compile_name):
        # Older Warp: wrap Module.load itself. Warp calls it on every launch, so this costs
        # a Python call per launch; only a new executable is a load worth recording.
        compiles = [0]
        seen = weakref.WeakSet()
        if compile_name is not None:
            original_compile = getattr(module_class, compile_name)

            def compile_(self, *args, **kwargs):
                compiles[0] += 1
                return original_compile(self, *args, **kwargs)

            setattr(module_class, compile_name, wrap_like(compile_, original_compile))
            hooks.append("Module." + compile_name)

        def first_time(result):
            if getattr(result, "_wcp_seen", False):
                return False
            try:
                result._wcp_seen = True
                return True
            except Exception:
                pass
            try:
                if result in seen:
                    return False
                seen.add(result)
                return True
            except TypeError as e:
                note_missing("module loads (cannot mark module executables: %s)" % type(e).__name__)
                return False

        def load(self, *args, **kwargs):
            t_start = monotonic()
            before = compiles[0]
            try:
                result = original_load(self, *args, **kwargs)
            except BaseException as error:
                try:
                    device = args[0] if args else kwargs.get("device")
                    emit_load("load_error", load_fields(self, device_name(device), None, None, None, t_start,
                                                        getframe(1)), error)
                except Exception as e:
                    fail("module loads", e)
                raise
            try:
                if result is not None and first_time(result):
                    block_dim = getattr(result, "block_dim", None)
                    if block_dim is None:
                        block_dim = self.options.get("block_dim")
                    emit_load("load", load_fields(self, getattr(result, "device", None), block_dim,
                                                  getattr(result, "module_hash", None),
                                                  (compiles[0] > before) if compile_name else None, t_start,
                                                  getframe(1)))
            except Exception as e:
                fail("module loads", e)
            return result

        module_class.load = wrap_like(load, original_load)
        hooks.append("Module.load")

    # ---- launches ----------------------------------------------------------------------------
    def binder_for(function, fallback=None):
        # Positions and defaults of the arguments the record needs, from the real signature,
        # computed once. A (*args, **kwargs) forwarder (launch_tiled) binds like what it forwards to.
        import inspect

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

    def fix_tape_caller(frame):
        # Warp's launch records its caller's frame on an active tape; through the wrapper that
        # frame would be ours, so put back the frame Warp would have seen.
        try:
            tape = refs["ctx"].runtime.tape
            last = tape.launches[-1] if tape is not None and tape.launches else None
            if isinstance(last, list) and isinstance(last[-1], dict):
                caller = last[-1].get("caller")
                if isinstance(caller, dict) and caller.get("file") == probe_file:
                    code = frame.f_code
                    last[-1]["caller"] = {"file": code.co_filename, "lineno": frame.f_lineno, "func": code.co_name}
        except Exception:
            pass

    def hook_launches(warp, ctx, config):
        import inspect

        original = getattr(warp, "launch", None) or getattr(ctx, "launch", None)
        if original is None:
            note_missing("launches via warp.launch (not found)")
            return
        bind = binder_for(original)
        tiled_original = getattr(warp, "launch_tiled", None) or getattr(ctx, "launch_tiled", None)
        dtype_of = _dtype_of
        # A launch that leaves block_dim to Warp is recorded with block_dim 0, whatever the
        # default is: Warp 1.9 writes 256 into its signature, 1.19 None. Without this the same
        # program would record a different workload under the two versions.
        try:
            default_block_dim = inspect.signature(original).parameters["block_dim"].default
        except (TypeError, ValueError, KeyError):
            default_block_dim = None
        if not isinstance(default_block_dim, int):
            default_block_dim = None

        def record(kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, record_tape, result, caller):
            # The generic path (any call shape the explicit wrapper below does not cover).
            nonlocal open_n, total
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
            dev = stream.device if stream is not None else (runtime.default_device if device is None else device)
            if dim.__class__ is not int:
                dim = _dim_key(dim)
            dtypes = tuple(map(dtype_of, inputs)) + tuple(map(dtype_of, outputs or ()))
            entry = capture_entry(dev, "launch") if capturing else "launch"
            key = (id(kernel), dim, dev, dtypes, block_dim, adjoint, entry)
            with lock:
                total += 1
                if key == last_key:
                    open_n += 1
                    if not total & 63:
                        maybe_snapshot()
                else:
                    new_signature(key, kernel, None, None, dim, dev, dtypes, block_dim, adjoint, entry)

        def launch_any(*args, **kwargs):
            try:
                result = original(*args, **kwargs)
            except BaseException as error:
                if pending_loads:
                    flush_pending(error, get_ident())
                raise
            try:
                kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, record_tape = bind(args, kwargs)
                record(kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, record_tape, result,
                       getframe(1))
            except Exception as e:
                count_unrecorded("launches via warp.launch (probe error: %s)" % type(e).__name__)
            return result

        # Fast path: when launch() has the signature this probe knows (Warp 1.9 to 1.19 do), a
        # wrapper with the same parameters and the very same default objects lets Python bind
        # the call in C (no *args/**kwargs repacking) and passes Warp identical arguments.
        known = ["kernel", "dim", "inputs", "outputs", "adj_inputs", "adj_outputs", "device", "stream", "adjoint",
                 "record_tape", "record_cmd", "max_blocks", "block_dim"]
        try:
            params = list(inspect.signature(original).parameters.values())
            explicit = ([p.name for p in params] == known
                        and all(p.kind == p.POSITIONAL_OR_KEYWORD for p in params)
                        and len(original.__defaults__ or ()) == len(known) - 2 and not original.__kwdefaults__)
        except (TypeError, ValueError, AttributeError):
            explicit = False
        R_DTYPE = _DTYPE_NAMES
        R_NONE = _NONES

        def launch(kernel, dim, inputs=(), outputs=(), adj_inputs=(), adj_outputs=(), device=None, stream=None,
                   adjoint=False, record_tape=True, record_cmd=False, max_blocks=0, block_dim=None):
            nonlocal open_n, total
            try:
                result = original(kernel, dim, inputs, outputs, adj_inputs, adj_outputs, device, stream, adjoint,
                                  record_tape, record_cmd, max_blocks, block_dim)
            except BaseException as error:
                if pending_loads:
                    flush_pending(error, get_ident())
                raise
            try:
                runtime = ctx.runtime
                if runtime.tape is not None and record_tape or tiled_threads or result is not None or capturing:
                    record(kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, record_tape, result,
                           getframe(1))
                    return result
                if stream is None:
                    dev = runtime.default_device if device is None else device
                else:
                    dev = stream.device
                if dim.__class__ is not int:
                    dim = _dim_key(dim)
                if block_dim == default_block_dim:
                    block_dim = None
                # No container is allocated for an identical launch (allocations drive the
                # garbage collector, which then costs more than the compare itself).
                if outputs or len(inputs) != 1:
                    dtypes = tuple(map(getattr, inputs, R_DTYPE, R_NONE)) + tuple(map(getattr, outputs, R_DTYPE, R_NONE))
                else:
                    dtypes = getattr(inputs[0], "dtype", None)
                kid = id(kernel)
                lock.acquire()  # read each time: a fork child gets a new lock
                try:
                    total += 1
                    if (kid == l_kid and dtypes == l_dtypes and dev is l_dev and dim == l_dim
                            and block_dim == l_block_dim and adjoint == l_adjoint and l_entry == "launch"):
                        open_n += 1
                        if not total & 63:
                            maybe_snapshot()
                    else:
                        new_signature((kid, dim, dev, dtypes, block_dim, adjoint, "launch"), kernel, None, None, dim,
                                      dev, dtypes, block_dim, adjoint, "launch")
                finally:
                    lock.release()
            except Exception as e:
                count_unrecorded("launches via warp.launch (probe error: %s)" % type(e).__name__)
            return result

        if explicit:
            launch.__defaults__ = original.__defaults__
        else:
            launch = launch_any
        wrap_like(launch, original)
        for owner in (warp, ctx):
            if owner is not None and getattr(owner, "launch", None) is original:
                setattr(owner, "launch", launch)
        rebind(original, launch, "launch")
        hooks.append("launch")

        if tiled_original is None:
            note_missing("launches via warp.launch_tiled (not found)")
            return
        tiled_bind = binder_for(tiled_original, original)

        def launch_tiled(*args, **kwargs):
            nonlocal open_n, total
            tid = get_ident()
            tiled_threads[tid] = tiled_threads.get(tid, 0) + 1
            try:
                result = tiled_original(*args, **kwargs)
            except BaseException as error:
                if pending_loads:
                    flush_pending(error, tid)
                raise
            finally:
                depth = tiled_threads.pop(tid, 1) - 1
                if depth:
                    tiled_threads[tid] = depth
            try:
                kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, _ = tiled_bind(args, kwargs)
                if result is not None:
                    remember_cmd(result, kernel, dim, device, stream, inputs, outputs, adjoint, block_dim)
                    return result
                runtime = ctx.runtime
                dev = stream.device if stream is not None else (runtime.default_device if device is None else device)
                if dim.__class__ is not int:
                    dim = _dim_key(dim)
                dtypes = tuple(map(dtype_of, inputs)) + tuple(map(dtype_of, outputs or ()))
                entry = capture_entry(dev, "launch_tiled") if capturing else "launch_tiled"
                key = (id(kernel), dim, dev, dtypes, block_dim, adjoint, entry)
                with lock:
                    total += 1
                    if key == last_key:
                        open_n += 1
                        if not total & 63:
                            maybe_snapshot()
                    else:
                        new_signature(key, kernel, None, None, dim, dev, dtypes, block_dim, adjoint, entry)
            except Exception as e:
                count_unrecorded("launches via warp.launch_tiled (probe error: %s)" % type(e).__name__)
            return result

        wrap_like(launch_tiled, tiled_original)
        for owner in (warp, ctx):
            if owner is not None and getattr(owner, "launch_tiled", None) is tiled_original:
                setattr(owner, "launch_tiled", launch_tiled)
        rebind(tiled_original, launch_tiled, "launch_tiled")
        hooks.append("launch_tiled")

    # ---- record_cmd launches replayed with Launch.launch() -------------------------------------
    cmd_info = weakref.WeakKeyDictionary()

    def remember_cmd(launch_object, kernel, dim, device, stream, inputs, outputs, adjoint, block_dim):
        # record_cmd=True runs nothing: keep the signature for each later .launch().
        try:
            dtypes = tuple(map(_dtype_of, inputs)) + tuple(map(_dtype_of, outputs or ()))
            dev = getattr(launch_object, "device", None)
            if dev is None:
                dev = stream.device if stream is not None else device
            cmd_info[launch_object] = (kernel, _dim_key(dim) if dim.__class__ is not int else dim, dtypes, block_dim,
                                       adjoint, getattr(launch_object, "bounds", None))
        except Exception as e:
            fail("record_cmd launches", e)

    def hook_cmd(warp, ctx, config):
        launch_class = getattr(ctx, "Launch", None)
        original = getattr(launch_class, "launch", None)
        if original is None:
            note_missing("launches via Launch.launch (not found)")
            return

        def launch(self, *args, **kwargs):
            nonlocal open_n, total
            result = original(self, *args, **kwargs)
            try:
                known = cmd_info.get(self)
                if known is None:
                    # Built without wp.launch(record_cmd=True): rebuild from its fields.
                    bounds = getattr(self, "bounds", None)
                    known = (self.kernel, launch_dims(bounds), tuple(map(_dtype_of, getattr(self, "fwd_args", None) or ())),
                             getattr(self, "block_dim", None), getattr(self, "adjoint", False), bounds)
                    cmd_info[self] = known
                kernel, dim, dtypes, block_dim, adjoint, bounds = known
                if bounds is not None and getattr(self, "bounds", bounds) is not bounds:
                    dim = launch_dims(self.bounds)  # set_dim() since it was recorded
                dev = self.device
                entry = capture_entry(dev, "cmd") if capturing else "cmd"
                key = (id(kernel), dim, dev, dtypes, block_dim, adjoint, entry)
                with lock:
                    total += 1
                    if key == last_key:
                        open_n += 1
                        if not total & 63:
                            maybe_snapshot()
                    else:
                        new_signature(key, kernel, None, None, dim, dev, dtypes, block_dim, adjoint, entry)
            except Exception as e:
                count_unrecorded("launches via Launch.launch (probe error: %s)" % type(e).__name__)
            return result

        launch_class.launch = wrap_like(launch, original)
        hooks.append("Launch.launch")

    def launch_dims(bounds):
        # Warp's launch bounds: the dims padded or folded to the kernel's dimensionality.
        try:
            shape = bounds.shape
            return tuple(int(x) for x in shape[:getattr(bounds, "ndim", len(shape))])
        except Exception:
            return ()

    # ---- graph capture and replay ------------------------------------------------------------
    graph_numbers = weakref.WeakKeyDictionary()
    graph_counts = weakref.WeakKeyDictionary()
    graph_serial = [0]

    def capture_entry(dev, entry):
        try:
            if isinstance(dev, str) or dev is None:
                dev = refs["ctx"].runtime.get_device(dev)
            if dev.is_capturing:
                name = str(dev)
                capture_counts[name] = capture_counts.get(name, 0) + 1
                return "capture"
        except Exception:
            pass
        return entry

    def hook_capture(warp, ctx, config):
        begin = getattr(ctx, "capture_begin", None)
        end = getattr(ctx, "capture_end", None)
        replay = getattr(ctx, "capture_launch", None)
        if begin is None or end is None:
            note_missing("launches during graph capture (capture_begin/capture_end not found)")
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
                        name = str(getattr(graph, "device", ""))
                        graph_counts[graph] = capture_counts.pop(name, 0)
                except Exception as e:
                    fail("graph capture", e)
                return graph

            for name, original, wrapper in (("capture_begin", begin, capture_begin), ("capture_end", end, capture_end)):
                wrap_like(wrapper, original)
                for owner in (warp, ctx):
                    if getattr(owner, name, None) is original:
                        setattr(owner, name, wrapper)
                rebind(original, wrapper, name)
                hooks.append(name)
        if replay is None:
            note_missing("launches via warp.capture_launch (not found)")
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

        wrap_like(capture_launch, replay)
        for owner in (warp, ctx):
            if getattr(owner, "capture_launch", None) is replay:
                setattr(owner, "capture_launch", capture_launch)
        rebind(replay, capture_launch, "capture_launch")
        hooks.append("capture_launch")

    # ---- per-kernel options given at @wp.kernel(...) -------------------------------------------
    def hook_kernel(warp, ctx, config):
        original = getattr(warp, "kernel", None)
        if original is None:
            note_missing("per-kernel options (warp.kernel not found)")
            return
        code_type = type(original.__code__)
        option_codes["kernel_wrappers"] = tuple(c for c in original.__code__.co_consts if isinstance(c, code_type))

        def report(kernel, kwargs, frame):
            try:
                target = str(getattr(getattr(kernel, "module", None), "name", "?"))
                key_ = str(getattr(kernel, "key", "?"))
                site = site_of(frame)
                for name, value in kwargs.items():
                    if name in ("f", "name", "module") or value is None:
                        continue
                    if name == "module_options" and isinstance(value, dict):
                        for option, option_value in value.items():
                            emit("option_write", {"api": "kernel", "target": target, "key": str(option),
                                                  "value": repr(option_value), "site": site, "kernel": key_,
                                                  "scope": "module", "by_warp": in_warp(frame.f_code.co_filename)})
                    else:
                        emit("option_write", {"api": "kernel", "target": target, "key": name, "value": repr(value),
                                              "site": site, "kernel": key_, "scope": "kernel",
                                              "by_warp": in_warp(frame.f_code.co_filename)})
            except Exception as e:
                fail("per-kernel options", e)

        def kernel(*args, **kwargs):
            result = original(*args, **kwargs)
            if not kwargs or (kwargs.keys() <= {"f"}):
                return result
            if args or "f" in kwargs:
                report(result, kwargs, getframe(1))
                return result
            decorator = result

            def apply(*a, **kw):
                made = decorator(*a, **kw)
                report(made, kwargs, getframe(1))
                return made

            return wrap_like(apply, decorator)

        wrap_like(kernel, original)
        for owner in (warp, ctx):
            if getattr(owner, "kernel", None) is original:
                setattr(owner, "kernel", kernel)
        hooks.append("kernel")

    # ---- warp.config assignments --------------------------------------------------------------
    def hook_config(warp, ctx, config):
        import types

        if config is None:
            note_missing("warp.config writes (warp.config not found)")
            return
        base = type(config)
        if not issubclass(base, types.ModuleType):
            note_missing("warp.config writes (warp.config is not a module)")
            return
        base_setattr = base.__setattr__

        class ConfigModule(base):
            # Chains to the original __setattr__ first, so Warp's validation raises as before.
            def __setattr__(self, name, value):
                base_setattr(self, name, value)
                try:
                    frame = getframe(1)
                    emit("option_write", {"api": "config", "target": "warp.config", "key": name,
                                          "value": repr(value), "site": site_of(frame),
                                          "by_warp": in_warp(frame.f_code.co_filename)})
                except Exception as e:
                    fail("warp.config writes", e)

        ConfigModule.__name__ = base.__name__
        ConfigModule.__qualname__ = base.__qualname__
        config.__class__ = ConfigModule
        hooks.append("config")

    # ---- cache clears and the tape -------------------------------------------------------------
    def hook_cache_clears(warp, ctx, config):
        build = _sys.modules.get("warp._src.build") or _sys.modules.get("warp.build")
        for name in ("clear_kernel_cache", "clear_lto_cache"):
            original = getattr(warp, name, None) or getattr(build, name, None)
            if original is None:
                note_missing("cache clears via warp.%s (not found)" % name)
                continue

            def make(original, name):
                def clear(*args, **kwargs):
                    try:
                        emit("cache_clear", {"what": name, "site": site_of(getframe(1))})
                    except Exception:
                        pass
                    return original(*args, **kwargs)

                return wrap_like(clear, original)

            wrapper = make(original, name)
            for owner in (warp, build):
                if owner is not None and getattr(owner, name, None) is original:
                    setattr(owner, name, wrapper)
            rebind(original, wrapper, name)
            hooks.append(name)

    def hook_tape(warp, ctx, config):
        tape_class = getattr(warp, "Tape", None)
        original = getattr(tape_class, "backward", None)
        if original is None:
            note_missing("tape backward (warp.Tape.backward not found)")
            return

        def backward(self, *args, **kwargs):
            try:
                keys = sorted({str(getattr(item[0], "key", "?")) for item in getattr(self, "launches", [])
                               if isinstance(item, (list, tuple)) and item})
                emit("tape_backward", {"kernels": keys})
            except Exception:
                pass
            return original(self, *args, **kwargs)

        tape_class.backward = wrap_like(backward, original)
        hooks.append("Tape.backward")

    # ---- the end of a process -------------------------------------------------------------------
    def final(how):
        nonlocal final_done, lock
        if final_done:
            return
        final_done = True
        acquired = False
        try:
            # Another thread may hold the lock forever (os._exit from a thread); do not wait long.
            acquired = lock.acquire(timeout=1.0)
            if not acquired:
                lock = threading.RLock()
            if pending_loads:
                flush_pending()
            write_snapshot(True)
            config = refs["config"]
            runtime = getattr(refs["ctx"], "runtime", None)
            toolkit = getattr(runtime, "toolkit_version", None) if runtime is not None else None
            emit("exit", {"how": how, "missing": list(missing),
                          "kernel_cache_dir": str(getattr(config, "kernel_cache_dir", "")),
                          "cache_kernels": bool(getattr(config, "cache_kernels", True)),
                          "use_precompiled_headers": getattr(config, "use_precompiled_headers", None),
                          "cuda_toolkit": ".".join(str(p) for p in toolkit) if isinstance(toolkit, tuple) else "",
                          "environ": {"CUDA_CACHE_DISABLE": _os.environ.get("CUDA_CACHE_DISABLE"),
                                      "WARP_CACHE_PATH": _os.environ.get("WARP_CACHE_PATH")}})
        except Exception:
            pass
        finally:
            if acquired:
                lock.release()

    def hook_os_exit():
        original = _os._exit

        def _exit(*args, **kwargs):
            try:
                if _os.getpid() == pid:
                    final("os._exit")
            except BaseException:
                pass
            original(*args, **kwargs)

        _os._exit = wrap_like(_exit, original)
        hooks.append("os._exit")

    def mp_child_hooks():
        # Pool.terminate() (and `with Pool(...)`) ends workers with SIGTERM, which loses
        # whatever the worker recorded since its last snapshot. A Python SIGTERM handler would
        # write it, but it is not safe: Python runs the handler only when the main thread runs
        # bytecode, and a worker blocked on the task queue's semaphore when the signal arrives
        # (the race the tests caught) or whose signal lands on another thread (OpenBLAS starts
        # some) then never dies, and the pool hangs in join(). So, by default, a worker writes
        # its snapshot each time it goes back to wait for a task instead: nothing is lost when
        # it is terminated while idle. The handler stays available with WCP_MP_SIGTERM=1.
        try:
            import multiprocessing.queues as queues

            def before(original):
                def method(self, *args, **kwargs):
                    try:
                        eager_snapshot()
                    except Exception:
                        pass
                    return original(self, *args, **kwargs)

                method._wcp_idle = True
                return wrap_like(method, original)

            # A pool worker puts each result (the parent may terminate it as soon as it has
            # them all) and then gets the next task: snapshot before both.
            for name in ("put", "get"):
                for queue_class in (queues.SimpleQueue, queues.Queue):
                    original = queue_class.__dict__.get(name)
                    if original is not None and not getattr(original, "_wcp_idle", False):
                        setattr(queue_class, name, before(original))
            if "multiprocessing idle snapshots" not in hooks:
                hooks.append("multiprocessing idle snapshots")
        except Exception as e:
            fail("multiprocessing idle snapshots", e)
        if _os.environ.get("WCP_MP_SIGTERM") == "1":
            install_sigterm()

    def install_sigterm():
        # Opt-in (see mp_child_hooks): write the final snapshot on SIGTERM, then die of SIGTERM.
        nonlocal sigterm_installed
        try:
            import signal

            if signal.getsignal(signal.SIGTERM) != signal.SIG_DFL:
                return

            def on_sigterm(signum, frame):
                try:
                    final("SIGTERM")
                except BaseException:
                    pass
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                _os.kill(_os.getpid(), signal.SIGTERM)

            signal.signal(signal.SIGTERM, on_sigterm)
            sigterm_installed = True
            if "SIGTERM" not in hooks:
                hooks.append("SIGTERM")
        except Exception as e:
            fail("SIGTERM in multiprocessing children", e)

    def after_fork_child():
        # A fork child is a new process: its own file, an empty launch record.
        nonlocal lock, pid, forked_from, fd, record, signatures, sig_by_value, sig_cache, last_key, open_sig
        nonlocal open_n, total, snap_total, snap_t, snap_interval, final_done, unrecorded, capturing, l_kid
        try:
            forked_from = pid
            pid = _os.getpid()
            if fd is not None:
                try:
                    _os.close(fd)
                except OSError:
                    pass
            fd = None
            lock = threading.RLock()
            record = _WcpLaunchRecord()
            signatures, sig_by_value, sig_cache = [], {}, {}
            last_key, open_sig, open_n, total, l_kid = None, -1, 0, 0, None
            snap_total, snap_t, snap_interval = 0, 0.0, 0.5
            final_done = False
            unrecorded = {}
            pending_loads.clear()
            capture_counts.clear()
            tiled_threads.clear()
            capturing = 0
            frame = getframe(1)
            mp_child = False
            while frame is not None:
                if "multiprocessing" in frame.f_code.co_filename:
                    mp_child = True
                    break
                frame = frame.f_back
            info["mp_child"] = mp_child or is_mp_child_by_argv()
            if info["mp_child"]:
                mp_child_hooks()
            emit_attach()
        except Exception:
            pass

    # ---- import watcher ----------------------------------------------------------------------
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
                except Exception as e:
                    fail("attach", e)
                    emit_attach()

            try:
                spec.loader.exec_module = exec_module
            except Exception:
                pass
            return spec

    # Test-only fault injection (tests/python): WCP_PROBE_FAULT=record,load,site,emit,attach
    # makes the probe's own helpers raise, to prove that a failing hook stays inside the probe.
    faults = set(filter(None, _os.environ.get("WCP_PROBE_FAULT", "").split(",")))
    if faults:
        def injected(*args, **kwargs):
            raise RuntimeError("injected probe fault")

        if "record" in faults:
            new_signature = injected  # noqa: F811
        if "load" in faults:
            load_fields = injected  # noqa: F811
        if "site" in faults:
            site_of = injected  # noqa: F811
        if "emit" in faults:
            dumps = injected  # noqa: F811
        if "attach" in faults:
            hook_launches = hook_loads = hook_modules = injected  # noqa: F811

    _sys.meta_path.insert(0, WarpImportWatcher())


def _dtype_of(x):
    return getattr(x, "dtype", None)


# For tuple(map(getattr, args, _DTYPE_NAMES, _NONES)): every argument's dtype (or None) in C.
_DTYPE_NAMES = __import__("itertools").repeat("dtype")
_NONES = __import__("itertools").repeat(None)


def _dim_key(dim):
    # A launch dim as a hashable value that cannot change under us (the caller may reuse a list).
    try:
        return tuple(dim)
    except TypeError:
        return dim


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


if __name__ == "sitecustomize":
    try:
        _wcp_install()
    except Exception:
        pass
    _wcp_chain_user_sitecustomize()
