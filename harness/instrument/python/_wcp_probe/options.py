# Options and what shapes a module before it loads: module creation, writes of module options
# and warp.config values, options given at @wp.kernel(...), cache clears and the tape
# (docs/instrumentation.md: module_created, option_write, cache_clear, tape_backward).
#
# None of these hooks runs inside Warp's timed load: they run where the application creates
# modules, writes options or clears caches, so they may walk the stack and write at once.
import sys
import types
import weakref

from .events import CONFIG_NAMES, is_probe_file, outside_probe, wrap_like


class WcpOptions(dict):
    """A Warp Module's `options` dict that reports writes (item set, update, setdefault, |=).

    Everything Warp does with it behaves as with a plain dict: reads are dict's own C code,
    `dict(o)`, `o | x` and `o.copy()` give plain dicts, and copy/pickle reduce it to a plain
    dict (so a pickled module option set never names this class).
    """

    __slots__ = ("_wcp_module",)
    _wcp_report = None  # set by the probe: report(options, items, caller_frame)

    def __setitem__(self, key, value):
        dict.__setitem__(self, key, value)
        report = WcpOptions._wcp_report
        if report is not None:
            report(self, ((key, value),), sys._getframe(1))

    def update(self, *args, **kwargs):
        report = WcpOptions._wcp_report
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
        report(self, items, sys._getframe(1))

    def setdefault(self, key, default=None):
        missing = key not in self
        value = dict.setdefault(self, key, default)
        report = WcpOptions._wcp_report
        if missing and report is not None:
            report(self, ((key, default),), sys._getframe(1))
        return value

    def __ior__(self, other):
        self.update(other)
        return self

    def __reduce_ex__(self, protocol):
        return (dict, (dict(self),))

    def __reduce__(self):
        return (dict, (dict(self),))


def config_values(config, names):
    """{name: repr} of the warp.config values that exist in this Warp."""
    out = {}
    for name in names:
        try:
            if config is not None and hasattr(config, name):
                out[name] = repr(getattr(config, name))
        except Exception:
            pass
    return out


class OptionWrites:
    """Module creation (Module.__init__ hooked) and writes of a module's options, which its
    WcpOptions reports to `report`."""

    def __init__(self, probe, ctx, config):
        self.probe = probe
        self.ctx = ctx
        self.config = config
        # Code objects whose writes are reported elsewhere or not at all (see `report`).
        self.sms_code = None  # set_module_options
        self.strip_code = None  # Module._set_strip_hash
        self.load_code = None  # Module.load
        self.kernel_wrappers = ()  # the functions inside @wp.kernel (KernelOptions sets them)

    def report(self, options, items, frame):
        # Old Warp writes block_dim from Module.load on every launch: the checks that return for
        # Warp's own writes come first and read attributes only.
        try:
            code = frame.f_code
            if code in self.kernel_wrappers:
                return  # the @wp.kernel wrapper reports these as api "kernel"
            if code is self.load_code:
                return  # Warp's own bookkeeping on every launch (old Warp writes block_dim)
            sms_code = self.sms_code
            if code is self.strip_code:
                back = frame.f_back
                if back is not None and back.f_code is sms_code:
                    return  # set_module_options reports strip_hash itself
            probe = self.probe
            api = "set_module_options" if code is sms_code else "module.options"
            module = options._wcp_module() if getattr(options, "_wcp_module", None) is not None else None
            target = str(getattr(module, "name", "?"))
            site = probe.site_of(frame)
            if api == "set_module_options":
                # set_module_options itself lives in Warp: who called it decides (warp.fem and
                # warp.optim call it at import for their own modules).
                caller = frame.f_back
                while caller is not None and is_probe_file(caller.f_code.co_filename):
                    caller = caller.f_back
                by_warp = caller is not None and probe.in_warp(caller.f_code.co_filename)
            else:
                by_warp = probe.in_warp(code.co_filename)
            for key, value in items:
                probe.emit("option_write", {"api": api, "target": target, "key": str(key), "value": repr(value),
                                            "site": site, "by_warp": by_warp})
        except Exception as e:
            self.probe.fail("option writes", e)

    @staticmethod
    def adopt_options(module):
        options = module.__dict__.get("options")
        if type(options) is dict:
            wrapped = WcpOptions(options)
            wrapped._wcp_module = weakref.ref(module)
            module.options = wrapped

    def hook_modules(self):
        probe, ctx = self.probe, self.ctx
        module_class = getattr(ctx, "Module", None)
        if module_class is None:
            probe.note_missing("module creation (Module not found)")
            probe.note_missing("module option writes (Module not found)")
            return
        self.sms_code = getattr(getattr(ctx, "set_module_options", None), "__code__", None)
        self.strip_code = getattr(getattr(module_class, "_set_strip_hash", None), "__code__", None)
        self.load_code = getattr(getattr(module_class, "load", None), "__code__", None)
        original_init = module_class.__init__
        module_class.__init__ = wrap_like(self.init_hook(original_init), original_init)
        probe.hooks.append("Module.__init__")
        for module in list(getattr(ctx, "user_modules", {}).values()):
            try:
                self.adopt_options(module)
            except Exception:
                pass
        WcpOptions._wcp_report = self.report
        probe.hooks.append("Module.options")

    def init_hook(self, original_init):
        """Module.__init__'s wrapper: a module_created record, its options reported from then on."""
        probe, config, adopt_options = self.probe, self.config, self.adopt_options

        def __init__(module, *args, **kwargs):
            original_init(module, *args, **kwargs)
            levers = probe.levers
            if levers is not None:
                try:
                    levers.on_module(module)  # before the record: it shows the options the module starts with
                except Exception as e:
                    probe.fail("module levers", e)
            try:
                adopt_options(module)
                probe.emit("module_created", {"name": str(getattr(module, "name", "?")),
                                              "config": config_values(config, CONFIG_NAMES),
                                              "options": {str(k): repr(v) for k, v in dict(module.options).items()},
                                              "site": probe.site_of(sys._getframe(1)),
                                              "entry_site": probe.entry_site_of(sys._getframe(1))})
            except Exception as e:
                probe.fail("module creation", e)

        return __init__


