"""The probe on real Warp (whichever era this interpreter has; see WCP_EXPECT_WARP).

Programs run on the CPU with a private WARP_CACHE_PATH. Where a test needs an independent
count of what ran, the program wraps Warp's CPU entry `invoke` in its context module: every
CPU kernel execution goes through it, and it is not something the probe wraps.
"""
import json
import os
import re

import pytest

from conftest import EXPECT, NATIVE_MODULE, launched, last_launches, needs_warp, of_type, run_script

pytestmark = needs_warp

PRELUDE = """
import json, os, sys
import warp as wp
try:
    import warp._src.context as ctx
except ImportError:
    import warp.context as ctx

INVOKED = []
_invoke = ctx.invoke


def counting_invoke(kernel, hooks, params, adjoint, *rest):
    INVOKED.append([kernel.key, bool(adjoint)])
    return _invoke(kernel, hooks, params, adjoint, *rest)


ctx.invoke = counting_invoke
"""

# The launch counters a run can have: the native one where the build has it (what the CLI
# ships), and the Python one it falls back to. Launch-record tests run under each and must agree.
COUNTERS = {"python": {"WCP_PROBE_FAULT": "python-counter"}}
if NATIVE_MODULE is not None:
    COUNTERS["native"] = {}


def counter_of(run):
    return of_type(run.main, "attach")[0]["launch_counter"]


KERNELS = """
@wp.kernel
def fill(x: wp.array(dtype=float)):
    x[wp.tid()] = 1.0


@wp.kernel
def scale(x: wp.array(dtype=float), s: float):
    x[wp.tid()] = x[wp.tid()] * s


@wp.kernel
def tiled(x: wp.array(dtype=float)):
    i, j = wp.tid()
    x[i] = x[i] + 1.0
"""


def test_era_is_the_expected_one(tmp_path, warp_cache):
    run = run_script(tmp_path, "import warp\n", cache=warp_cache)
    attach = of_type(run.main, "attach")[0]
    assert {"build_cpu", "build_cuda"} <= set(attach["hooks"])
    if EXPECT == "old":
        assert (attach["api"], attach["timers"]) == ("warp.context", "hooks")
        assert "Module.load" in attach["hooks"]
    else:
        assert (attach["api"], attach["timers"]) == ("warp._src", "hooks")
        assert {"Module._compile", "ModuleExec.__init__"} <= set(attach["hooks"])
        assert "Module.load" not in attach["hooks"]
    assert attach["missing"] == []
    assert attach["warp_version"] == ("1.9.1" if EXPECT == "old" else "1.19.0")
    assert attach["launch_counter"] == ("native" if NATIVE_MODULE is not None else "python")


def test_launches_match_what_ran(tmp_path, warp_cache):
    body = PRELUDE + KERNELS + """
x = wp.zeros(8, dtype=float, device="cpu")
# Defect 1: an interleaving of launch and launch_tiled.
wp.launch(fill, dim=8, inputs=[x])
wp.launch_tiled(tiled, dim=[8], inputs=[x], block_dim=1)
wp.launch(fill, dim=8, inputs=[x])
wp.launch(fill, dim=8, inputs=[x])
# Positional and keyword mixes of one signature.
wp.launch(scale, 8, [x, 2.0])
wp.launch(scale, dim=8, inputs=[x, 2.0])
wp.launch(kernel=scale, dim=8, inputs=[x, 2.0])
wp.launch(scale, 8, [x, 2.0], [], [], [], "cpu")
wp.launch(scale, 8, [x], [2.0], device="cpu")
# record_cmd is not a launch; each .launch() of it is.
cmd = wp.launch(scale, dim=8, inputs=[x, 3.0], record_cmd=True)
cmd.launch()
cmd.launch()
with wp.ScopedDevice("cpu"):
    wp.launch(fill, dim=8, inputs=[x])
for _ in range(50):
    wp.launch(fill, dim=8, inputs=[x])
    wp.launch(scale, dim=8, inputs=[x, 0.5])
print("INVOKED " + json.dumps(INVOKED))
"""
    records = {}
    for counter, env in COUNTERS.items():
        run = run_script(tmp_path, body, cache=warp_cache, env=env)
        assert run.proc.returncode == 0, run.proc.stderr
        assert counter_of(run) == counter
        invoked = json.loads(run.proc.stdout.split("INVOKED ", 1)[1])
        sigs = launched(run.main)
        assert [s["kernel"] for s in sigs] == [key for key, _ in invoked]
        assert last_launches(run.main)["total"] == len(invoked) and last_launches(run.main)["final"]
        assert [(s["kernel"], s["entry"]) for s in sigs[:4]] == [
            ("fill", "launch"), ("tiled", "launch_tiled"), ("fill", "launch"), ("fill", "launch")]
        assert len({json.dumps(s, sort_keys=True) for s in sigs[4:9]}) == 1  # one signature, five call shapes
        assert sigs[4]["dtypes"] == ["float32", ""]
        assert [s["entry"] for s in sigs[9:11]] == ["cmd", "cmd"]
        assert all(s["device"] == "cpu" for s in sigs)
        assert last_launches(run.main)["unrecorded"] == {}
        records[counter] = (last_launches(run.main)["signatures"], last_launches(run.main)["sequence"])
    assert len({json.dumps(record) for record in records.values()}) == 1, records



