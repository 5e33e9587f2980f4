"""The launch counter (harness/instrument/python/_wcp_probe/counter.py) and its native form
(harness/instrument/native/fastlaunch.c): the same launches, counted by both, must leave the
same record state, call the slow path with the same arguments, answer the same, and raise the
same errors. No Warp needed: the state, runtime and arguments are stand-ins with the fields
the counter reads.

The native tests need the build's module (WCP_FASTLAUNCH, set by CTest); where CTest says the
build has one (WCP_EXPECT_NATIVE) a missing or unloadable module fails, else they skip.
"""
import functools
import sys
import threading

import pytest

from conftest import NATIVE_EXPECTED, NATIVE_MODULE, load_probe_module

counter = load_probe_module("counter")


def native_module():
    if NATIVE_MODULE is None:
        if NATIVE_EXPECTED:
            pytest.fail("WCP_EXPECT_NATIVE is set but the build's _fastlaunch module is missing", pytrace=False)
        pytest.skip("no native launch counter in this build (no Python headers)")
    return load_probe_module("_fastlaunch")


class Calls:
    """What the state's Python methods were asked, in order."""

    def __init__(self):
        self.log = []


def make_state(base, lock_type=None, remember=True):
    """A Launches stand-in on `base` (PyState or the native State): new_signature logs its
    arguments and makes the key last_key (unless `remember` is False, as for a dead kernel)."""
    calls = Calls()

    class State(base):
        def new_signature(self, key, kernel, name, module, dim, dev, dtypes, block_dim, adjoint, entry):
            calls.log.append(("new", key[0] == id(kernel), key[1:], name, module, dim, dev, dtypes, block_dim,
                              adjoint, entry))
            if self.open_n:
                calls.log.append(("close", self.open_n))
            self.open_n = 1
            self.last_key = key if remember else None

        def maybe_snapshot(self):
            calls.log.append(("snapshot", self.total))

    state = State()
    state.lock = threading.RLock() if lock_type is None else lock_type(threading.RLock())
    state.total = state.open_n = state.capturing = 0
    state.last_key = None
    return state, calls


class Runtime:
    def __init__(self):
        self.tape = None
        self.default_device = "cpu"


class Ctx:
    def __init__(self):
        self.runtime = Runtime()


class Array:
    def __init__(self, dtype):
        self.dtype = dtype


class Struct:
    """No dtype, as a Warp struct instance."""


class Vec3:
    pass


class Stream:
    def __init__(self, device):
        self.device = device


def kernel_a():
    pass


def kernel_b():
    pass


A, B, C = Array(float), Array(int), Array(Vec3)
STRUCT = Struct()
CPU = object()  # a Device object: compared by identity
STREAM = Stream("cuda:0")

# (kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, record_tape)
LAUNCHES = [
    (kernel_a, 16, [A], (), "cpu", None, False, None, True),
    (kernel_a, 16, [A], (), "cpu", None, False, None, True),
    (kernel_a, 16, [A], (), "".join(["c", "pu"]), None, False, None, True),  # equal string, another object
    (kernel_a, 16, [A], (), CPU, None, False, None, True),
    (kernel_a, 16, [A], (), CPU, None, False, None, True),
    (kernel_a, 16, [A], (), None, None, False, None, True),  # the runtime's default device
    (kernel_a, 16, [A], (), None, STREAM, False, None, True),  # the stream's device
    (kernel_a, [4, 4], (A,), (), "cpu", None, False, None, True),  # a list dim, a tuple of inputs
    (kernel_a, (4, 4), (A,), (), "cpu", None, False, None, True),
    (kernel_b, 16, [A, B, C, 1.5, 7, True, None, STRUCT], [A], "cpu", None, False, None, True),
    (kernel_b, 16, [A, B, C, 1.5, 7, True, None, STRUCT], [A], "cpu", None, False, None, True),
    (kernel_b, 16, [A, B, C, 2.5, 8, False, None, STRUCT], [A], "cpu", None, False, None, True),
    (kernel_b, 16, [A, A, C, 2.5, 8, False, None, STRUCT], [A], "cpu", None, False, None, True),  # a dtype
    (kernel_b, 16, [STRUCT, A], (), "cpu", None, False, 64, True),
    (kernel_b, 16, [STRUCT, A], (), "cpu", None, False, 256, True),  # the default block_dim: as None
    (kernel_b, 16, [STRUCT, A], (), "cpu", None, False, None, True),
    (kernel_b, 16, [STRUCT, A], (), "cpu", None, True, None, True),  # adjoint
    (kernel_a, 16, [], (), "cpu", None, False, None, True),
    (kernel_a, 16, [A], [B], "cpu", None, False, None, True),
] + [(kernel_a, 8, [A], (), "cpu", None, False, None, True)] * 130  # snapshots every 64 launches