# ---- what a module="unique" kernel captured where it was defined (CS-9) --------------------
# Runs after Warp's decorator returned, never inside a load. Bounded: at most MAX_CELLS captured
# values, tuples looked into MAX_TUPLE items deep one level, at most MAX_CLOSURES kernels kept.
MAX_CELLS = 64
MAX_TUPLE = 64
MAX_CLOSURES = 4096
LITERAL_TYPES = (int, float, bool, str, type(None))


def literal(value, depth=0):
    # Exact types only: a subclass (a Warp scalar, an enum) may carry more than its value.
    if type(value) in LITERAL_TYPES:
        return True
    if type(value) is tuple and depth == 0 and len(value) <= MAX_TUPLE:
        return all(literal(item, 1) for item in value)
    return False


def closure_kind(func, frame):
    code = getattr(func, "__code__", None)
    cells = getattr(func, "__closure__", None) or ()
    if code is None:
        return None
    if not cells:
        return "none"
    if len(cells) > MAX_CELLS:
        return None
    names = code.co_freevars
    # The defining function's arguments, when `frame` is the one that defined the kernel.
    arguments = ()
    outer = frame.f_code
    if code in outer.co_consts:
        count = outer.co_argcount + outer.co_kwonlyargcount
        count += bool(outer.co_flags & 0x04) + bool(outer.co_flags & 0x08)  # *args, **kwargs
        arguments = outer.co_varnames[:count]
    kind = "literals"
    for name, cell in zip(names, cells):
        if name in arguments:
            return "arguments"
        try:
            value = cell.cell_contents
        except ValueError:  # a cell not bound yet
            return None
        if not literal(value):
            kind = "values"
    return kind