def test_launch_tiled_records_the_same_through_warps_copy_and_through_the_thread_mark(tmp_path, warp_cache):
    # The launch_tiled wrapper calls a copy of Warp's launch_tiled that reaches Warp's launch();
    # where no copy can be made it marks the thread instead. Both record what ran, identically,
    # with a tape's caller read as without the probe.
    body = """
import os
if os.environ.get("FORCE_MARK"):
    import _wcp_probe.launches as launches
    launches.reading_global_as = lambda *args: None
""" + PRELUDE + KERNELS + """
x = wp.zeros(8, dtype=float, device="cpu")
for _ in range(3):
    wp.launch_tiled(tiled, dim=[8], inputs=[x], device="cpu", block_dim=64)
wp.launch(fill, dim=8, inputs=[x])
wp.launch_tiled(tiled, dim=(4,), inputs=[x], block_dim=None)
cmd = wp.launch_tiled(tiled, dim=[8], inputs=[x], device="cpu", block_dim=8, record_cmd=True)
cmd.launch()
cmd.launch()
tape = wp.Tape()
with tape:
    wp.launch_tiled(tiled, dim=[8], inputs=[x], device="cpu", block_dim=1)
caller = tape.launches[-1][-1]["caller"] if isinstance(tape.launches[-1], list) else {}
print("CALLER " + json.dumps([os.path.basename(caller.get("file", "")), caller.get("func")]))
print("COPY " + json.dumps(hasattr(ctx, "_wcp_probe_original_launch")))
print("INVOKED " + json.dumps(INVOKED))
"""
    records = {}
    modes = [(mode + "/" + counter, dict(env, **counter_env)) for mode, env in (("copy", {}), ("mark", {"FORCE_MARK": "1"}))
             for counter, counter_env in COUNTERS.items()]
    for name, env in modes:
        mode = name.split("/")[0]
        run = run_script(tmp_path, body, cache=warp_cache, env=env)
        assert run.proc.returncode == 0, run.proc.stderr
        assert counter_of(run) == name.split("/")[1]
        out = run.proc.stdout
        assert json.loads(out.split("COPY ", 1)[1].split("\n", 1)[0]) == (mode == "copy")
        assert json.loads(out.split("CALLER ", 1)[1].split("\n", 1)[0]) == ["context.py", "launch_tiled"]
        invoked = json.loads(out.split("INVOKED ", 1)[1])
        final = last_launches(run.main)
        assert final["total"] == len(invoked) and final["unrecorded"] == {}
        records[name] = (final["signatures"], final["sequence"])
    assert len({json.dumps(record) for record in records.values()}) == 1, records
    signatures = records["copy/python"][0]
    assert [(s["entry"], s["dim"], s["block_dim"]) for s in signatures] == [
        ("launch_tiled", [8], 64), ("launch", [8], 0), ("launch_tiled", [4], 0), ("cmd", [8], 8),
        ("launch_tiled", [8], 1)]

