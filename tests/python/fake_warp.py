"""Small fake `warp` packages, one per API era, so the probe's adapter logic is tested
without real Warp (and fast). Each is just enough of warp/__init__.py, the context module,
config, build and tape for the probe to attach and for a script to launch "kernels".

The fake records what really ran in `context.invocations` (kernel key, device), which does
not go through the probe's wrappers: tests compare the probe's launch record with it.
"""
import os
import textwrap

INIT = """
import warp.config as config
import warp.{ctx} as _ctx
for _name in ("launch", "launch_tiled", "Launch", "Module", "ModuleExec", "Kernel", "kernel", "get_module",
              "set_module_options", "get_device", "set_device", "ScopedDevice", "Stream", "capture_begin",
              "capture_end", "capture_launch", "init"):
    if hasattr(_ctx, _name):
        globals()[_name] = getattr(_ctx, _name)
from warp.{build} import clear_kernel_cache, clear_lto_cache
from warp.{tape} import Tape
{log}
__version__ = config.version
"""

CONFIG_NEW = """
import sys as _sys
import types as _types

class _ConfigModule(_types.ModuleType):
    def __setattr__(self, name, value):
        if name == "deterministic" and not isinstance(value, int):
            raise ValueError("warp.config.deterministic must be a DeterministicMode value, got %r" % (value,))
        super().__setattr__(name, value)

version = "{version}"
log_level = 20
enable_backward = True
max_unroll = 16
lineinfo = False
deterministic = 0
deterministic_max_records = 0
compile_time_trace = False
mode = "release"
cache_kernels = True
kernel_cache_dir = None
use_precompiled_headers = True
_sys.modules[__name__].__class__ = _ConfigModule
"""

CONFIG_OLD = """
version = "{version}"
verbose = False
quiet = False
enable_backward = True
max_unroll = 16
lineinfo = False
mode = "release"
cache_kernels = True
kernel_cache_dir = None
"""