class KernelClosures:
    """id(kernel) -> (weak reference to it, kind) for module="unique" kernels; loads.py reads it
    through probe.kernel_closures."""

    def __init__(self, probe):
        self.probe = probe
        self.kinds = {}

    def note(self, made, kwargs, frame):
        if kwargs.get("module") != "unique":
            return
        closures = self.kinds
        try:
            kind = closure_kind(getattr(made, "func", None), frame)
            if kind is None:
                return
            if len(closures) >= MAX_CLOSURES:
                for key in [key for key, (ref, _) in closures.items() if ref() is None]:
                    del closures[key]
                if len(closures) >= MAX_CLOSURES:
                    return
            closures[id(made)] = (weakref.ref(made), kind)
        except Exception as e:
            self.probe.fail("kernel closures", e)


class KernelOptions:
    """Options given at @wp.kernel(...): one option_write each, with the kernel's closure noted."""

    def __init__(self, probe, warp, ctx, option_writes, closures):
        self.probe = probe
        self.warp = warp
        self.ctx = ctx
        self.option_writes = option_writes
        self.closures = closures

    def report(self, kernel, kwargs, frame):
        probe = self.probe
        try:
            fields = {"api": "kernel", "target": str(getattr(getattr(kernel, "module", None), "name", "?")),
                      "site": probe.site_of(frame), "kernel": str(getattr(kernel, "key", "?")),
                      "by_warp": probe.in_warp(frame.f_code.co_filename)}
            for name, value in kwargs.items():
                if name in ("f", "name", "module") or value is None:
                    continue
                if name == "module_options" and isinstance(value, dict):
                    writes = [(option, option_value, "module") for option, option_value in value.items()]
                else:
                    writes = [(name, value, "kernel")]
                for key, written, scope in writes:
                    probe.emit("option_write", dict(fields, key=str(key), value=repr(written), scope=scope))
        except Exception as e:
            probe.fail("per-kernel options", e)

    def hook_kernel(self):
        warp, probe = self.warp, self.probe
        original = getattr(warp, "kernel", None)
        if original is None:
            probe.note_missing("per-kernel options (warp.kernel not found)")
            return
        code_type = type(original.__code__)
        self.option_writes.kernel_wrappers = tuple(c for c in original.__code__.co_consts if isinstance(c, code_type))
        kernel = wrap_like(self.wrap(original), original)
        for owner in (warp, self.ctx):
            if getattr(owner, "kernel", None) is original:
                setattr(owner, "kernel", kernel)
        probe.hooks.append("kernel")

    def wrap(self, original):
        """warp.kernel's wrapper, for both of its forms: @wp.kernel and @wp.kernel(...)."""
        report, note_closure = self.report, self.closures.note

        # The frames they read are the program's: outside_probe steps over a lever's wrapper.
        def kernel(*args, **kwargs):
            result = original(*args, **kwargs)
            if not kwargs or (kwargs.keys() <= {"f"}):
                return result
            if args or "f" in kwargs:
                frame = outside_probe(sys._getframe(1))
                report(result, kwargs, frame)
                note_closure(result, kwargs, frame)
                return result
            decorator = result

            def apply(*a, **kw):
                made = decorator(*a, **kw)
                frame = outside_probe(sys._getframe(1))
                report(made, kwargs, frame)
                note_closure(made, kwargs, frame)
                return made

            return wrap_like(apply, decorator)

        return kernel


class ConfigWrites:
    """Writes of warp.config values: the config module's class gets a __setattr__ that reports."""

    def __init__(self, probe, config):
        self.probe = probe
        self.config = config

    def hook_config(self):
        probe, config = self.probe, self.config
        if config is None:
            probe.note_missing("warp.config writes (warp.config not found)")
            return
        base = type(config)
        if not issubclass(base, types.ModuleType):
            probe.note_missing("warp.config writes (warp.config is not a module)")
            return
        base_setattr = base.__setattr__
        probe.set_config = lambda name, value: base_setattr(config, name, value)

        class ConfigModule(base):
            # Chains to the original __setattr__ first, so Warp's validation raises as before.
            def __setattr__(self, name, value):
                base_setattr(self, name, value)
                try:
                    frame = sys._getframe(1)
                    probe.emit("option_write", {"api": "config", "target": "warp.config", "key": name,
                                                "value": repr(value), "site": probe.site_of(frame),
                                                "by_warp": probe.in_warp(frame.f_code.co_filename)})
                except Exception as e:
                    probe.fail("warp.config writes", e)

        ConfigModule.__name__ = base.__name__
        ConfigModule.__qualname__ = base.__qualname__
        config.__class__ = ConfigModule
        probe.hooks.append("config")


