# The CUDA build, measured without a GPU (`measure --cuda-arch`, docs/cuda-build.md).
#
# When WCP_CUDA_ARCHS names architectures ("86,90"), each module identity this process loaded is
# compiled for each of them at the interpreter's exit, after the program's own work and its own
# exit handlers: through Warp's ahead-of-time path (Module._compile with output_arch, what
# wp.compile_aot_module calls), with the module's own options and NVRTC's device time trace on,
# into a folder of the tool's event directory. Nothing runs before exit, so Warp's timed regions
# and the launch path are untouched; the program's output is over, and whatever Warp or NVRTC
# print during these builds goes to a file there, not to the program's stdout or stderr.
#
# One `cuda_build` record per module and arch, then one `cuda_build_done` record. Independent
# modules build on a thread pool up to the cores: Warp serialises its code generation under its
# own lock and NVRTC runs outside the GIL (ctypes), so the native compiles overlap, as Warp's own
# parallel module loading does. A Warp without that lock builds one module at a time.
import os
import sys
import threading
import time

ARCHS_VARIABLE = "WCP_CUDA_ARCHS"


def parse_archs(text):
    """[86, 90] from "86,90" or "sm_86,sm_90"; [] for nothing usable."""
    archs = []
    for part in (text or "").split(","):
        part = part.strip().lower()
        if part.startswith("sm_"):
            part = part[3:]
        if part.isdigit() and int(part) > 0 and int(part) not in archs:
            archs.append(int(part))
    return archs


def install(probe, warp, ctx, config):
    """Registers the exit-time builds; last registered, so they run before the probe's final
    records and after every exit handler the program registered later (atexit runs LIFO)."""
    archs = parse_archs(os.environ.get(ARCHS_VARIABLE, ""))
    if not archs:
        return
    import atexit

    atexit.register(build_at_exit, probe, warp, ctx, archs)
    probe.hooks.append("cuda build at exit")


def loaded_targets(ctx):
    """(module, block_dim) for each module identity this process loaded, in load order of the
    registry: a CUDA load's own block_dim; for a CPU load, the block_dim a CUDA launch would use
    by default (a CPU launch loads at block_dim 1)."""
    targets = []
    modules = getattr(ctx, "user_modules", None)
    if not isinstance(modules, dict):
        return targets
    for module in list(modules.values()):
        execs = getattr(module, "execs", None)
        if not isinstance(execs, dict) or not execs:
            continue
        options = getattr(module, "options", None) or {}
        block_dims = []
        for key in list(execs.keys()):
            context, block_dim = key if isinstance(key, tuple) and len(key) == 2 else (None, None)
            if context is None or not isinstance(block_dim, int):
                block_dim = options.get("block_dim", 256)
            if isinstance(block_dim, int) and block_dim not in block_dims:
                block_dims.append(block_dim)
        for block_dim in block_dims:
            targets.append((module, block_dim))
    return targets


def source_size(module):
    """The summed Python source of the module's kernels: a cheap stand-in for its build's cost."""
    size = 0
    try:
        for kernel in list(getattr(module, "kernels", {}).values()):
            size += len(getattr(getattr(kernel, "adj", None), "source", "") or "")
    except Exception:
        pass
    return size


def kernel_names(module, block_dim):
    """{mangled name: kernel key} for the identity's kernels, as NVRTC's trace names them."""
    names = {}
    hashers = getattr(module, "hashers", None)
    hasher = hashers.get(block_dim) if isinstance(hashers, dict) else None
    kernels = hasher.get_unique_kernels() if hasher is not None and hasattr(hasher, "get_unique_kernels") else []
    for kernel in kernels:
        try:
            names[kernel.get_mangled_name()] = kernel.key
        except Exception:
            pass
    return names


def build_one(warp, ctx, module, block_dim, arch, folder):
    record = {"module": getattr(module, "name", ""), "arch": arch, "block_dim": block_dim}
    try:
        module_hash = module.get_module_hash(block_dim)
        record["hash"] = module_hash.hex()[:7] if isinstance(module_hash, (bytes, bytearray)) else ""
        options = module.resolve_options(warp.config, block_dim=block_dim) if hasattr(module, "resolve_options") else None
        if not isinstance(options, dict):
            options = dict(module.options)
        # The trace is an NVRTC flag: the same source, the same identity (Warp names the output
        # after the hash it computed at load).
        options = dict(options, compile_time_trace=True)
        output_dir = os.path.join(folder, "%s_%s_b%d_sm%d" % (record["module"].replace(os.sep, "_"),
                                                              record["hash"], block_dim, arch))
        cpu0, wall0 = time.thread_time(), time.monotonic()
        record["t_start"] = wall0
        record["thread"] = threading.get_native_id() if hasattr(threading, "get_native_id") else 0
        module._compile(None, output_dir, output_arch=arch, options=options)
        record["cpu_s"] = time.thread_time() - cpu0
        record["wall_s"] = time.monotonic() - wall0
        outputs = sorted(name for name in os.listdir(output_dir) if name.endswith((".cubin", ".ptx")))
        if outputs:
            record["output"] = os.path.join(output_dir, outputs[0])
            record["output_kind"] = outputs[0].rsplit(".", 1)[1]
            record["output_bytes"] = os.path.getsize(record["output"])
            trace = record["output"] + "_compile-time-trace.json.json"
            if os.path.exists(trace):
                record["trace"] = trace
        record["kernels"] = kernel_names(module, block_dim)
    except BaseException as e:  # a module that fails keeps its error; the others still build
        record["error"] = ("%s: %s" % (type(e).__name__, e))[:2000]
    return record


