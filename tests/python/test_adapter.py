"""The probe's version adapter, on fake warp packages of both API eras (no real Warp needed).

"new" is the Warp 1.19 layout (warp._src.context, config.log_level, loads seen through
Module._compile + ModuleExec.__init__); "old" is the warp.context layout of Warp 1.9
(config.verbose, Module.load wrapped).
"""
import os

import pytest

from conftest import launched, last_launches, of_type, run_script
from fake_warp import make_fake_warp

ERAS = ["new", "old"]

APP_HEADER = """
import warp as wp
import warp.{ctx} as ctx

def k1(x):
    pass

def k2(x, y):
    pass

k1 = wp.kernel(k1)
k2 = wp.kernel(k2)

class Arr:
    def __init__(self, dtype):
        self.dtype = dtype

a = Arr(float)
"""


def ctx_name(era):
    return "_src.context" if era == "new" else "context"


def fake(tmp_path, era, **kwargs):
    root = tmp_path / ("fake-" + era)
    make_fake_warp(str(root), era, **kwargs)
    return root


def run_fake(tmp_path, era, body, probe=True, fake_kwargs=None, **kwargs):
    root = fake(tmp_path, era, **(fake_kwargs or {}))
    source = APP_HEADER.format(ctx=ctx_name(era)) + body
    return run_script(tmp_path, source, probe=probe, extra_path=[root], **kwargs)


def invocations_line(run):
    line = [l for l in run.proc.stdout.splitlines() if l.startswith("INVOCATIONS ")]
    return eval(line[-1][len("INVOCATIONS "):]) if line else None


@pytest.mark.parametrize("era", ERAS)
def test_attach_reports_the_era(tmp_path, era):
    run = run_fake(tmp_path, era, "wp.launch(k1, dim=1, inputs=[a])\n")
    assert run.proc.returncode == 0, run.proc.stderr
    records = run.main
    assert records[0]["type"] == "process"
    attach = of_type(records, "attach")[0]
    assert attach["api"] == ("warp._src" if era == "new" else "warp.context")
    assert attach["timers"] == "hooks"  # the probe's own load hooks; Warp's log level is left alone
    assert attach["warp_dir"].endswith(os.sep + "warp" + os.sep)
    assert attach["missing"] == []
    if era == "new":
        assert {"Module._compile", "ModuleExec.__init__"} <= set(attach["hooks"])
        assert "Module.load" not in attach["hooks"]
    else:
        assert "Module.load" in attach["hooks"]
    for hook in ("launch", "launch_tiled", "Launch.launch", "capture_launch", "kernel", "config", "Module.options",
                 "os._exit", "fork", "build_cpu"):
        assert hook in attach["hooks"]
    exit_ = of_type(records, "exit")[0]
    assert exit_["how"] == "atexit" and exit_["cuda_toolkit"] == "12.8"


@pytest.mark.parametrize("era", ERAS)
def test_interleaved_entry_points_are_one_sequence(tmp_path, era):
    # Defect 1: a, then b via launch_tiled, then a twice was recorded as a x1, b x3.
    body = """
wp.launch(k1, dim=4, inputs=[a])
wp.launch_tiled(k2, dim=[2], inputs=[a, 1.0], block_dim=8)
wp.launch(k1, dim=4, inputs=[a])
wp.launch(k1, dim=4, inputs=[a])
print("INVOCATIONS", ctx.invocations)
"""
    run = run_fake(tmp_path, era, body)
    assert run.proc.returncode == 0, run.proc.stderr
    got = [(s["kernel"], s["entry"], s["dim"]) for s in launched(run.main)]
    assert got == [("k1", "launch", [4]), ("k2", "launch_tiled", [2]), ("k1", "launch", [4]), ("k1", "launch", [4])]
    assert len(invocations_line(run)) == 4


