# The life of a process (docs/instrumentation.md, "Processes"): the final records at exit and
# at os._exit, fork children that start over, and multiprocessing workers that snapshot before
# they hand back work or wait for more, since they may be terminated at any moment.
import os
import sys
import threading

from .events import main_program, wrap_like

MP_BOOTSTRAP_FILES = ("spawn.py", "forkserver.py", "popen_fork.py", "process.py")


def is_mp_child_by_argv(frame=None):
    # A spawn/forkserver child imports the main module (and so warp) from inside
    # multiprocessing's bootstrap, before parent_process() is set and after its prepare()
    # restored the parent's argv: look at argv, then at the stack.
    try:
        if "--multiprocessing-fork" in sys.argv:
            return True
        mp = sys.modules.get("multiprocessing")
        if mp is not None and mp.parent_process() is not None:
            return True
        frame = frame or sys._getframe(1)
        while frame is not None:
            filename = frame.f_code.co_filename
            if "multiprocessing" in filename and filename.endswith(MP_BOOTSTRAP_FILES):
                return True
            frame = frame.f_back
    except Exception:
        pass
    return False


class ExitRecords:
    """The final records (the launch record's last snapshot, the exit record), written once: at
    normal exit (atexit), at os._exit and, where asked for, at SIGTERM."""

    def __init__(self, probe):
        self.probe = probe

    def final(self, how):
        probe = self.probe
        if probe.final_done:
            return
        probe.final_done = True
        acquired = False
        try:
            # Another thread may hold the lock forever (os._exit from a thread); do not wait long.
            acquired = probe.lock.acquire(timeout=1.0)
            if not acquired:
                probe.lock = probe.new_lock()
            for step in probe.on_final:
                try:
                    step()
                except Exception:
                    pass
            probe.snapshot(final=True)
            config = probe.config
            runtime = getattr(probe.ctx, "runtime", None)
            toolkit = getattr(runtime, "toolkit_version", None) if runtime is not None else None
            probe.emit("exit", {"how": how, "missing": list(probe.missing), "main": main_program(),
                                "kernel_cache_dir": str(getattr(config, "kernel_cache_dir", "")),
                                "cache_kernels": bool(getattr(config, "cache_kernels", True)),
                                "use_precompiled_headers": getattr(config, "use_precompiled_headers", None),
                                "cuda_toolkit": ".".join(str(p) for p in toolkit) if isinstance(toolkit, tuple) else "",
                                "environ": {"CUDA_CACHE_DISABLE": os.environ.get("CUDA_CACHE_DISABLE"),
                                            "WARP_CACHE_PATH": os.environ.get("WARP_CACHE_PATH")}})
        except Exception:
            pass
        finally:
            if acquired:
                probe.lock.release()

    def hook_atexit(self):
        import atexit

        atexit.register(self.final, "atexit")
        self.probe.hooks.append("atexit")

    def hook_os_exit(self):
        probe, final = self.probe, self.final
        original = os._exit

        def _exit(*args, **kwargs):
            try:
                if os.getpid() == probe.pid:
                    final("os._exit")
            except BaseException:
                pass
            original(*args, **kwargs)

        os._exit = wrap_like(_exit, original)
        probe.hooks.append("os._exit")


class WorkerSnapshots:
    """A multiprocessing worker's records, kept safe from its terminate().

    Pool.terminate() (and `with Pool(...)`) ends workers with SIGTERM, which loses whatever the
    worker recorded since its last snapshot. A Python SIGTERM handler would write it, but it is
    not safe: Python runs the handler only when the main thread runs bytecode, and a worker
    blocked on the task queue's semaphore when the signal arrives (the race the tests caught) or
    whose signal lands on another thread (OpenBLAS starts some) then never dies, and the pool
    hangs in join(). So, by default, a worker writes its snapshot each time it goes back to wait
    for a task instead: nothing is lost when it is terminated while idle. The handler stays
    available with WCP_MP_SIGTERM=1."""

    def __init__(self, probe, exits):
        self.probe = probe
        self.exits = exits

    def install(self):
        probe = self.probe
        try:
            import multiprocessing.queues as queues

            # A pool worker puts each result (the parent may terminate it as soon as it has
            # them all) and then gets the next task: snapshot before both.
            for name in ("put", "get"):
                for queue_class in (queues.SimpleQueue, queues.Queue):
                    original = queue_class.__dict__.get(name)
                    if original is not None and not getattr(original, "_wcp_idle", False):
                        setattr(queue_class, name, self.before(original))
            if "multiprocessing idle snapshots" not in probe.hooks:
                probe.hooks.append("multiprocessing idle snapshots")
        except Exception as e:
            probe.fail("multiprocessing idle snapshots", e)
        if os.environ.get("WCP_MP_SIGTERM") == "1":
            self.install_sigterm()

    def before(self, original):
        """A queue method that snapshots first, marked so that it is never wrapped twice."""
        probe = self.probe

        def method(queue, *args, **kwargs):
            try:
                probe.drain()
                probe.snapshot()
            except Exception:
                pass
            return original(queue, *args, **kwargs)

        method._wcp_idle = True
        return wrap_like(method, original)

    def install_sigterm(self):
        # Opt-in (see the class): write the final snapshot on SIGTERM, then die of SIGTERM.
        probe, final = self.probe, self.exits.final
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
                os.kill(os.getpid(), signal.SIGTERM)

            signal.signal(signal.SIGTERM, on_sigterm)
            if "SIGTERM" not in probe.hooks:
                probe.hooks.append("SIGTERM")
        except Exception as e:
            probe.fail("SIGTERM in multiprocessing children", e)


class ForkChildren:
    """A fork child is a new process: its own file, an empty launch record."""

    def __init__(self, probe, workers):
        self.probe = probe
        self.workers = workers

    def hook_fork(self):
        os.register_at_fork(after_in_child=self.after_fork_child)
        self.probe.hooks.append("fork")

    def after_fork_child(self):
        probe = self.probe
        try:
            frame = sys._getframe(1)
            mp_child = False
            while frame is not None:
                if "multiprocessing" in frame.f_code.co_filename:
                    mp_child = True
                    break
                frame = frame.f_back
            probe.after_fork(mp_child or is_mp_child_by_argv())
            if probe.info["mp_child"]:
                self.workers.install()
            probe.emit_attach()
        except Exception:
            pass


def install(probe):
    """Exit records, os._exit, fork children and multiprocessing workers."""
    exits = ExitRecords(probe)
    workers = WorkerSnapshots(probe, exits)
    for step, what in ((exits.hook_atexit, "exit record at normal exit"), (exits.hook_os_exit, "os._exit"),
                       (ForkChildren(probe, workers).hook_fork, "fork children")):
        try:
            step()
        except Exception as e:
            probe.fail(what, e)
    if probe.info["mp_child"]:
        workers.install()
