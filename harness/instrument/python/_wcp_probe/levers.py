# Levers: fixes the tool applies to the measured program from outside its code, so that their
# effect is measured (docs/instrumentation.md, "Levers"; issue 30). WCP_PROBE_LEVERS holds a JSON
# array of them; absent or empty, nothing here installs anything.
#
# Each lever is applied where the user's own line would run: `config` right after `import warp`
# returned, `module_option` at each target module's creation (options.py's creation hook calls
# `on_module`), `drop_unique` where `@wp.kernel(module="unique")` is called, `noop_call` where the
# program calls the function. Every lever says in `lever` records whether it could be applied in
# this Warp and what it reached (bounded: MAX_RECORDS per lever per process, then a tally at exit).
# Like every hook, nothing here raises into the program: a lever that cannot be applied is
# reported, and the program runs as it would without it.
import inspect
import json
import os
import sys
import weakref

from .events import wrap_like

VARIABLE = "WCP_PROBE_LEVERS"
KINDS = ("config", "module_option", "drop_unique", "noop_call")
NOOP_FUNCTIONS = ("clear_kernel_cache", "clear_lto_cache")
MAX_RECORDS = 100


class Lever:
    __slots__ = ("id", "kind", "name", "value", "modules", "unique_kernels", "kernels", "records", "calls", "reached",
                 "applicable")

    def __init__(self, item):
        self.id = item["id"]
        self.kind = item["kind"]
        self.name = item["name"]
        self.value = item.get("value")
        self.modules = frozenset(item.get("modules") or ())
        # Kernel keys of module="unique" targets: Warp creates such a module under the function's
        # name and renames it "<key>_<hash>" only after hashing it, so at creation it is matched by
        # that name (every kernel the same factory makes with it).
        self.unique_kernels = tuple(k for k in item.get("unique_kernels") or () if isinstance(k, str) and k)
        self.kernels = frozenset((k["qualname"], _same_file(k["file"])) for k in item.get("kernels") or ())
        self.applicable = True
        self.reset()

    def reset(self):
        self.records = 0  # reach records written by this process
        self.calls = 0
        self.reached = []  # (weak reference or None, name at the time), at most MAX_RECORDS


def _created_as_unique(lever, name):
    """Whether a module created as `name` is one of `lever`'s module="unique" targets."""
    if not name or "." in name:  # a unique module starts as a bare function name
        return False
    suffix = "__" + name
    return any(key == name or key.endswith(suffix) for key in lever.unique_kernels)


def _same_file(path):
    try:
        return os.path.realpath(os.path.abspath(path))
    except Exception:
        return path


def _item_error(item):
    """Why `item` is not a lever, or None."""
    if not isinstance(item, dict):
        return "not a JSON object"
    for key in ("id", "kind", "name"):
        if not isinstance(item.get(key), str) or not item.get(key):
            return "no string '%s'" % key
    kind = item["kind"]
    if kind not in KINDS:
        return "unknown kind '%s'" % kind
    if kind in ("config", "module_option") and "value" not in item:
        return "a %s lever needs a 'value'" % kind
    if kind == "module_option":
        modules = item.get("modules")
        if not isinstance(modules, list) or not modules or not all(isinstance(m, str) for m in modules):
            return "a module_option lever needs 'modules' (a list of module names, or [\"*\"])"
    if kind == "drop_unique":
        kernels = item.get("kernels")
        if not isinstance(kernels, list) or not kernels or not all(
                isinstance(k, dict) and isinstance(k.get("qualname"), str) and isinstance(k.get("file"), str)
                for k in kernels):
            return "a drop_unique lever needs 'kernels' ([{qualname, file}, ...])"
    if kind == "noop_call" and item["name"] not in NOOP_FUNCTIONS:
        return "noop_call takes %s only" % " or ".join(NOOP_FUNCTIONS)
    return None


def parse(text):
    """The items in their order: each a Lever, or (id, detail) for one that is malformed."""
    try:
        items = json.loads(text)
    except ValueError as e:
        return [("", "%s is not valid JSON (%s): no lever was applied" % (VARIABLE, e))]
    if not isinstance(items, list):
        return [("", "%s is not a JSON array: no lever was applied" % VARIABLE)]
    entries = []
    for index, item in enumerate(items):
        error = _item_error(item)
        if error is None:
            entries.append(Lever(item))
        else:
            named = item.get("id") if isinstance(item, dict) and isinstance(item.get("id"), str) else ""
            entries.append((named or "#%d" % index, "malformed lever: %s" % error))
    return entries