def replay(make_counter, state, ctx, launches, default_block_dim=256, is_launch=True):
    count = make_counter(state, ctx, default_block_dim, {}, "launch", is_launch).count
    return [count(*launch) for launch in launches]


def both(native, launches, **options):
    """The answers, final fields and method calls of the Python and the native counter."""
    results = []
    for make, base, lock in ((counter.PyCounter, counter.PyState, None), (native.Counter, native.State, native.Lock)):
        state, calls = make_state(base, lock)
        answers = replay(make, state, Ctx(), launches, **options)
        results.append((answers, state.total, state.open_n, calls.log))
    return results


def test_the_python_counter_counts_repeats_and_takes_the_slow_path_for_the_rest():
    state, calls = make_state(counter.PyState)
    answers = replay(counter.PyCounter, state, Ctx(), LAUNCHES)
    assert all(answers)
    assert state.total == len(LAUNCHES)
    news = [entry for entry in calls.log if entry[0] == "new"]
    # Counted in place: LAUNCHES[1, 2, 4, 8, 10, 11, 15] (an equal device string, equal dims from
    # a list and a tuple, other scalar values of the same dtype, block_dim 256 after 64 then None)
    # and 129 of the run of 130; the other 12 and the run's first are new.
    assert len(news) == 13
    assert [entry[1] for entry in calls.log if entry[0] == "snapshot"] == [64, 128]
    assert news[0][1] and news[0][2] == (16, "cpu", float, None, False, "launch")
    assert news[5][7] == (float, int, Vec3, None, None, None, None, None, float)  # scalars and a struct: None
    assert [entry[8] for entry in news[7:10]] == [64, None, None]  # block_dim 256 is the default: None


def test_native_and_python_counters_agree_on_every_shape():
    native = native_module()
    python_result, native_result = both(native, LAUNCHES)
    assert native_result == python_result


def test_a_list_dim_is_copied_so_a_later_change_is_a_new_launch():
    native = native_module()
    dim = [4, 4]
    launches = [(kernel_a, dim, [A], (), "cpu", None, False, None, True)]
    for make, base, lock in ((counter.PyCounter, counter.PyState, None), (native.Counter, native.State, native.Lock)):
        state, calls = make_state(base, lock)
        count = make(state, Ctx(), None, {}, "launch", True).count
        count(*launches[0])
        dim.append(2)
        count(*launches[0])
        dim.pop()
        assert [entry[2][0] for entry in calls.log if entry[0] == "new"] == [(4, 4), (4, 4, 2)], make


@pytest.mark.parametrize("case", ["tape", "capture", "tiled", "bounds", "not a list", "outputs not a list"])
def test_the_general_path_is_left_what_the_counter_cannot_take(case):
    native = native_module()
    for make, base, lock in ((counter.PyCounter, counter.PyState, None), (native.Counter, native.State, native.Lock)):
        state, calls = make_state(base, lock)
        ctx, tiled = Ctx(), {}
        launch = [kernel_a, 16, [A], (), "cpu", None, False, None, True]
        if case == "tape":
            ctx.runtime.tape = object()
        elif case == "capture":
            state.capturing = 1
        elif case == "tiled":
            tiled[threading.get_ident()] = 1
        elif case == "bounds":
            launch[1] = object()
        elif case == "not a list":
            launch[2] = iter([A])
        else:
            launch[3] = {A}
        assert make(state, ctx, None, tiled, "launch", True).count(*launch) is False, make
        assert (state.total, calls.log) == (0, []), make
        if case == "tape":  # a launch that is not recorded on the tape is the counter's again
            launch[8] = False
            assert make(state, ctx, None, tiled, "launch", True).count(*launch) is True
        if case == "tiled":  # only wp.launch's counter leaves launch_tiled's fallback alone
            assert make(state, ctx, None, tiled, "launch_tiled", False).count(*launch) is True