CONTEXT = r'''
import hashlib
import inspect
import os
import sys

import warp

invocations = []  # what really ran: (kernel key, device alias, entry)
fail_marker_module = os.environ.get("FAKE_COMPILE_FAIL")
fail_native_module = os.environ.get("FAKE_NATIVE_FAIL")


class Device:
    def __init__(self, alias):
        self.alias = alias
        self.context = None if alias == "cpu" else alias
        self.is_cpu = alias == "cpu"
        self.is_cuda = not self.is_cpu
        self.captures = 0

    def __str__(self):
        return self.alias

    def __eq__(self, other):  # like Warp's Device: makes it unhashable
        return self is other or (isinstance(other, str) and other == self.alias)

    @property
    def is_capturing(self):
        return self.captures > 0


class Stream:
    def __init__(self, device):
        self.device = get_device(device)


class Runtime:
    def __init__(self):
        self.devices = {"cpu": Device("cpu"), "cuda:0": Device("cuda:0")}
        self.default_device = self.devices[os.environ.get("FAKE_DEFAULT_DEVICE", "cpu")]
        self.tape = None
        self.toolkit_version = (12, 8)

    def get_device(self, ident=None):
        if type(ident) is Device:
            return ident
        if ident is None:
            return self.default_device
        if ident == "cuda":
            return self.devices["cuda:0"]
        return self.devices[ident]


runtime = None


def init():
    global runtime
    if runtime is None:
        runtime = Runtime()
        if warp.config.kernel_cache_dir is None:
            warp.config.kernel_cache_dir = os.path.join(os.environ.get("WARP_CACHE_PATH", "/tmp"), warp.config.version)


def get_device(ident=None):
    init()
    return runtime.get_device(ident)


def set_device(ident):
    init()
    runtime.default_device = runtime.get_device(ident)


class ScopedDevice:
    def __init__(self, device):
        self.device = get_device(device)

    def __enter__(self):
        self.saved = runtime.default_device
        runtime.default_device = self.device
        return self.device

    def __exit__(self, *args):
        runtime.default_device = self.saved


user_modules = {}


class Kernel:
    def __init__(self, func, key=None, module=None, options=None):
        self.func = func
        self.key = key or func.__name__
        self.module = module
        self.options = options or {}
        self.overloads = {}
        module.kernels[self.key] = self
        module._hash = None


def get_module(name):
    if name not in user_modules:
        user_modules[name] = Module(name)
    return user_modules[name]


def kernel(f=None, *, enable_backward=None, module=None, module_options=None):
    def wrapper(f, *args, **kwargs):
        options = {}
        if enable_backward is not None:
            options["enable_backward"] = enable_backward
        if module == "unique":
            m = Module(f.__name__)
        else:
            m = get_module(f.__module__ if module is None else module)
        if module_options:
            m.options.update(module_options)
        k = Kernel(f, module=m, options=options)
        if module == "unique":
            m.name = "%s_%s" % (k.key, m.get_module_hash().hex()[:8])
            user_modules[m.name] = m
        return k

    if f is None:
        return wrapper
    return wrapper(f)


def set_module_options(options, module=None):
    if module is None:
        name = sys._getframe(1).f_globals.get("__name__")  # the caller's module, as Warp does
    else:
        name = module if isinstance(module, str) else module.__name__
    m = get_module(name)
    m.options.update(options)
    m._hash = None


class Launch:
    def __init__(self, kernel, device, dim=None, block_dim=None, adjoint=False, fwd_args=None):
        self.kernel = kernel
        self.device = device
        self.block_dim = block_dim
        self.adjoint = adjoint
        self.fwd_args = fwd_args
        self.bounds = None
        self.dim = dim

    def launch(self, stream=None):
        invocations.append((self.kernel.key, str(self.device), "cmd"))


class Graph:
    def __init__(self, device):
        self.device = device
        self.ops = []

    def __eq__(self, other):  # unhashable, like some Warp objects: the probe must cope
        return self is other

    __hash__ = object.__hash__


_capture = {}


def capture_begin(device=None, stream=None, force_module_load=None, external=False):
    d = get_device(device)
    d.captures += 1
    _capture[d.alias] = Graph(d)


def capture_end(device=None, stream=None):
    d = get_device(device)
    d.captures -= 1
    return _capture.pop(d.alias)


def capture_launch(graph, stream=None):
    for op in graph.ops:
        invocations.append(op[:2] + ("graph",))


def launch(kernel, dim, inputs=[], outputs=[], adj_inputs=[], adj_outputs=[], device=None, stream=None,
           adjoint=False, record_tape=True, record_cmd=False, max_blocks=0, block_dim={block_dim_default}):
    init()
    device = stream.device if stream is not None else runtime.get_device(device)
    if not isinstance(kernel, Kernel):
        raise RuntimeError("Error launching kernel, can only launch functions decorated with @wp.kernel.")
    if len(inputs) + len(outputs) != kernel.func.__code__.co_argcount:
        raise RuntimeError("Error launching kernel '%s', wrong number of arguments" % kernel.key)
    kernel.module.load(device, block_dim)
    if record_cmd:
        return Launch(kernel, device, dim=dim, block_dim=block_dim, adjoint=adjoint, fwd_args=list(inputs) + list(outputs))
    if device.captures:
        _capture[device.alias].ops.append((kernel.key, str(device)))
    else:
        invocations.append((kernel.key, str(device), "launch"))
    if runtime.tape is not None and record_tape:
        frame = inspect.currentframe().f_back
        caller = {"file": frame.f_code.co_filename, "lineno": frame.f_lineno, "func": frame.f_code.co_name}
        runtime.tape.launches.append([kernel, dim, max_blocks, inputs, outputs, device, block_dim, {"caller": caller}])


def launch_tiled(*args, **kwargs):
    if "dim" not in kwargs or "block_dim" not in kwargs:
        raise RuntimeError("launch_tiled needs dim= and block_dim=")
    dim = kwargs["dim"]
    dim = [dim] if isinstance(dim, int) else list(dim)
    kwargs["dim"] = dim + [kwargs["block_dim"]]
    return launch(*args, **kwargs)
'''