@pytest.mark.parametrize("era", ERAS)
def test_call_shapes_bind_by_the_real_signature(tmp_path, era):
    body = """
wp.launch(k1, 4, [a])
wp.launch(k1, dim=4, inputs=[a])
wp.launch(kernel=k1, dim=4, inputs=[a])
wp.launch(k1, 4, [a], [], [], [], "cpu")
wp.launch(k1, 4, [], [a], device="cpu")
wp.launch(k2, (2, 3), inputs=[a], outputs=[Arr(int)], adjoint=True, block_dim=32)
wp.launch_tiled(k2, dim=(2, 2), inputs=[a, 3], block_dim=16, device="cuda:0")
wp.launch_tiled(k2, dim=2, inputs=[a, 3], block_dim=16)
print("INVOCATIONS", ctx.invocations)
"""
    run = run_fake(tmp_path, era, body)
    assert run.proc.returncode == 0, run.proc.stderr
    sigs = launched(run.main)
    assert len(sigs) == len(invocations_line(run)) == 8
    assert all((s["kernel"], s["dim"], s["device"], s["dtypes"]) == ("k1", [4], "cpu", ["float"]) for s in sigs[:5])
    assert sigs[5]["dim"] == [2, 3] and sigs[5]["dtypes"] == ["float", "int"] and sigs[5]["adjoint"] is True
    assert sigs[5]["block_dim"] == 32
    assert sigs[6]["entry"] == "launch_tiled" and sigs[6]["dim"] == [2, 2] and sigs[6]["device"] == "cuda:0"
    assert sigs[6]["dtypes"] == ["float", ""] and sigs[6]["block_dim"] == 16
    assert sigs[7]["entry"] == "launch_tiled" and sigs[7]["dim"] == [2] and sigs[7]["dtypes"] == ["float", ""]


@pytest.mark.parametrize("era", ERAS)
def test_device_is_the_one_the_launch_used(tmp_path, era):
    # Defect 2: device=None launches took the default device at exit.
    body = """
wp.launch(k1, dim=1, inputs=[a])
with wp.ScopedDevice("cuda:0"):
    wp.launch(k1, dim=1, inputs=[a])
    wp.launch(k1, dim=1, inputs=[a], device="cpu")
    wp.launch(k1, dim=1, inputs=[a], stream=wp.Stream("cpu"))
wp.launch(k1, dim=1, inputs=[a], device="cuda")
wp.set_device("cuda:0")
wp.launch(k1, dim=1, inputs=[a])
print("INVOCATIONS", ctx.invocations)
"""
    run = run_fake(tmp_path, era, body)
    assert run.proc.returncode == 0, run.proc.stderr
    devices = [s["device"] for s in launched(run.main)]
    assert devices == [d for _, d, _ in invocations_line(run)]
    assert devices == ["cpu", "cuda:0", "cpu", "cpu", "cuda:0", "cuda:0"]


@pytest.mark.parametrize("era", ERAS)
def test_record_cmd_capture_and_graph_replay(tmp_path, era):
    body = """
cmd = wp.launch(k1, dim=4, inputs=[a], record_cmd=True)
cmd.launch()
cmd.launch()
wp.capture_begin()
wp.launch(k1, dim=4, inputs=[a])
wp.launch(k2, dim=4, inputs=[a, 1])
graph = wp.capture_end()
for _ in range(3):
    wp.capture_launch(graph)
print("INVOCATIONS", ctx.invocations)
"""
    run = run_fake(tmp_path, era, body)
    assert run.proc.returncode == 0, run.proc.stderr
    got = [(s["kernel"], s["entry"], s["dim"]) for s in launched(run.main)]
    assert got == [("k1", "cmd", [4])] * 2 + [("k1", "capture", [4]), ("k2", "capture", [4])] + [("graph#1", "graph", [2])] * 3


@pytest.mark.parametrize("era", ERAS)
def test_tape_sees_the_callers_frame(tmp_path, era):
    body = """
with wp.Tape() as tape:
    wp.launch(k1, dim=1, inputs=[a])
print("CALLER", tape.launches[-1][-1]["caller"]["file"], tape.launches[-1][-1]["caller"]["lineno"])
tape.backward()
"""
    bare = run_fake(tmp_path, era, body, probe=False)
    probed = run_fake(tmp_path, era, body)
    assert bare.proc.stdout == probed.proc.stdout
    assert "CALLER " + str(tmp_path / "app.py") in probed.proc.stdout
    backward = of_type(probed.main, "tape_backward")
    assert backward and backward[0]["kernels"] == ["k1"]
    assert [s["adjoint"] for s in launched(probed.main)] == [False, True]