class Levers:
    """The levers of one process and their records."""

    def __init__(self, probe, levers):
        self.probe = probe
        self.levers = levers
        self.module_levers = [lever for lever in levers if lever.kind == "module_option"]

    def record(self, lever, status, detail="", **reached):
        fields = {"id": lever.id, "kind": lever.kind, "status": status, "detail": detail}
        fields.update(reached)
        self.probe.emit("lever", fields)

    def reach(self, lever, module=None, **fields):
        """One thing `lever` reached; past MAX_RECORDS only the tally at exit counts it."""
        if module is not None and len(lever.reached) < MAX_RECORDS:
            try:
                ref = weakref.ref(module)
            except TypeError:
                ref = None
            lever.reached.append((ref, str(getattr(module, "name", "?"))))
        lever.records += 1
        if lever.records <= MAX_RECORDS:
            if module is not None:
                fields["module"] = str(getattr(module, "name", "?"))
            self.record(lever, "applied", **fields)

    def tally(self):
        """At exit: each lever's totals, modules by their names now (a unique module is renamed
        after its creation)."""
        for lever in self.levers:
            if not lever.records:
                continue
            modules, replaced = [], []
            for ref, name in lever.reached:
                module = ref() if ref is not None else None
                current = str(getattr(module, "name", name)) if module is not None else name
                if current not in modules:
                    modules.append(current)
                # The value is gone when code after the creation replaced the module's options
                # (warp.fem assigns `module.options = ...` to the modules it generates).
                if lever.kind == "module_option" and module is not None:
                    try:
                        options = module.__dict__.get("options")
                        if isinstance(options, dict) and options.get(lever.name, lever.value) != lever.value:
                            replaced.append(current)
                    except Exception:
                        pass
            self.probe.emit("lever", {"id": lever.id, "kind": lever.kind, "final": True, "calls": lever.calls,
                                      "reached": lever.records, "modules": modules, "replaced": replaced})

    def after_fork(self):
        for lever in self.levers:
            lever.reset()

    # ---- module_option: called by options.py's module creation hook ----------------------------
    def on_module(self, module):
        options = module.__dict__.get("options")
        if options is None:
            return
        name = str(getattr(module, "name", ""))
        for lever in self.module_levers:
            if not lever.applicable or not ("*" in lever.modules or name in lever.modules
                                            or lever.unique_kernels and _created_as_unique(lever, name)):
                continue
            try:
                if lever.name not in options:
                    # A module's options hold every key this Warp knows from its creation on.
                    lever.applicable = False
                    self.record(lever, "not_applicable", "this Warp has no module option '%s'" % lever.name)
                    continue
                # dict's own setter: the probe's write recording is the program's, not ours.
                dict.__setitem__(options, lever.name, lever.value)
                self.reach(lever, module)
            except Exception as e:
                self.record(lever, "failed", "setting module option '%s' raised %s: %s" % (
                    lever.name, type(e).__name__, e), module=name)


def install(probe, warp, ctx, config):
    """Applies the levers of WCP_PROBE_LEVERS; returns None (and installs nothing) when there
    are none. Called at the end of attach, once every other hook is in place, before the
    program's code after `import warp` runs."""
    text = os.environ.get(VARIABLE, "").strip()
    if not text:
        return None
    entries = parse(text)
    parsed = [entry for entry in entries if isinstance(entry, Lever)]
    state = Levers(probe, parsed)
    if parsed:
        probe.levers = state
        probe.on_fork.append(state.after_fork)
        probe.on_final.append(state.tally)
    unique = [lever for lever in parsed if lever.kind == "drop_unique"]
    unique_status = None
    if unique:
        try:
            unique_status = _apply_drop_unique(state, unique, probe, warp, ctx)  # one wrapper for them all
        except Exception as e:
            unique_status = ("failed", "the probe could not apply it (%s: %s)" % (type(e).__name__, e))
    for lever in entries:  # records in the list's order
        if not isinstance(lever, Lever):
            probe.emit("lever", {"id": lever[0], "status": "failed", "detail": lever[1]})
            continue
        try:
            if lever.kind == "config":
                _apply_config(state, lever, probe, config)
            elif lever.kind == "noop_call":
                _apply_noop(state, lever, probe, warp)
            elif lever.kind == "module_option":
                known = _known_module_options(ctx)
                if known is not None and lever.name not in known:
                    lever.applicable = False
                    state.record(lever, "not_applicable", "this Warp has no module option '%s'" % lever.name)
                else:
                    state.record(lever, "applied", "set at the creation of %s" % (
                        "every module" if "*" in lever.modules else "module(s) " + ", ".join(sorted(lever.modules))))
            else:
                status, detail = unique_status
                state.record(lever, status, detail or "@wp.kernel(module=\"unique\") on %d kernel(s) becomes the "
                             "default module" % len(lever.kernels))
        except Exception as e:
            state.record(lever, "failed", "the probe could not apply it (%s: %s)" % (type(e).__name__, e))
    return state