@pytest.mark.timing
def test_loads_match_warps_own_log(tmp_path):
    body = PRELUDE + KERNELS + """
x = wp.zeros(8, dtype=float, device="cpu")
wp.launch(fill, dim=8, inputs=[x])
wp.set_module_options({"max_unroll": 3})
wp.launch(fill, dim=8, inputs=[x])
"""
    run = run_script(tmp_path, body)  # a fresh cache: both loads compile
    assert run.proc.returncode == 0, run.proc.stderr
    pattern = re.compile(r"^Module (\S+) ([0-9a-f]{7}) load on device '([^']+)'.* took [0-9.]+ ms\s+\((\w+)\)")
    logged = [m.groups() for m in map(pattern.match, run.proc.stdout.splitlines()) if m]
    loads = of_type(run.main, "load")
    recorded = [(l["name"], l["full_hash"][:7], l["device"], "compiled" if l["compiled"] else "cached") for l in loads]
    assert recorded == logged and len(recorded) == 2
    for load in loads:
        assert load["trigger"]["file"] == str(tmp_path / "app.py")
        files = [frame["file"] for frame in load["stack"]]
        assert str(tmp_path / "app.py") in files
        assert any("/warp/" in f for f in files)  # Warp frames are kept for the reader to classify
        assert not any(f.endswith("sitecustomize.py") or "/_wcp_probe/" in f for f in files)
        assert 0 <= load["hook_ms"] <= 1.0  # the probe's own time inside Warp's timer
        assert sorted(k["key"] for k in load["kernels"]) == ["fill", "scale", "tiled"]
        assert load["t_start"] <= load["t_end"]
        # The CPU clock of the build: measured on this thread over the same span, never more CPU
        # than the span had wall (a single thread), and the children's counter read at both ends.
        wall_ms = (load["t_end"] - load["t_start"]) * 1000.0
        assert load["cpu_ms"] is not None and 0 < load["cpu_ms"] <= wall_ms + 1.0, (load["cpu_ms"], wall_ms)
        assert load["compiled"] and load["cpu_ms"] > 0.5 * wall_ms  # a compile is CPU work, not waiting
        start, end = load["children_cpu_s"]
        assert 0 <= start <= end
    assert loads[1]["options"]["max_unroll"] == "3"
    created = [m for m in of_type(run.main, "module_created") if m["name"] == "__main__"]
    assert created and created[0]["config"]["max_unroll"] == "16"


def test_a_module_created_by_an_import_records_the_entry_scripts_import_line(tmp_path, warp_cache):
    # The entry script imports its kernel package before `import warp`: the module's creation
    # names the package's kernel line as its site and the entry script's import as entry_site,
    # the line a warp.config setting must precede.
    package = tmp_path / "kernels_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("import warp as wp\n\n\n@wp.kernel\ndef k(x: wp.array(dtype=float)):\n"
                                         "    x[wp.tid()] = 1.0\n")
    body = """
import os

import kernels_pkg

import warp as wp

wp.config.enable_backward = False
"""
    run = run_script(tmp_path, body, extra_path=[tmp_path])
    assert run.proc.returncode == 0, run.proc.stderr
    (created,) = [m for m in of_type(run.main, "module_created") if m["name"] == "kernels_pkg"]
    assert created["site"]["file"] == str(package / "__init__.py") and created["site"]["line"] == 4
    assert created["entry_site"] == {"file": str(tmp_path / "app.py"), "line": 4, "function": "<module>"}