class QuietFds:
    """Sends fds 1 and 2 to a file for the builds' duration (Warp's warnings, NVRTC's errors)."""

    def __init__(self, path):
        self.path = path
        self.saved = []

    def __enter__(self):
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        target = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            for fd in (1, 2):
                self.saved.append((fd, os.dup(fd)))
                os.dup2(target, fd)
        finally:
            os.close(target)
        return self

    def __exit__(self, *exc):
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        for fd, saved in self.saved:
            try:
                os.dup2(saved, fd)
            finally:
                os.close(saved)
        return False


def run_tasks(run, tasks, workers):
    """(each task's result in task order, threads used): `workers` threads taking tasks from a
    shared queue. Plain threads: concurrent.futures refuses new work once the interpreter is
    shutting down, which is when this runs; where a thread cannot start (an interpreter that
    refuses them at exit), the caller's thread does the rest."""
    results = [None] * len(tasks)
    next_task = iter(range(len(tasks)))
    lock = threading.Lock()

    def worker():
        while True:
            with lock:
                index = next(next_task, None)
            if index is None:
                return
            results[index] = run(tasks[index])

    threads = []
    for _ in range(workers - 1):
        thread = threading.Thread(target=worker, name="wcp-cuda-build", daemon=True)
        try:
            thread.start()
        except RuntimeError:
            break
        threads.append(thread)
    worker()
    for thread in threads:
        thread.join()
    return results, len(threads) + 1


def compiles_for_arch(ctx):
    """Whether this Warp's Module._compile takes an architecture and resolved options."""
    try:
        import inspect

        names = inspect.signature(ctx.Module._compile).parameters  # follows the probe's own wrapper
    except Exception:
        return False
    return "output_arch" in names and "options" in names


def build_at_exit(probe, warp, ctx, archs):
    started = time.monotonic()
    pid = os.getpid()
    if not compiles_for_arch(ctx):
        probe.emit("cuda_build_done", {"archs": archs, "workers": 0, "wall_s": 0.0, "modules": 0,
                                       "unavailable": "Warp %s has no ahead-of-time compile of a module's resolved "
                                                      "options for an architecture (Module._compile with "
                                                      "output_arch and options, Warp 1.12+)"
                                                      % probe.info.get("warp_version", "")})
        return
    folder = os.path.join(probe.event_dir, "cuda-%d" % pid)
    try:
        os.makedirs(folder, exist_ok=True)
        targets = [(module, block_dim, arch) for module, block_dim in loaded_targets(ctx) for arch in archs]
        # Warp 1.10+ serialises code generation under this lock; without it, one build at a time.
        parallel = hasattr(ctx, "_codegen_lock")
        workers = max(1, min(len(targets), os.cpu_count() or 1)) if parallel else 1
        # One module's archs in one task: a module object is not built twice at once.
        by_module = {}
        for module, block_dim, arch in targets:
            by_module.setdefault(id(module), []).append((module, block_dim, arch))
        # Largest first (by the kernels' Python source, known before any code generation): the
        # longest build then starts at once instead of last, and the threads finish together.
        tasks = sorted(by_module.values(), key=lambda task: -source_size(task[0][0]))
        workers = min(workers, max(1, len(tasks)))

        def run(task):
            return [build_one(warp, ctx, module, block_dim, arch, folder) for module, block_dim, arch in task]

        with QuietFds(os.path.join(folder, "output.txt")):
            results, workers = run_tasks(run, tasks, workers)
        records = [record for result in results for record in result]
        for record in records:
            probe.emit("cuda_build", record)
        probe.emit("cuda_build_done", {"archs": archs, "workers": workers, "modules": len(records),
                                       "wall_s": time.monotonic() - started})
    except BaseException as e:
        probe.emit("cuda_build_done", {"archs": archs, "workers": 0, "modules": 0,
                                       "wall_s": time.monotonic() - started,
                                       "unavailable": "the CUDA builds stopped: %s: %s" % (type(e).__name__, e)})