@pytest.mark.parametrize("era", ERAS)
def test_loads_are_recorded_once_each(tmp_path, era):
    body = """
for _ in range(5):
    wp.launch(k1, dim=1, inputs=[a])
wp.set_module_options({"max_unroll": 4})
for _ in range(5):
    wp.launch(k1, dim=1, inputs=[a])
"""
    run = run_fake(tmp_path, era, body)
    assert run.proc.returncode == 0, run.proc.stderr
    loads = of_type(run.main, "load")
    printed = [l for l in run.proc.stdout.splitlines() if l.startswith("Module ")]
    assert len(loads) == len(printed) == 2
    for load, line in zip(loads, printed):
        name, short = line.split()[1:3]
        assert (load["name"], load["full_hash"][:7], load["device"]) == (name, short, "cpu")
        assert load["compiled"] is True
        assert load["trigger"]["file"] == str(tmp_path / "app.py")
        assert load["stack"][0]["function"] == ("load" if era == "new" else "launch")
        assert [k["key"] for k in load["kernels"]] == ["k1", "k2"]
    assert loads[1]["options"]["max_unroll"] == "4"


def test_old_era_executables_that_cannot_be_marked(tmp_path):
    # Defect 4: a hook that cannot attach part-way must say so, not drop loads silently.
    run = run_fake(tmp_path, "old", "wp.launch(k1, dim=1, inputs=[a])\nwp.launch(k1, dim=1, inputs=[a])\n",
                   fake_kwargs={"exec_weakref": False})
    assert run.proc.returncode == 0, run.proc.stderr
    exit_ = of_type(run.main, "exit")[0]
    assert any(m.startswith("module loads (cannot mark module executables") for m in exit_["missing"])
    # With weak references allowed (still __slots__), loads are recorded exactly once.
    run = run_fake(tmp_path, "old", "wp.launch(k1, dim=1, inputs=[a])\nwp.launch(k1, dim=1, inputs=[a])\n",
                   fake_kwargs={"exec_weakref": True})
    assert len(of_type(run.main, "load")) == 1
    assert of_type(run.main, "exit")[0]["missing"] == []


@pytest.mark.parametrize("era", ERAS)
def test_missing_entry_points_are_named(tmp_path, era):
    run = run_fake(tmp_path, era, "wp.launch(k1, dim=1, inputs=[a])\n",
                   fake_kwargs={"drop": ("capture_launch", "Launch")})
    assert run.proc.returncode == 0, run.proc.stderr
    missing = of_type(run.main, "attach")[0]["missing"]
    assert "launches via warp.capture_launch (not found)" in missing
    assert "launches via Launch.launch (not found)" in missing
    assert len(launched(run.main)) == 1


@pytest.mark.parametrize("era", ERAS)
def test_unknown_launch_signature_uses_the_generic_binder(tmp_path, era):
    root = fake(tmp_path, era)
    context = root / "warp" / ("_src" if era == "new" else "") / "context.py"
    text = context.read_text()
    text = text.replace("max_blocks=0, block_dim=", "max_blocks=0, *, extra=1, block_dim=")
    context.write_text(text)
    source = APP_HEADER.format(ctx=ctx_name(era)) + """
wp.launch(k1, 4, [a])
wp.launch(k1, dim=4, inputs=[a], extra=2, block_dim=8)
"""
    run = run_script(tmp_path, source, extra_path=[root])
    assert run.proc.returncode == 0, run.proc.stderr
    sigs = launched(run.main)
    assert [(s["kernel"], s["dim"], s["block_dim"]) for s in sigs] == [("k1", [4], 0), ("k1", [4], 8)]


@pytest.mark.parametrize("era", ERAS)
def test_block_dim_left_to_warp_is_recorded_as_zero_in_both_eras(tmp_path, era):
    # Warp 1.9's launch() defaults block_dim to 256, 1.19's to None: the same program must
    # record the same workload under both, or comparing across an upgrade says INVALID.
    body = """
wp.launch(k1, dim=4, inputs=[a])
wp.launch(k1, dim=4, inputs=[a], block_dim=64)
wp.launch(k1, dim=4, inputs=[a], record_cmd=True).launch()
"""
    run = run_fake(tmp_path, era, body)
    assert run.proc.returncode == 0, run.proc.stderr
    assert [(s["block_dim"], s["entry"]) for s in launched(run.main)] == [(0, "launch"), (64, "launch"), (0, "cmd")]