def test_an_error_reading_a_dtype_propagates_from_both_and_counts_nothing():
    native = native_module()

    class Broken:
        @property
        def dtype(self):
            raise ValueError("broken dtype")

    for make, base, lock in ((counter.PyCounter, counter.PyState, None), (native.Counter, native.State, native.Lock)):
        state, _ = make_state(base, lock)
        with pytest.raises(ValueError, match="broken dtype"):
            make(state, Ctx(), None, {}, "launch", True).count(kernel_a, 16, [Broken()], (), "cpu", None, False,
                                                              None, True)
        assert state.total == 0


def test_a_new_signature_that_is_not_remembered_is_never_matched():
    # A kernel that dies (or any path) resets last_key: the next launch takes the slow path again.
    native = native_module()
    for make, base, lock in ((counter.PyCounter, counter.PyState, None), (native.Counter, native.State, native.Lock)):
        state, calls = make_state(base, lock, remember=False)
        replay(make, state, Ctx(), [LAUNCHES[0]] * 3)
        assert [entry[0] for entry in calls.log].count("new") == 3, make


def test_another_path_replacing_last_key_makes_the_next_launch_new():
    native = native_module()
    for make, base, lock in ((counter.PyCounter, counter.PyState, None), (native.Counter, native.State, native.Lock)):
        state, calls = make_state(base, lock)
        count = make(state, Ctx(), None, {}, "launch", True).count
        count(*LAUNCHES[0])
        state.last_key = ("graph", 1)  # e.g. a graph replay counted in between
        count(*LAUNCHES[0])
        assert [entry[0] for entry in calls.log].count("new") == 2, make


def test_the_native_lock_counts_its_holder_and_behaves_as_the_rlock_it_wraps():
    native = native_module()
    lock = native.Lock(threading.RLock())
    assert lock.depth() == 0
    with lock:
        with lock:
            assert lock.depth() == 2
        assert lock.depth() == 1
    assert lock.acquire(timeout=1.0) is True and lock.depth() == 1
    lock.release()
    with pytest.raises(RuntimeError):
        lock.release()  # the RLock's own error; the depth stays 0
    assert lock.depth() == 0
    held = threading.Event()
    done = threading.Event()

    def hold():
        with lock:
            held.set()
            done.wait(10)

    worker = threading.Thread(target=hold)
    worker.start()
    held.wait(10)
    assert lock.acquire(False) is False and lock.depth() == 1  # held by the other thread
    done.set()
    worker.join()
    assert lock.depth() == 0


def test_a_held_lock_makes_the_native_counter_wait_for_it():
    # While another thread holds the probe's lock (inside new_signature, a snapshot), an identical
    # launch must not be counted around it: the count waits and lands after.
    native = native_module()
    state, _ = make_state(native.State, native.Lock)
    count = native.Counter(state, Ctx(), None, {}, "launch", True).count
    count(*LAUNCHES[0])
    held, release = threading.Event(), threading.Event()
    seen = []

    def hold():
        with state.lock:
            held.set()
            release.wait(10)
            seen.append(state.total)

    worker = threading.Thread(target=hold)
    worker.start()
    held.wait(10)
    counting = threading.Thread(target=lambda: count(*LAUNCHES[0]))
    counting.start()
    counting.join(0.3)
    assert counting.is_alive()  # waiting for the lock
    release.set()
    worker.join()
    counting.join(10)
    assert seen == [1] and state.total == 2 and state.open_n == 2


def test_count_repeat_counts_only_the_last_key_and_only_with_the_lock_free():
    native = native_module()
    state, calls = make_state(native.State, native.Lock)
    key = ("k",)
    assert state.count_repeat(key) is False  # not last_key
    state.last_key, state.open_n = key, 1
    assert state.count_repeat(key) is True and (state.total, state.open_n) == (1, 2)
    with state.lock:
        assert state.count_repeat(key) is False  # held: the caller's locked path counts it
    state.total = 62
    assert state.count_repeat(key) is True
    assert state.count_repeat(key) is False  # the 64th: a snapshot is due, under the lock
    assert calls.log == []
    assert counter.PyState().count_repeat(key) is False


class CountingLock:
    """An RLock that counts how often it was taken (wrapped in the native Lock)."""

    def __init__(self):
        self.inner, self.taken = threading.RLock(), 0

    def acquire(self, *args, **kwargs):
        self.taken += 1
        return self.inner.acquire(*args, **kwargs)

    def release(self):
        return self.inner.release()