def test_option_writes_and_where_they_land(tmp_path, warp_cache):
    body = """
import warp as wp
wp.set_module_options({"max_unroll": 2})
wp.set_module_options({"fast_math": True}, module=__import__("sys").modules[__name__])
wp.get_module(__name__).options.update({"lineinfo": True})


@wp.kernel(enable_backward=False)
def k(x: wp.array(dtype=float)):
    x[wp.tid()] = 1.0


wp.config.max_unroll = 3
try:
    if hasattr(wp, "DeterministicMode"):  # Warp 1.19 validates this one
        wp.config.deterministic = 3
    print("ACCEPTED")
except ValueError as error:
    print("REJECTED", type(error).__name__)
print("OPTIONS", sorted((k, repr(v)) for k, v in wp.get_module(__name__).options.items()))
"""
    bare = run_script(tmp_path, body, probe=False, cache=warp_cache)
    run = run_script(tmp_path, body, cache=warp_cache)
    assert run.proc.returncode == bare.proc.returncode == 0, run.proc.stderr
    app_lines = lambda out: [l for l in out.splitlines() if l.startswith(("OPTIONS", "REJECTED", "ACCEPTED"))]
    assert app_lines(run.proc.stdout) == app_lines(bare.proc.stdout)
    if EXPECT != "old":
        assert "REJECTED ValueError" in run.proc.stdout
    writes = [(w["api"], w["target"], w["key"]) for w in of_type(run.main, "option_write") if not w["by_warp"]]
    assert ("set_module_options", "__main__", "max_unroll") in writes
    assert ("set_module_options", "__main__", "fast_math") in writes
    assert ("module.options", "__main__", "lineinfo") in writes
    assert ("kernel", "__main__", "enable_backward") in writes
    assert ("config", "warp.config", "max_unroll") in writes
    assert not [w for w in writes if w[0] == "module.options" and w[2] in ("max_unroll", "fast_math")]
    if EXPECT != "old":
        assert not [w for w in writes if w[2] == "deterministic"]  # rejected: nothing was written


@pytest.mark.skipif(EXPECT == "old", reason="module='unique' with module_options is Warp 1.19 API")
def test_unique_module_options(tmp_path, warp_cache):
    body = """
import warp as wp


@wp.kernel(module="unique", module_options={"max_unroll": 1})
def k(x: wp.array(dtype=float)):
    x[wp.tid()] = 1.0


print("NAME", k.module.name)
"""
    run = run_script(tmp_path, body, cache=warp_cache)
    assert run.proc.returncode == 0, run.proc.stderr
    name = run.proc.stdout.split("NAME ", 1)[1].split()[0]
    writes = [(w["api"], w["target"], w["key"], w.get("scope")) for w in of_type(run.main, "option_write")
              if w["api"] != "config"]
    assert writes == [("kernel", name, "max_unroll", "module")]


def test_set_module_options_by_warp_itself_is_marked(tmp_path, warp_cache):
    # warp.fem (and warp.optim) call wp.set_module_options at import for their own modules:
    # those writes are Warp's, even though the first frame outside Warp is the app's import.
    body = """
import warp as wp
import warp.fem

wp.set_module_options({"max_unroll": 2})
"""
    run = run_script(tmp_path, body, cache=warp_cache)
    assert run.proc.returncode == 0, run.proc.stderr
    writes = [w for w in of_type(run.main, "option_write") if w["api"] == "set_module_options"]
    own = [w for w in writes if w["target"] == "__main__"]
    warp_writes = [w for w in writes if w["target"] != "__main__"]
    assert [(w["key"], w["by_warp"]) for w in own] == [("max_unroll", False)]
    assert warp_writes, "warp.fem sets options on its modules at import"
    assert all(w["by_warp"] and w["target"].startswith("warp") for w in warp_writes), warp_writes


def test_cuda_cache_disable_set_in_process(tmp_path, warp_cache):
    body = PRELUDE + KERNELS + """
os.environ["CUDA_CACHE_DISABLE"] = "1"
x = wp.zeros(8, dtype=float, device="cpu")
wp.launch(fill, dim=8, inputs=[x])
"""
    run = run_script(tmp_path, body, cache=warp_cache)
    assert run.proc.returncode == 0, run.proc.stderr
    load = of_type(run.main, "load")[0]
    assert load["cache"]["CUDA_CACHE_DISABLE"] == "1"
    assert load["cache"]["WARP_CACHE_PATH"] == str(warp_cache)
    assert load["cache"]["cache_kernels"] is True
    exit_ = of_type(run.main, "exit")[0]
    assert exit_["environ"] == {"CUDA_CACHE_DISABLE": "1", "WARP_CACHE_PATH": str(warp_cache)}