@pytest.mark.parametrize("era", ERAS)
def test_option_writes(tmp_path, era):
    body = """
wp.set_module_options({"max_unroll": 2})
wp.set_module_options({"fast_math": True}, module=__name__)
wp.get_module(__name__).options.update({"lineinfo": True, "mode": "debug"})
wp.get_module(__name__).options["enable_backward"] = False

def k3(x):
    pass

k3 = wp.kernel(enable_backward=False)(k3)

def k4(x):
    pass

k4 = wp.kernel(k4, module="unique", module_options={"max_unroll": 1})
wp.config.max_unroll = 3
print("OPTIONS", sorted(wp.get_module(__name__).options.items()))
"""
    bare = run_fake(tmp_path, era, body, probe=False)
    run = run_fake(tmp_path, era, body)
    assert run.proc.returncode == 0, run.proc.stderr
    # The options land on the same module with and without the probe.
    assert [l for l in run.proc.stdout.splitlines() if l.startswith("OPTIONS")] == \
        [l for l in bare.proc.stdout.splitlines() if l.startswith("OPTIONS")]
    writes = [(w["api"], w["target"], w["key"], w["value"]) for w in of_type(run.main, "option_write")
              if not w.get("by_warp")]
    assert writes == [
        ("set_module_options", "__main__", "max_unroll", "2"),
        ("set_module_options", "__main__", "fast_math", "True"),
        ("module.options", "__main__", "lineinfo", "True"),
        ("module.options", "__main__", "mode", "'debug'"),
        ("module.options", "__main__", "enable_backward", "False"),
        ("kernel", "__main__", "enable_backward", "False"),
        ("kernel", writes[6][1], "max_unroll", "1"),
        ("config", "warp.config", "max_unroll", "3"),
    ]
    assert writes[6][1].startswith("k4_")
    for write in of_type(run.main, "option_write"):
        if not write.get("by_warp"):
            assert write["site"]["file"] == str(tmp_path / "app.py")


def test_rejected_config_write_reaches_the_app(tmp_path):
    body = """
try:
    wp.config.deterministic = "sometimes"
except ValueError as error:
    print("REJECTED", error)
print("VALUE", wp.config.deterministic)
"""
    bare = run_fake(tmp_path, "new", body, probe=False)
    run = run_fake(tmp_path, "new", body)
    assert run.proc.stdout == bare.proc.stdout
    assert "REJECTED warp.config.deterministic must be" in run.proc.stdout
    assert not [w for w in of_type(run.main, "option_write") if w["key"] == "deterministic"]


@pytest.mark.parametrize("era", ERAS)
def test_load_error(tmp_path, era):
    body = """
try:
    wp.launch(k1, dim=1, inputs=[a])
except RuntimeError as error:
    print("APP SAW", error)
"""
    env = {"FAKE_COMPILE_FAIL": "__main__"}
    bare = run_fake(tmp_path, era, body, probe=False, env=env)
    run = run_fake(tmp_path, era, body, env=env)
    assert run.proc.stdout == bare.proc.stdout and run.proc.returncode == bare.proc.returncode
    errors = of_type(run.main, "load_error")
    assert len(errors) == 1 and "fake compile error" in errors[0]["error"]
    assert errors[0]["name"] == "__main__" and errors[0]["device"] == "cpu"
    assert launched(run.main) == []


@pytest.mark.parametrize("era", ERAS)
def test_the_programs_log_settings_are_left_alone(tmp_path, era):
    # Earlier probes lowered log_level to LOG_DEBUG (verbose on old Warp): every debug line then
    # reached the program's stdout, and programs that check their own output failed.
    body = """
wp.launch(k1, dim=1, inputs=[a])
print("SETTINGS", getattr(wp.config, "log_level", None), getattr(wp.config, "verbose", None))
"""
    bare = run_fake(tmp_path, era, body, probe=False)
    run = run_fake(tmp_path, era, body)
    assert run.proc.returncode == 0, run.proc.stderr
    assert ("SETTINGS 20 None" if era == "new" else "SETTINGS None False") in run.proc.stdout
    assert run.proc.stdout == bare.proc.stdout and run.proc.stderr == bare.proc.stderr


@pytest.mark.parametrize("era", ERAS)
def test_native_compile_time_comes_from_the_build_hooks(tmp_path, era):
    body = """
wp.launch(k1, dim=1, inputs=[a])
"""
    cache = tmp_path / "cache"
    first = run_fake(tmp_path, era, body, cache=str(cache))
    assert first.proc.returncode == 0, first.proc.stderr
    [load] = of_type(first.main, "load")
    assert load["compiled"] is True
    assert load["native_builds"] == 1 and load["native_ms"] >= 0.0
    assert load["built_pch"] is (era == "new")  # the fake's new era builds with a header folder
    second = run_fake(tmp_path, era, body, cache=str(cache))
    [cached] = of_type(second.main, "load")
    assert cached["compiled"] is False and cached["native_ms"] == 0.0 and cached["native_builds"] == 0