class NamedDevice:
    """A device object equal to the string naming it, as Warp's Device is."""

    def __eq__(self, other):
        return other == "cpu" or other is self

    __hash__ = object.__hash__


def test_a_device_string_after_the_equal_device_object_is_counted_without_the_lock_again():
    # The string and the Device it names are one signature; the launch after the switch is
    # compared with the string, so the rest are counted unlocked (each took the lock before).
    native = native_module()
    state, calls = make_state(native.State)
    taken = CountingLock()
    state.lock = native.Lock(taken)
    count = native.Counter(state, Ctx(), None, {}, "launch", True).count
    device = NamedDevice()
    assert count(kernel_a, 16, [A], (), device, None, False, None, True)
    for _ in range(10):
        assert count(kernel_a, 16, [A], (), "cpu", None, False, None, True)
    assert len([entry for entry in calls.log if entry[0] == "new"]) == 1
    assert taken.taken == 2  # the new signature and the first string launch, not the other nine
    assert state.total == 11 and state.open_n == 11


class Replayed:
    """A Launch stand-in: the fields a replay reads."""

    def __init__(self, device, bounds):
        self.device, self.bounds = device, bounds


def test_count_cmd_repeat_counts_the_cached_launch_unchanged_only():
    native = native_module()
    state, _ = make_state(native.State, native.Lock)
    bounds, key = object(), ("k",)
    cmd, other = Replayed("cpu", bounds), Replayed("cpu", bounds)
    assert state.count_cmd_repeat(cmd) is False  # nothing cached
    state.cache_cmd_repeat(cmd, "cpu", bounds, key)
    assert state.count_cmd_repeat(cmd) is False  # its key is not last_key
    state.last_key, state.open_n = key, 1
    assert state.count_cmd_repeat(cmd) is True and (state.total, state.open_n) == (1, 2)
    assert state.count_cmd_repeat(other) is False  # another Launch object
    cmd.bounds = object()  # set_dim()
    assert state.count_cmd_repeat(cmd) is False
    cmd.bounds, cmd.device = bounds, "cuda:0"
    assert state.count_cmd_repeat(cmd) is False
    cmd.device = "cpu"
    state.capturing = 1
    assert state.count_cmd_repeat(cmd) is False
    state.capturing = 0
    with state.lock:
        assert state.count_cmd_repeat(cmd) is False  # held: Python's path counts it
    assert state.count_cmd_repeat(cmd) is True and state.total == 2
    del cmd.device  # unreadable: Python's path reads it again and says why
    assert state.count_cmd_repeat(cmd) is False
    cmd.device = "cpu"
    del cmd
    import gc
    gc.collect()
    assert state.count_cmd_repeat(Replayed("cpu", bounds)) is False  # the cache kept no Launch alive
    state.cache_cmd_repeat(object(), "cpu", bounds, key)  # no weak references: not cached
    assert state.count_cmd_repeat(other) is False
    assert counter.PyState().count_cmd_repeat(other) is False and counter.PyState.cache_cmd_repeat is None


def make_forwarder(native, warp_globals, direct, fallback, record, probe):
    state, calls = make_state(native.State, native.Lock)
    tiled = native.Counter(state, Ctx(), None, {}, "launch_tiled", False)
    wrapper = object()
    warp_globals["launch"] = wrapper
    forwarder = native.Forwarder(direct, warp_globals, wrapper, fallback, probe, [], tiled, record, (), ())
    return forwarder, state, calls


class FakeProbe:
    def __init__(self):
        self.failed = []
        self.drained = 0

    def fail_pending(self, error):
        self.failed.append(error)

    def drain(self):
        self.drained += 1


def test_the_forwarder_is_called_through_vectorcall_where_the_interpreter_exports_it():
    # CPython 3.11+ exports PyObject_Vectorcall; 3.10 takes tp_call (the tuple and dict).
    native = native_module()
    assert native.VECTORCALL == (sys.version_info >= (3, 11))