@pytest.mark.parametrize("fault", [None, "record", "load", "site"])
def test_app_output_and_status_unchanged(tmp_path, warp_cache, fault):
    body = PRELUDE + KERNELS + """
x = wp.zeros(8, dtype=float, device="cpu")
for i in range(20):
    wp.launch(fill if i % 3 else scale, dim=8, inputs=[x] if i % 3 else [x, 2.0])
wp.set_module_options({"max_unroll": 5})
wp.launch(fill, dim=8, inputs=[x])
print("APP", x.numpy().tolist(), len(INVOKED))
sys.exit(7)
"""
    bare = run_script(tmp_path, body, probe=False, cache=warp_cache)
    run = run_script(tmp_path, body, cache=warp_cache, env={"WCP_PROBE_FAULT": fault} if fault else None)
    app = lambda out: [l for l in out.splitlines() if l.startswith("APP")]
    assert run.proc.returncode == bare.proc.returncode == 7
    assert app(run.proc.stdout) == app(bare.proc.stdout) and app(bare.proc.stdout)
    assert "Traceback" not in run.proc.stderr and "sitecustomize" not in run.proc.stderr
    if fault == "record":
        assert any("probe error" in k for k in last_launches(run.main)["unrecorded"])
    if fault == "load":
        assert any(m.startswith("module loads (probe error") for m in of_type(run.main, "exit")[0]["missing"])


def test_launches_from_many_threads_are_all_counted(tmp_path, warp_cache):
    # Warp's CPU launch releases the GIL, so threads interleave around the counter; the native one
    # counts an identical launch without the lock when nobody holds it. Every launch is counted
    # once, under either counter, whatever the interleaving.
    body = PRELUDE + KERNELS + """
import threading
xs = [wp.zeros(8, dtype=float, device="cpu") for _ in range(4)]
wp.launch(fill, dim=8, inputs=[xs[0]])
wp.launch(scale, dim=8, inputs=[xs[0], 1.0])

def work(i):
    for n in range(1500):
        if i % 2:
            wp.launch(fill, dim=8, inputs=[xs[i]])
        else:
            wp.launch(scale, dim=8, inputs=[xs[i], 1.0], device="cpu")

threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print("INVOKED " + json.dumps(INVOKED))
"""
    for counter, env in COUNTERS.items():
        run = run_script(tmp_path, body, cache=warp_cache, env=env)
        assert run.proc.returncode == 0, run.proc.stderr
        assert counter_of(run) == counter
        invoked = json.loads(run.proc.stdout.split("INVOKED ", 1)[1])
        kernels = [s["kernel"] for s in launched(run.main)]
        assert len(invoked) == 6002 and last_launches(run.main)["total"] == 6002
        assert sorted(kernels) == sorted(key for key, _ in invoked), counter
        assert last_launches(run.main)["unrecorded"] == {}


def test_record_cmd_replays_follow_set_dim(tmp_path, warp_cache):
    body = PRELUDE + KERNELS + """
x = wp.zeros(8, dtype=float, device="cpu")
cmd = wp.launch(fill, dim=8, inputs=[x], record_cmd=True)
cmd.launch()
cmd.set_dim(4)
cmd.launch()
cmd.launch()
print("INVOKED " + json.dumps(INVOKED))
"""
    run = run_script(tmp_path, body, cache=warp_cache)
    assert run.proc.returncode == 0, run.proc.stderr
    sigs = launched(run.main)
    assert [(s["kernel"], s["entry"], s["dim"]) for s in sigs] == [("fill", "cmd", [8]), ("fill", "cmd", [4]),
                                                                  ("fill", "cmd", [4])]
    assert len(json.loads(run.proc.stdout.split("INVOKED ", 1)[1])) == 3


PARALLEL = """
import inspect, os, sys, threading
import warp as wp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import part_a, part_b, part_c

modules = [part_a, part_b, part_c]
if "max_workers" in inspect.signature(wp.force_load).parameters:
    wp.force_load(device="cpu", modules=[wp.get_module(m.__name__) for m in modules], max_workers=3)  # PRELOAD
else:
    def load_one(module):
        wp.load_module(module, device="cpu")

    threads = [threading.Thread(target=load_one, args=(m,)) for m in modules]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
"""


