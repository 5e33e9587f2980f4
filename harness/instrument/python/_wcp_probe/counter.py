# The count of one launch on the fast path (docs/instrumentation.md, "The launch counter"): the
# device Warp launched on, hashable dims and every argument's dtype, compared with the previous
# launch this counter counted and counted under the lock; a launch that differs takes the
# Launches object's slow path (new_signature). count() answers False, having changed nothing,
# for what the general path of launches.py records instead: a tape, a capture, launch_tiled's
# fallback, launch bounds as dims, arguments that are not a list or tuple.
#
# The counter is native (harness/instrument/native/fastlaunch.c, shipped as _fastlaunch) where
# the interpreter can load it: there the Launches object's hot fields are struct members of its
# native base, State, and the probe's lock is wrapped in a native Lock that shows whether anyone
# holds it, so that an identical launch is counted without taking it. PyCounter and PyState are
# the same in Python, for any other interpreter, and the specification the native ones are
# tested against (tests/python/test_counter.py).
import collections
import itertools
import sys

# For tuple(map(getattr, args, DTYPE_NAMES, NONES)): every argument's dtype (or None) in C.
DTYPE_NAMES = itertools.repeat("dtype")
NONES = itertools.repeat(None)
# The same for a list or tuple of up to MAX_UNROLLED arguments, unrolled: DTYPES_OF[n](args) is
# a tuple of n getattr calls, about half of what map() and tuple() cost for many arguments.
MAX_UNROLLED = 16
DTYPES_OF = [eval("lambda s: (%s)" % "".join("getattr(s[%d], 'dtype', None), " % i for i in range(n)),
                  {"getattr": getattr}) for n in range(MAX_UNROLLED + 1)]


def dtypes_of(args):
    """Every argument's dtype (None for a Python scalar or None), as a tuple."""
    if (args.__class__ is list or args.__class__ is tuple) and len(args) <= MAX_UNROLLED:
        return DTYPES_OF[len(args)](args)
    return tuple(map(getattr, args, DTYPE_NAMES, NONES))


def launch_dtypes(inputs, outputs):
    """Every argument's dtype (None for a Python scalar), inputs then outputs, as one tuple."""
    return dtypes_of(inputs) + dtypes_of(outputs) if outputs else dtypes_of(inputs)


Native = collections.namedtuple("Native", "State Lock Counter Forwarder")


def native_types(probe):
    """The native types, or None where this interpreter cannot load them (built for the limited
    API of CPython 3.10: an older one, PyPy, a free-threaded build, no build) or a test turned
    them off (WCP_PROBE_FAULT=python-counter)."""
    if "python-counter" in probe.faults or sys.version_info < (3, 10) or sys.implementation.name != "cpython":
        return None
    try:
        from ._fastlaunch import Counter, Forwarder, Lock, State
    except Exception:  # ImportError, or an OSError from a .so this platform cannot load
        return None
    return Native(State, Lock, Counter, Forwarder)


class PyState:
    """The launch record's hot fields (lock, total, open_n, last_key, capturing): plain
    attributes here, struct members in the native State. Launches.reset() sets them."""

    def count_repeat(self, key):
        """The native State counts a launch whose key is last_key here, without the lock, where
        nobody holds it; in Python the caller's locked path always does."""
        return False

    def count_cmd_repeat(self, cmd):
        """The native State counts a replay of the Launch object cached below, unchanged, here;
        in Python launches.py's count_cmd always does."""
        return False

    # The native State's cache_cmd_repeat(cmd, device, bounds, key): the replay count_cmd_repeat
    # counts while key is last_key. None here: count_cmd skips it.
    cache_cmd_repeat = None


class PyCounter:
    """Counts identical launches into a Launches object: the native Counter, in Python."""

    def __init__(self, state, ctx, default_block_dim, tiled_threads, entry, is_launch):
        self.state, self.ctx, self.default_block_dim = state, ctx, default_block_dim
        self.tiled_threads, self.entry, self.is_launch = tiled_threads, entry, is_launch
        # The previous launch counted here, valid while state.last_key is l_key.
        self.l_key = self.l_kid = self.l_dim = self.l_dev = self.l_dtypes = self.l_block_dim = self.l_adjoint = None

    def count(self, kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, record_tape):
        """True when the launch was counted, False when the general path must record it."""
        if block_dim == self.default_block_dim:
            block_dim = None
        state = self.state
        if state.capturing:
            return False
        runtime = self.ctx.runtime
        if self.is_launch and (self.tiled_threads or runtime.tape is not None and record_tape):
            return False
        dev = (runtime.default_device if device is None else device) if stream is None else stream.device
        if dim.__class__ is list:
            dim = tuple(dim)  # the caller may change its list later
        elif dim.__class__ is not int and dim.__class__ is not tuple:
            return False
        if (inputs.__class__ is not list and inputs.__class__ is not tuple
                or outputs.__class__ is not list and outputs.__class__ is not tuple):
            return False
        dtypes = getattr(inputs[0], "dtype", None) if not outputs and len(inputs) == 1 else launch_dtypes(inputs,
                                                                                                          outputs)
        kid = id(kernel)
        lock = state.lock
        lock.acquire()  # not `with`: its method lookups cost more than the compare below
        try:
            total = state.total = state.total + 1
            # A device named by a string that is equal but not the same object (built per call,
            # e.g. f"cuda:{i}") is the same device: compare strings by value.
            if (self.l_key is not None and self.l_key is state.last_key and kid == self.l_kid and dim == self.l_dim
                    and dtypes == self.l_dtypes and (dev is self.l_dev or dev.__class__ is str and dev == self.l_dev)
                    and block_dim == self.l_block_dim and adjoint == self.l_adjoint):
                if dev is not self.l_dev or block_dim is not self.l_block_dim or adjoint is not self.l_adjoint:
                    # Equal, not the same object (a device string after the Device it names): the
                    # next launch like this one is compared with this one.
                    self.l_dev, self.l_block_dim, self.l_adjoint = dev, block_dim, adjoint
                state.open_n += 1
                if not total & 63:
                    state.maybe_snapshot()
            else:
                key = (kid, dim, dev, dtypes, block_dim, adjoint, self.entry)
                state.new_signature(key, kernel, None, None, dim, dev, dtypes, block_dim, adjoint, self.entry)
                if state.last_key is key:
                    self.l_key, self.l_kid, self.l_dim, self.l_dev = key, kid, dim, dev
                    self.l_dtypes, self.l_block_dim, self.l_adjoint = dtypes, block_dim, adjoint
        finally:
            lock.release()
        return True