class CacheClears:
    """warp.clear_kernel_cache and clear_lto_cache: a cache_clear record before each."""

    def __init__(self, probe, warp):
        self.probe = probe
        self.warp = warp

    def hook_cache_clears(self):
        build = sys.modules.get("warp._src.build") or sys.modules.get("warp.build")
        for name in ("clear_kernel_cache", "clear_lto_cache"):
            original = getattr(self.warp, name, None) or getattr(build, name, None)
            if original is None:
                self.probe.note_missing("cache clears via warp.%s (not found)" % name)
                continue
            self.probe.replace((self.warp, build), name, original, self.wrap(original, name))

    def wrap(self, original, name):
        probe = self.probe

        def clear(*args, **kwargs):
            try:
                probe.emit("cache_clear", {"what": name, "site": probe.site_of(sys._getframe(1))})
            except Exception:
                pass
            return original(*args, **kwargs)

        return clear


class TapeBackward:
    """warp.Tape.backward: a tape_backward record of the kernels it replays."""

    def __init__(self, probe, warp):
        self.probe = probe
        self.warp = warp

    def hook_tape(self):
        tape_class = getattr(self.warp, "Tape", None)
        original = getattr(tape_class, "backward", None)
        if original is None:
            self.probe.note_missing("tape backward (warp.Tape.backward not found)")
            return
        tape_class.backward = wrap_like(self.wrap(original), original)
        self.probe.hooks.append("Tape.backward")

    def wrap(self, original):
        probe = self.probe

        def backward(tape, *args, **kwargs):
            try:
                keys = sorted({str(getattr(item[0], "key", "?")) for item in getattr(tape, "launches", [])
                               if isinstance(item, (list, tuple)) and item})
                probe.emit("tape_backward", {"kernels": keys})
            except Exception:
                pass
            return original(tape, *args, **kwargs)

        return backward


# ---- the module registry at exit (docs/instrumentation.md: registry) -----------------------
# Which kernels each named Warp module holds when the process ends, launched or not: a module
# option reaches a module's kernels whenever that module loads, so a run that never loaded it
# says nothing against the option. Runs once, at exit, outside every Warp timer. Bounded:
# at most MAX_REGISTRY_MODULES modules, MAX_REGISTRY_KERNELS kernel keys each (the count is
# always whole).
MAX_REGISTRY_MODULES = 4096
MAX_REGISTRY_KERNELS = 64


class Registry:
    def __init__(self, probe, ctx):
        self.probe = probe
        self.ctx = ctx

    def hook_registry(self):
        self.probe.on_final.append(self.registry)

    def registry(self):
        modules = getattr(self.ctx, "user_modules", None)
        if not isinstance(modules, dict):
            self.probe.note_missing("the module registry at exit (warp user_modules not found)")
            return
        listed = []
        for name, module in list(modules.items()):
            kernels = getattr(module, "kernels", None)
            if not isinstance(kernels, dict) or not kernels:
                continue
            if len(listed) == MAX_REGISTRY_MODULES:
                break
            keys = sorted(str(key) for key in kernels)
            listed.append({"name": str(name), "kernel_count": len(keys), "kernels": keys[:MAX_REGISTRY_KERNELS]})
        self.probe.emit("registry", {"modules": listed, "complete": len(listed) < MAX_REGISTRY_MODULES})


def install(probe, warp, ctx, config):
    """Hooks module creation, option writes, per-kernel options, config writes, cache clears
    and the tape; each step that cannot attach names itself in `missing`."""
    option_writes = OptionWrites(probe, ctx, config)
    closures = KernelClosures(probe)
    probe.kernel_closures = closures.kinds
    return [option_writes.hook_modules, KernelOptions(probe, warp, ctx, option_writes, closures).hook_kernel,
            ConfigWrites(probe, config).hook_config, CacheClears(probe, warp).hook_cache_clears,
            TapeBackward(probe, warp).hook_tape, Registry(probe, ctx).hook_registry]
