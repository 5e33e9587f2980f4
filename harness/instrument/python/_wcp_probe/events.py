# The event writer and the state every hook shares (docs/instrumentation.md, "Files").
#
# One `Probe` per process: its JSON-lines file, the lock that orders writes and the launch
# record, what could not be hooked (`missing`), and the helpers that tell the application's
# frames from Warp's and the probe's. A fork child resets it (`after_fork`) and every hook
# module registers what it must reset too.
import collections
import json
import os
import sys
import threading
import time

# How far up the stack a module creation looks for the main script (the stack is rarely deeper).
MAX_ENTRY_DEPTH = 256
PROBE_DIR = os.path.dirname(os.path.abspath(__file__))
BOOTSTRAP_FILE = os.path.join(os.path.dirname(PROBE_DIR), "sitecustomize.py")

# warp.config values a Module copies when it is created, and the others a load depends on.
CONFIG_NAMES = ("enable_backward", "max_unroll", "lineinfo", "deterministic", "deterministic_max_records",
                "compile_time_trace")
EXTRA_CONFIG_NAMES = ("mode", "verify_fp", "fast_math", "cache_kernels", "kernel_cache_dir",
                      "use_precompiled_headers", "optimization_level", "cpu_compiler_flags")
STACK_LIMIT = 48


def is_probe_file(filename):
    return filename.startswith(PROBE_DIR) or filename == BOOTSTRAP_FILE