MODULE_NEW = r'''

class ModuleExec:
    def __init__(self, handle, module_hash, device, meta, block_dim, compile_arch=None):
        self.handle = handle
        self.module_hash = module_hash
        self.device = device
        self.block_dim = block_dim


class Module:
    def __init__(self, name, loader=None):
        self.name = name
        self.kernels = {}
        self.execs = {}
        self._hash = None
        self.options = {"max_unroll": warp.config.max_unroll, "enable_backward": warp.config.enable_backward,
                        "block_dim": 256, "strip_hash": False}

    def get_module_hash(self, block_dim=None):
        if self._hash is None:
            text = repr((self.name, sorted(self.kernels), sorted((k, repr(v)) for k, v in self.options.items())))
            self._hash = hashlib.sha256(text.encode()).digest()
        return self._hash

    def _compile(self, device=None, output_dir=None, output_name=None, output_arch=None, options=None):
        if self.name == fail_marker_module:
            raise RuntimeError("fake compile error in " + self.name)
        os.makedirs(warp.config.kernel_cache_dir, exist_ok=True)
        marker = os.path.join(warp.config.kernel_cache_dir, self.name + "-" + self.get_module_hash().hex()[:7])
        if warp.config.cache_kernels and os.path.exists(marker):
            return False
        warp._src.build.build_cpu(("fail-native-" if self.name == fail_native_module else "") + marker + ".o",
                                  marker + ".cpp", use_precompiled_headers=True, pch_dir="fake-pch")
        open(marker, "w").close()
        return True

    def load(self, device, block_dim=None, binary_path=None, output_arch=None, meta_path=None):
        device = runtime.get_device(device)
        active_block_dim = block_dim if block_dim is not None else self.options["block_dim"]
        exec = self.execs.get((device.context, active_block_dim))
        if exec is not None and exec.module_hash == self.get_module_hash(active_block_dim):
            return exec
        module_hash = self.get_module_hash(active_block_dim)
        compiled = False
        if not binary_path:
            compiled = self._compile(device, None, None, None, options=dict(self.options))
        module_exec = ModuleExec("handle", module_hash, device, {}, active_block_dim)
        self.execs[(device.context, active_block_dim)] = module_exec
        print("Module %s %s load on device '%s' took 1.00 ms  (%s)"
              % (self.name, module_hash.hex()[:7], device, "compiled" if compiled else "cached"))
        return module_exec
'''

MODULE_OLD = r'''

class ModuleExec:
    __slots__ = ("handle", "module_hash", "device"{exec_weakref})

    def __init__(self, handle, module_hash, device, meta):
        self.handle = handle
        self.module_hash = module_hash
        self.device = device


class Module:
    def __init__(self, name, loader=None):
        self.name = name
        self.kernels = {{}}
        self.execs = {{}}
        self._hash = None
        self.options = {{"max_unroll": warp.config.max_unroll, "enable_backward": warp.config.enable_backward,
                        "block_dim": 256, "strip_hash": False}}

    def get_module_hash(self, block_dim=None):
        if self._hash is None:
            text = repr((self.name, sorted(self.kernels), sorted((k, repr(v)) for k, v in self.options.items()
                                                                 if k != "block_dim")))
            self._hash = hashlib.sha256(text.encode()).digest()
        return self._hash

    def get_module_identifier(self):
        return "wp_" + self.name + "_" + self.get_module_hash().hex()[:7]

    def compile(self, device, output_dir, output_name, output_arch):
        if self.name == fail_marker_module:
            raise RuntimeError("fake compile error in " + self.name)
        warp.build.build_cpu(("fail-native-" if self.name == fail_native_module else "") + self.name + ".o",
                             self.name + ".cpp")

    def load(self, device, block_dim=None, binary_path=None, output_arch=None, meta_path=None):
        device = runtime.get_device(device)
        if block_dim is not None:
            self.options["block_dim"] = block_dim  # old Warp writes this on every launch
        active_block_dim = self.options["block_dim"]
        exec = self.execs.get((device.context, active_block_dim))
        if exec is not None and exec.module_hash == self.get_module_hash(active_block_dim):
            return exec
        module_hash = self.get_module_hash(active_block_dim)
        module_name_short = self.get_module_identifier()  # real Warp 1.9 starts its load timer right after this
        os.makedirs(warp.config.kernel_cache_dir, exist_ok=True)
        marker = os.path.join(warp.config.kernel_cache_dir, self.name + "-" + module_hash.hex()[:7])
        compiled = not (warp.config.cache_kernels and os.path.exists(marker))
        if compiled:
            self.compile(device, None, None, None)
            open(marker, "w").close()
        module_exec = ModuleExec("handle", module_hash, device, {{}})
        self.execs[(device.context, active_block_dim)] = module_exec
        print("Module %s %s load on device '%s' took 1.00 ms  (%s)"
              % (self.name, module_hash.hex()[:7], device, "compiled" if compiled else "cached"))
        return module_exec
'''