def _known_module_options(ctx):
    """The module option keys of this Warp, from a module `import warp` created (each holds every
    key from its creation on); None when there is none to ask."""
    for module in list(getattr(ctx, "user_modules", {}).values()):
        options = module.__dict__.get("options") if hasattr(module, "__dict__") else None
        if isinstance(options, dict) and options:
            return frozenset(options)
    return None


def _apply_config(state, lever, probe, config):
    if config is None or not hasattr(config, lever.name):
        state.record(lever, "not_applicable", "this Warp has no warp.config.%s" % lever.name)
        return
    # Warp's own setter (options.py keeps it): it validates as for the program, and the probe's
    # write recording does not take the lever's write for the program's.
    setter = getattr(probe, "set_config", None) or (lambda name, value: setattr(config, name, value))
    try:
        setter(lever.name, lever.value)
    except Exception as e:
        state.record(lever, "failed", "warp.config.%s = %r raised %s: %s" % (lever.name, lever.value,
                                                                          type(e).__name__, e))
        return
    state.record(lever, "applied", "warp.config.%s = %r right after `import warp`" % (lever.name, lever.value))


def _apply_noop(state, lever, probe, warp):
    current = getattr(warp, lever.name, None)
    if current is None:
        state.record(lever, "not_applicable", "this Warp has no warp.%s" % lever.name)
        return

    def noop(*args, **kwargs):
        # The clear does not happen, so no cache_clear record: the lever's record says it was
        # intercepted, and where.
        try:
            lever.calls += 1
            state.reach(lever, call=lever.name, site=probe.site_of(sys._getframe(1)))
        except Exception:
            pass
        return None

    build = sys.modules.get("warp._src.build") or sys.modules.get("warp.build")
    probe.replace((warp, build), lever.name, current, noop)
    state.record(lever, "applied", "calls of warp.%s do nothing" % lever.name)


def _apply_drop_unique(state, levers, probe, warp, ctx):
    current = getattr(warp, "kernel", None)
    if current is None:
        return ("not_applicable", "this Warp has no warp.kernel")
    targets = {}
    for lever in levers:
        for key in lever.kernels:
            targets.setdefault(key, lever)

    def target_of(f):
        try:
            qualname = getattr(f, "__qualname__", None)
            if not any(qualname == name for name, _ in targets):
                return None
            path = inspect.getsourcefile(f) or f.__code__.co_filename
            return targets.get((qualname, _same_file(path)))
        except Exception:
            return None

    def made_default(lever, f, make):
        made = make()
        try:
            state.reach(lever, getattr(made, "module", None), kernel=str(getattr(f, "__qualname__", "?")))
        except Exception:
            pass
        return made

    def kept(lever, f):
        try:
            state.record(lever, "applied", "kept module=\"unique\" on %s: it carries module_options, for which Warp "
                         "requires it" % getattr(f, "__qualname__", "?"))
        except Exception:
            pass

    def kernel(*args, **kwargs):
        if kwargs.get("module") != "unique":
            return current(*args, **kwargs)
        # Warp requires module="unique" for a kernel with module_options: those keep it.
        keep = kwargs.get("module_options") is not None
        rest = {key: value for key, value in kwargs.items() if key != "module"}
        f = args[0] if args else kwargs.get("f")
        if f is not None:
            lever = target_of(f)
            if lever is None or keep:
                if lever is not None:
                    kept(lever, f)
                return current(*args, **kwargs)
            return made_default(lever, f, lambda: current(*args, **rest))
        decorator = current(*args, **kwargs)

        def apply(f, *a, **kw):
            lever = target_of(f)
            if lever is None or keep:
                if lever is not None:
                    kept(lever, f)
                return decorator(f, *a, **kw)
            return made_default(lever, f, lambda: current(*args, **rest)(f, *a, **kw))

        return wrap_like(apply, decorator)

    wrap_like(kernel, current)
    for owner in (warp, ctx):
        if owner is not None and getattr(owner, "kernel", None) is current:
            setattr(owner, "kernel", kernel)
    probe.hooks.append("levers.kernel")
    return ("applied", None)