class Probe:
    def __init__(self, event_dir, faults=()):
        self.event_dir = event_dir
        self.faults = frozenset(faults)
        # Re-entrant: a signal handler or __del__ may record while held. A fork or exit that
        # replaces the lock makes it with new_lock (launches.py wraps it for the native counter).
        self.new_lock = threading.RLock
        self.lock = self.new_lock()
        self.pid = os.getpid()
        self.forked_from = None
        self.fd = None
        self.missing = []
        self.missing_seen = set()
        self.hooks = []
        self.info = {"warp_dir": None, "api": None, "timers": None, "warp_version": "", "mp_child": False}
        self.warp = self.ctx = self.config = None
        self.final_done = False
        self.levers = None  # levers.Levers when WCP_PROBE_LEVERS asks for module levers
        self.set_config = None  # Warp's own warp.config setter, without the probe's write record
        # Hook modules register callbacks here: run at a fork (in the child), before the final
        # records, and to flush work that was deferred out of Warp's timed regions.
        self.on_fork = []
        self.on_final = []
        # Set by loads.py and launches.py; harmless stand-ins where those could not attach.
        self.finished_loads = collections.deque()  # loads waiting to be written, outside Warp's timer
        self.drain = lambda: None  # writes them
        self.fail_pending = lambda error: None  # a launch raised: its thread's unfinished load failed
        self.snapshot = lambda final=False: None  # the launch record's eager snapshot
        self.dumps = json.JSONEncoder(default=str, separators=(",", ":")).encode
        if "emit" in self.faults:
            self.dumps = _injected_fault
        if "site" in self.faults:
            self.site_of = _injected_fault

    # ---- writing -------------------------------------------------------------------------------
    def _write_line(self, data):
        if self.fd is None:
            first = self.dumps(self.process_record()).encode("utf-8") + b"\n"
            self.fd = os.open(os.path.join(self.event_dir, "events-%d.jsonl" % self.pid),
                              os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_CLOEXEC", 0), 0o600)
            os.write(self.fd, first)
        view = memoryview(data)
        while view:
            written = os.write(self.fd, view)
            view = view[written:]

    def emit(self, kind, fields):
        """Writes one record with a single write(); never raises."""
        try:
            with self.lock:
                if self.fd is None:
                    self._write_line(b"")  # the process record comes first, and first in time
                record = {"type": kind, "pid": self.pid, "t": time.monotonic()}
                record.update(fields)
                self._write_line(self.dumps(record).encode("utf-8") + b"\n")
        except Exception:
            pass

    def note_missing(self, what):
        if what not in self.missing_seen:
            self.missing_seen.add(what)
            self.missing.append(what)

    def fail(self, what, error=None):
        self.note_missing(what + (" (probe error: %s)" % type(error).__name__ if error is not None else ""))

    def process_record(self):
        main = main_program()
        try:
            cwd = os.getcwd()
        except Exception:
            cwd = None
        return {"type": "process", "pid": self.pid, "t": time.monotonic(), "ppid": os.getppid(),
                "argv": list(sys.argv), "executable": sys.executable, "cwd": cwd, "main": main,
                "mp_child": self.info["mp_child"], "forked_from": self.forked_from}

    def emit_attach(self):
        info = self.info
        self.emit("attach", {"warp_version": info["warp_version"], "warp_dir": info["warp_dir"], "api": info["api"],
                             "timers": info["timers"], "hooks": list(self.hooks), "missing": list(self.missing),
                             "launch_counter": info.get("launch_counter")})

    # ---- frames --------------------------------------------------------------------------------
    def in_warp(self, filename):
        # Warp's own code. Its examples and tests are programs (one may be the measured program):
        # frames there are where the application asked.
        warp_dir = self.info["warp_dir"]
        if not warp_dir or not filename.startswith(warp_dir):
            return False
        rest = filename[len(warp_dir):]
        return not (rest.startswith("examples" + os.sep) or rest.startswith("tests" + os.sep))

    def site_of(self, frame):
        """The first frame outside Warp and outside this probe: where the application asked."""
        while frame is not None:
            filename = frame.f_code.co_filename
            if not is_probe_file(filename) and not self.in_warp(filename):
                return {"file": filename, "line": frame.f_lineno, "function": frame.f_code.co_name}
            frame = frame.f_back
        return None

    def entry_site_of(self, frame):
        """The outermost frame in the program's main script: the entry script's line that led
        here (its import of a kernel package, or its own kernel). Bounded walk; None when the
        main script is not on the stack."""
        main_file = getattr(sys.modules.get("__main__"), "__file__", None)
        if not main_file:
            return None
        main_file = os.path.abspath(main_file)
        found = None
        for _ in range(MAX_ENTRY_DEPTH):
            if frame is None:
                break
            filename = frame.f_code.co_filename
            if filename == main_file or (not filename.startswith("<") and os.path.abspath(filename) == main_file):
                found = frame
            frame = frame.f_back
        if found is None:
            return None
        return {"file": found.f_code.co_filename, "line": found.f_lineno, "function": found.f_code.co_name}

    def describe_stack(self, captured):
        """(stack, trigger) from `capture_stack`'s pairs: frames as dicts, innermost first."""
        stack = [{"file": code.co_filename, "line": line, "function": code.co_name} for code, line in captured]
        trigger = next((frame for frame in stack if not self.in_warp(frame["file"])), None)
        return stack, trigger

    def device_name(self, dev):
        """The device Warp resolves `dev` to, as text."""
        if dev is None or isinstance(dev, str):
            try:
                runtime = getattr(self.ctx, "runtime", None)
                if runtime is not None:
                    return str(runtime.get_device(dev))
            except Exception:
                pass
            return "" if dev is None else dev
        return str(dev)

    # ---- replacing Warp's functions ------------------------------------------------------------
    def replace(self, owners, name, original, wrapper):
        """Points `name` at `wrapper` wherever Warp holds `original`: the given owners and every
        warp module that imported it by name (context's globals, the public package)."""
        wrap_like(wrapper, original)
        for owner in owners:
            if owner is not None and getattr(owner, name, None) is original:
                setattr(owner, name, wrapper)
        for module in list(sys.modules.values()):
            module_name = getattr(module, "__name__", "") or ""
            if not (module_name == "warp" or module_name.startswith("warp.")):
                continue
            try:
                if module.__dict__.get(name) is original:
                    setattr(module, name, wrapper)
            except Exception:
                pass
        self.hooks.append(name)
        return wrapper

    # ---- processes -----------------------------------------------------------------------------
    def after_fork(self, mp_child):
        """In a fork child: a new process with its own file and empty records."""
        self.forked_from = self.pid
        self.pid = os.getpid()
        if self.fd is not None:
            try:
                os.close(self.fd)
            except OSError:
                pass
        self.fd = None
        self.lock = self.new_lock()
        self.final_done = False
        self.info["mp_child"] = mp_child
        for reset in self.on_fork:
            try:
                reset()
            except Exception:
                pass


def outside_probe(frame):
    """`frame`, or the first frame above it that is not the probe's (a lever's wrapper may sit
    between the program and a recording hook)."""
    while frame is not None and is_probe_file(frame.f_code.co_filename):
        frame = frame.f_back
    return frame


def capture_stack(frame, stop_files=()):
    """The stack as (code, line) pairs, innermost first, probe frames left out: what a hook
    inside Warp's timed load may afford (no strings are built until after the load)."""
    out = []
    while frame is not None and len(out) < STACK_LIMIT:
        code = frame.f_code
        filename = code.co_filename
        if stop_files and filename.endswith(stop_files):
            break
        if not is_probe_file(filename):
            out.append((code, frame.f_lineno))
        frame = frame.f_back
    return out


def environ_reader(name):
    """(read, key): `read(key)` is the environment variable `name`'s raw value (None when unset),
    cheap enough for Warp's load timer: os.environ keeps the environment in a dict of encoded
    keys and values, and one lookup there costs a fraction of os.environ.get, which encodes the
    key, raises KeyError when it is unset and decodes the value. `environ_text` decodes it later."""
    try:
        data = os.environ._data
        key = os.environ.encodekey(name)
        data.get(key)
        return data.get, key
    except Exception:
        return os.environ.get, name


def environ_text(value):
    """A raw value from `environ_reader` as the str os.environ would have given (None stays None)."""
    if isinstance(value, bytes):
        try:
            return os.environ.decodevalue(value)
        except Exception:
            return value.decode("utf-8", "replace")
    return value if isinstance(value, str) else None


def main_program():
    """The program __main__ runs: the module of `python -m MOD` (known only once runpy has set
    __main__ up, so at exit rather than at start), else the script's absolute path; None if unknown."""
    try:
        main_module = sys.modules.get("__main__")
        spec = getattr(main_module, "__spec__", None)
        if spec is not None and getattr(spec, "name", None):
            return spec.name
        if getattr(main_module, "__file__", None):
            return os.path.abspath(main_module.__file__)
    except Exception:
        pass
    return None


def wrap_like(wrapper, original):
    for attr in ("__name__", "__qualname__", "__doc__", "__module__"):
        try:
            setattr(wrapper, attr, getattr(original, attr))
        except Exception:
            pass
    wrapper.__wrapped__ = original
    return wrapper


def _injected_fault(*args, **kwargs):
    # Test-only (WCP_PROBE_FAULT): a probe helper that raises, to prove failures stay inside.
    raise RuntimeError("injected probe fault")


injected_fault = _injected_fault