BUILD = """
builds = []  # (function, pch_dir) of each native build, for the tests


def build_cpu(obj_path, cpp_path, mode="release", verbose=False, use_precompiled_headers=False, pch_dir=None):
    # Warp calls it as an attribute of its build module, from Module._compile / Module.compile.
    builds.append(("build_cpu", pch_dir))
    if obj_path.startswith("fail-native"):
        raise RuntimeError("fake native build error")


def build_cuda(cu_path, arch, output_path, config="release"):
    builds.append(("build_cuda", None))


def clear_kernel_cache():
    pass


def clear_lto_cache():
    pass
"""

TAPE = """
import warp


class Tape:
    def __init__(self):
        self.launches = []

    def __enter__(self):
        import warp.{ctxmod} as ctx
        ctx.init()
        ctx.runtime.tape = self
        return self

    def __exit__(self, *args):
        import warp.{ctxmod} as ctx
        ctx.runtime.tape = None

    def backward(self):
        for launch in reversed(self.launches):
            warp.launch(launch[0], launch[1], inputs=launch[3], outputs=launch[4], device=launch[5], adjoint=True,
                        record_tape=False)
"""


def make_fake_warp(root, era, version=None, exec_weakref=True, drop=()):
    """Writes a fake warp package under root (a directory to put on sys.path).

    era: "new" (warp._src.context, config.log_level, Module._compile + ModuleExec) or "old"
    (warp.context, config.verbose, Module.load only). exec_weakref: whether old-era ModuleExec
    objects can be weakly referenced (with __slots__ they never take the probe's marker).
    drop: names to delete from the fake context module (to test what the probe reports missing).
    """
    new = era == "new"
    version = version or ("1.19.0" if new else "1.9.1")
    package = os.path.join(root, "warp")
    ctx_dir = os.path.join(package, "_src") if new else package
    os.makedirs(ctx_dir, exist_ok=True)
    ctx = "_src.context" if new else "context"
    build = "_src.build" if new else "build"
    tape = "_src.tape" if new else "tape"
    files = {
        os.path.join(package, "__init__.py"): INIT.format(ctx=ctx, build=build, tape=tape,
                                                          log="LOG_DEBUG = 10" if new else ""),
        os.path.join(package, "config.py"): (CONFIG_NEW if new else CONFIG_OLD).format(version=version),
        os.path.join(ctx_dir, "context.py"): CONTEXT.replace("{block_dim_default}", "None" if new else "256")
        + (MODULE_NEW if new else MODULE_OLD.format(exec_weakref=', "__weakref__"' if exec_weakref else ""))
        + "".join("\ndel %s\n" % name for name in drop),
        os.path.join(ctx_dir, "build.py"): BUILD,
        os.path.join(ctx_dir, "tape.py"): TAPE.format(ctx=ctx, ctxmod=ctx),
    }
    if new:
        files[os.path.join(ctx_dir, "__init__.py")] = ""
    for path, text in files.items():
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(textwrap.dedent(text))
    return root