@pytest.mark.parametrize("era", ERAS)
def test_a_failing_native_build_passes_through_unchanged(tmp_path, era):
    body = """
try:
    wp.launch(k1, dim=1, inputs=[a])
except RuntimeError as error:
    print("APP SAW", error)
"""
    env = {"FAKE_NATIVE_FAIL": "__main__"}
    bare = run_fake(tmp_path, era, body, probe=False, env=env)
    run = run_fake(tmp_path, era, body, env=env)
    assert "APP SAW fake native build error" in bare.proc.stdout
    assert run.proc.stdout == bare.proc.stdout and run.proc.returncode == bare.proc.returncode
    [error] = of_type(run.main, "load_error")
    assert "fake native build error" in error["error"] and error["native_builds"] == 1


@pytest.mark.parametrize("era", ERAS)
def test_a_build_hook_fault_stays_inside_and_is_named(tmp_path, era):
    body = """
wp.launch(k1, dim=1, inputs=[a])
print("DONE")
"""
    bare = run_fake(tmp_path, era, body, probe=False)
    run = run_fake(tmp_path, era, body, env={"WCP_PROBE_FAULT": "build"})
    assert run.proc.stdout == bare.proc.stdout and run.proc.returncode == 0
    [load] = of_type(run.main, "load")
    assert load["compiled"] is True and load["native_ms"] is None  # unknown, never a made-up 0
    assert any(m.startswith("native compile times (probe error") for m in of_type(run.main, "exit")[0]["missing"])


FAULT_APP = """
for i in range(3):
    wp.launch(k1, dim=i + 1, inputs=[a])
wp.set_module_options({"max_unroll": 2})
wp.config.max_unroll = 5
wp.launch(k1, dim=1, inputs=[a])
print("DONE", len(ctx.invocations))
raise SystemExit(3)
"""


@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize("fault", ["record", "load", "site", "emit", "attach"])
def test_a_failing_hook_changes_nothing(tmp_path, era, fault):
    bare = run_fake(tmp_path, era, FAULT_APP, probe=False)
    run = run_fake(tmp_path, era, FAULT_APP, env={"WCP_PROBE_FAULT": fault})
    assert (run.proc.returncode, run.proc.stdout, run.proc.stderr) == \
        (bare.proc.returncode, bare.proc.stdout, bare.proc.stderr)
    assert run.proc.returncode == 3
    if fault == "emit":
        return  # nothing can be written; that it changed nothing is the point
    exit_ = of_type(run.main, "exit")[0]
    snapshot = last_launches(run.main)
    if fault == "record":
        assert any("probe error" in what for what in snapshot["unrecorded"])
    elif fault in ("load", "attach"):
        assert any("probe error" in what for what in exit_["missing"])


@pytest.mark.parametrize("era", ERAS)
def test_cache_clears_and_process_record(tmp_path, era):
    root = fake(tmp_path, era)
    (tmp_path / "pkgapp").mkdir()
    (tmp_path / "pkgapp" / "__init__.py").write_text("")
    (tmp_path / "pkgapp" / "main.py").write_text(
        "import warp as wp\nwp.clear_kernel_cache()\nwp.clear_lto_cache()\n")
    # Run the package module with -m semantics through a tiny launcher script.
    run = run_script(tmp_path, "import os, sys\nos.execv(sys.executable, [sys.executable, '-m', 'pkgapp.main', 'x'])\n",
                     extra_path=[root, tmp_path])
    assert run.proc.returncode == 0, run.proc.stderr
    process = run.main[0]
    assert process["main"] == "pkgapp.main"
    assert process["argv"][1:] == ["x"]
    assert process["cwd"] == str(tmp_path) and process["forked_from"] is None and process["mp_child"] is False
    clears = [(c["what"], c["site"]["file"], c["site"]["line"]) for c in of_type(run.main, "cache_clear")]
    main_py = str(tmp_path / "pkgapp" / "main.py")
    assert clears == [("clear_kernel_cache", main_py, 2), ("clear_lto_cache", main_py, 3)]