@pytest.mark.parametrize("entry", ["vectorcall", "tp_call"])
def test_the_forwarder_passes_the_call_through_unchanged_and_counts_it(entry):
    native = native_module()
    seen = []

    def direct(*args, **kwargs):
        seen.append((args, kwargs))
        return None

    records = []
    forwarder, state, calls = make_forwarder(native, {}, direct, None, lambda *a: records.append(a), FakeProbe())
    if entry == "tp_call":
        forwarder = functools.partial(native.Forwarder.__call__, forwarder)  # the slot: tp_call
    kwargs = dict(dim=[4], inputs=[A], device="cpu", block_dim=8)
    assert forwarder(kernel_a, dim=[4], inputs=[A], device="cpu", block_dim=8) is None  # keywords as a call site
    for _ in range(2):
        assert forwarder(kernel_a, **kwargs) is None
    assert seen == [((kernel_a,), kwargs)] * 3
    assert state.total == 3 and state.open_n == 3 and records == []
    new = [entry for entry in calls.log if entry[0] == "new"]
    assert len(new) == 1 and new[0][2] == ((4,), "cpu", float, 8, False, "launch_tiled")
    forwarder(kernel_a, [4], **{"block_dim": 8})  # dim given positionally: the general path
    assert len(records) == 1 and records[0][0] == (kernel_a, [4]) and records[0][2] is None


def test_the_forwarder_reports_warps_error_and_raises_it_unchanged():
    native = native_module()
    error = KeyError("from warp")

    def direct(*args, **kwargs):
        raise error

    probe = FakeProbe()
    forwarder, state, _ = make_forwarder(native, {}, direct, None, None, probe)
    with pytest.raises(KeyError) as raised:
        forwarder(kernel_a, dim=[4], block_dim=8)
    assert raised.value is error and probe.failed == [error] and state.total == 0


@pytest.mark.parametrize("entry", ["vectorcall", "tp_call"])
def test_the_forwarder_falls_back_when_warp_no_longer_calls_the_probes_launch(entry):
    native = native_module()
    fallback_calls = []

    def fallback(args, kwargs):
        fallback_calls.append((args, kwargs))
        return "cmd"  # record_cmd=True: a Launch object

    records = []
    warp_globals = {}
    forwarder, state, _ = make_forwarder(native, warp_globals, None, fallback, lambda *a: records.append(a),
                                         FakeProbe())
    if entry == "tp_call":
        forwarder = functools.partial(native.Forwarder.__call__, forwarder)
    assert forwarder(kernel_a, dim=[4], block_dim=8) == "cmd"
    assert fallback_calls == [((kernel_a,), {"dim": [4], "block_dim": 8})]
    assert records == [((kernel_a,), {"dim": [4], "block_dim": 8}, "cmd")]  # a Launch: the general path
    assert forwarder(kernel_a) == "cmd"  # no keywords at all: an empty dict, as Python passes
    assert fallback_calls[-1] == ((kernel_a,), {})


def test_a_probe_error_in_the_forwarders_count_is_noted_not_raised():
    native = native_module()
    state, _ = make_state(native.State, native.Lock)
    unrecorded = []
    state.count_unrecorded = unrecorded.append

    class Broken:
        @property
        def dtype(self):
            raise ValueError("broken dtype")

    tiled = native.Counter(state, Ctx(), None, {}, "launch_tiled", False)
    wrapper = object()
    forwarder = native.Forwarder(lambda *a, **k: None, {"launch": wrapper}, wrapper, None, FakeProbe(), [], tiled,
                                 None, (), ())
    assert forwarder(kernel_a, dim=[4], inputs=[Broken()], block_dim=8) is None
    assert unrecorded == ["launches via warp.launch_tiled (probe error: ValueError)"]


def test_the_forwarder_keeps_the_attributes_a_wrapper_has():
    native = native_module()
    forwarder, _, _ = make_forwarder(native, {}, lambda *a, **k: None, None, None, FakeProbe())
    events = load_probe_module("events")
    events.wrap_like(forwarder, test_the_forwarder_keeps_the_attributes_a_wrapper_has)
    assert forwarder.__wrapped__ is test_the_forwarder_keeps_the_attributes_a_wrapper_has
    assert forwarder.__name__ == "test_the_forwarder_keeps_the_attributes_a_wrapper_has"
    assert vars(forwarder)["__wrapped__"] is forwarder.__wrapped__


def test_the_native_types_refuse_what_they_cannot_use():
    native = native_module()
    with pytest.raises(TypeError):
        native.Counter(object(), Ctx(), None, {}, "launch", True)  # not a State
    state, _ = make_state(native.State, native.Lock)
    with pytest.raises(TypeError):
        native.Forwarder(None, {}, None, None, None, [], object(), None, (), ())  # not a Counter