@pytest.mark.timing
def test_parallel_loads_are_recorded_as_they_ran(tmp_path):
    # Each load on its own thread gets its own record, span and trigger; the probe takes no lock
    # inside Warp's timers, so the spans of a parallel preload overlap.
    for value, name in enumerate(("part_a", "part_b", "part_c")):  # distinct sources: distinct hashes
        (tmp_path / (name + ".py")).write_text(
            "import warp as wp\n\n\n@wp.kernel\ndef k(a: wp.array(dtype=float)):\n    a[wp.tid()] = %d.0\n" % value)
    run = run_script(tmp_path, PARALLEL)
    assert run.proc.returncode == 0, run.proc.stderr
    loads = sorted(of_type(run.main, "load"), key=lambda load: load["name"])
    assert [load["name"] for load in loads] == ["part_a", "part_b", "part_c"]
    assert len({load["thread"] for load in loads}) == 3
    starts, ends = [load["t_start"] for load in loads], [load["t_end"] for load in loads]
    assert max(starts) < min(ends), "the three cold builds did not overlap"
    for load in loads:
        assert load["trigger"]["file"] == str(tmp_path / "app.py")
        if EXPECT == "1.19":  # a pool worker's load names the force_load call that asked for it
            assert "PRELOAD" in (tmp_path / "app.py").read_text().splitlines()[load["trigger"]["line"] - 1]
        assert 0 <= load["hook_ms"] <= 1.0
        # Per thread: each build's CPU is its own thread's, so on 2 cores three overlapping
        # builds' CPU sums to at most the cores' share of their common span, while a process clock
        # would give each of them all three.
        assert load["cpu_ms"] is not None and load["cpu_ms"] > 0
    span_ms = (max(ends) - min(starts)) * 1000.0
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    assert sum(load["cpu_ms"] for load in loads) <= cores * span_ms + 5.0


def test_a_load_record_carries_no_ownership_lookup(tmp_path):
    # Which distribution a kernel ships in is the tool's business after the run (it read every
    # installed distribution inside Warp's timer before); the record has the file to look it up.
    run = run_script(tmp_path, PRELUDE + KERNELS + """
x = wp.zeros(8, dtype=float, device="cpu")
wp.launch(fill, dim=8, inputs=[x])
""")
    assert run.proc.returncode == 0, run.proc.stderr
    (load,) = of_type(run.main, "load")
    assert all("package" not in kernel and kernel["file"] for kernel in load["kernels"])


QUIET = """
import warp as wp

if hasattr(wp.config, "log_level"):
    wp.config.log_level = wp.LOG_ERROR  # a quiet application: Warp prints nothing below errors
else:
    wp.config.quiet = True


@wp.kernel
def twice(x: wp.array(dtype=float)):
    x[wp.tid()] = x[wp.tid()] * 2.0


x = wp.ones(8, dtype=float, device="cpu")
wp.launch(twice, dim=8, inputs=[x], device="cpu")
print("sum", float(x.numpy().sum()), getattr(wp.config, "log_level", None), getattr(wp.config, "verbose", None))
"""


def test_a_quiet_program_stays_quiet_and_its_loads_are_still_timed(tmp_path):
    # Its own cold cache each, so both runs compile: the output must be the same to the byte.
    bare = run_script(tmp_path, QUIET, probe=False, cache=str(tmp_path / "bare-cache"))
    run = run_script(tmp_path, QUIET, cache=str(tmp_path / "probe-cache"))
    assert bare.proc.returncode == 0, bare.proc.stderr
    assert (run.proc.returncode, run.proc.stdout, run.proc.stderr) == (0, bare.proc.stdout, bare.proc.stderr)
    assert "took" not in run.proc.stdout  # Warp printed no timer, so only the probe's hooks tell the times
    [load] = of_type(run.main, "load")
    assert load["compiled"] is True
    assert load["native_builds"] == 1 and load["native_ms"] > 0.0
    assert load["t_end"] - load["t_start"] >= load["native_ms"] / 1000.0
    if EXPECT != "old":
        assert load["built_pch"] is True  # the process's first CPU build made the precompiled header
