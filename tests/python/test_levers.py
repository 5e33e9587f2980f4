"""Levers (WCP_PROBE_LEVERS, docs/instrumentation.md "Levers") on real Warp, whichever era this
interpreter has. Each program reads back what the lever did from inside (wp.config, a module's
options, a kernel's module, the cache folder) and prints it, so no test needs a module build."""
import json

import pytest

from conftest import EXPECT, needs_warp, of_type, run_script

pytestmark = needs_warp

REPORT = """
import json, os, sys
import warp as wp
try:
    import warp._src.context as ctx
except ImportError:
    import warp.context as ctx


def report(**values):
    print("REPORT " + json.dumps(values))
"""


def with_levers(levers):
    return {"WCP_PROBE_LEVERS": levers if isinstance(levers, str) else json.dumps(levers)}


def reported(run):
    assert run.proc.returncode == 0, run.proc.stderr
    lines = [line for line in run.proc.stdout.splitlines() if line.startswith("REPORT ")]
    assert len(lines) == 1, run.proc.stdout
    return json.loads(lines[0][len("REPORT "):])


def lever_records(run, lever_id=None):
    return [r for r in of_type(run.main, "lever") if lever_id is None or r["id"] == lever_id]


def set_up(run, lever_id):
    """The lever's first record: its status in this process."""
    records = lever_records(run, lever_id)
    assert records, of_type(run.main, "lever")
    return records[0]


def test_config_lever_is_set_right_after_import(tmp_path, warp_cache):
    body = REPORT + """
@wp.kernel
def k(x: wp.array(dtype=float)):
    x[wp.tid()] = 1.0


report(config=wp.config.enable_backward, module=k.module.options["enable_backward"])
"""
    run = run_script(tmp_path, body, cache=warp_cache,
                     env=with_levers([{"id": "backward-off", "kind": "config", "name": "enable_backward",
                                       "value": False}]))
    assert reported(run) == {"config": False, "module": False}
    record = set_up(run, "backward-off")
    assert (record["status"], record["kind"]) == ("applied", "config")
    # The lever's write is not the program's: no option_write record for it.
    assert [w for w in of_type(run.main, "option_write") if w["key"] == "enable_backward"] == []
    created = [m for m in of_type(run.main, "module_created") if m["name"] == "__main__"]
    assert created and created[0]["config"]["enable_backward"] == "False"


def test_config_lever_this_warp_lacks_is_not_applicable(tmp_path, warp_cache):
    # Warp 1.9.1 has no use_precompiled_headers; 1.19 has none of this made-up name.
    name = "use_precompiled_headers" if EXPECT == "old" else "no_such_setting"
    body = REPORT + "report(has=hasattr(wp.config, %r))\n" % name
    run = run_script(tmp_path, body, cache=warp_cache,
                     env=with_levers([{"id": "pch", "kind": "config", "name": name, "value": True}]))
    assert reported(run) == {"has": False}
    record = set_up(run, "pch")
    assert record["status"] == "not_applicable"
    assert record["detail"] == "this Warp has no warp.config.%s" % name


@pytest.mark.skipif(EXPECT == "old", reason="Warp 1.9.1 has no use_precompiled_headers")
def test_config_lever_flips_the_precompiled_header(tmp_path, warp_cache):
    body = REPORT + "report(pch=wp.config.use_precompiled_headers)\n"
    run = run_script(tmp_path, body, cache=warp_cache,
                     env=with_levers([{"id": "pch", "kind": "config", "name": "use_precompiled_headers",
                                       "value": False}]))
    assert reported(run) == {"pch": False}
    assert set_up(run, "pch")["status"] == "applied"


def test_config_lever_that_warp_refuses_fails_and_the_program_runs(tmp_path, warp_cache):
    # Warp validates warp.config.deterministic (1.19) and nothing validates a module object's
    # attribute on 1.9.1: a lever whose value setattr refuses is "failed", where it raises.
    body = REPORT + "report(ok=True)\n"
    lever = {"id": "det", "kind": "config", "name": "deterministic", "value": "yes please"}
    run = run_script(tmp_path, body, cache=warp_cache, env=with_levers([lever]))
    assert reported(run) == {"ok": True}
    record = set_up(run, "det")
    if EXPECT == "old":
        assert record["status"] in ("applied", "not_applicable")
    else:
        assert record["status"] == "failed"
        assert "ValueError" in record["detail"]


def test_module_option_lever_is_set_at_creation_and_the_record_shows_it(tmp_path, warp_cache):
    body = REPORT + """
@wp.kernel
def k(x: wp.array(dtype=float)):
    x[wp.tid()] = 1.0


other = wp.get_module("other_module")
report(main=k.module.options["max_unroll"], other=other.options["max_unroll"])
"""
    run = run_script(tmp_path, body, cache=warp_cache,
                     env=with_levers([{"id": "unroll", "kind": "module_option", "name": "max_unroll", "value": 2,
                                       "modules": ["__main__"]}]))
    values = reported(run)
    assert values["main"] == 2
    assert values["other"] != 2  # not a target
    records = lever_records(run, "unroll")
    assert records[0]["status"] == "applied"
    assert [r["module"] for r in records if "module" in r] == ["__main__"]
    final = [r for r in records if r.get("final")]
    assert len(final) == 1 and final[0]["modules"] == ["__main__"]
    # The creation record carries the option the module starts with; it is no option write.
    created = [m for m in of_type(run.main, "module_created") if m["name"] == "__main__"]
    assert created[0]["options"]["max_unroll"] == "2"
    assert [w for w in of_type(run.main, "option_write") if w["key"] == "max_unroll"] == []


def test_module_option_lever_for_every_module_and_an_unknown_key(tmp_path, warp_cache):
    body = REPORT + """
a = wp.get_module("first_module")
b = wp.get_module("second_module")
report(a=a.options["lineinfo"], b=b.options["lineinfo"], imported=sorted(ctx.user_modules))
"""
    run = run_script(tmp_path, body, cache=warp_cache,
                     env=with_levers([{"id": "lineinfo", "kind": "module_option", "name": "lineinfo", "value": True,
                                       "modules": ["*"]},
                                      {"id": "bogus", "kind": "module_option", "name": "no_such_option", "value": 1,
                                       "modules": ["*"]}]))
    values = reported(run)
    assert (values["a"], values["b"]) == (True, True)
    reached = [r["module"] for r in lever_records(run, "lineinfo") if "module" in r]
    assert reached == ["first_module", "second_module"]  # modules `import warp` made are out of reach
    bogus = set_up(run, "bogus")
    assert (bogus["status"], bogus["detail"]) == ("not_applicable", "this Warp has no module option 'no_such_option'")


def test_a_module_whose_options_are_replaced_after_creation_is_reported_replaced(tmp_path, warp_cache):
    # What warp.fem does to the modules it generates: `module.options = <a copy of another's>`.
    body = REPORT + """
kept = wp.get_module("kept_module")
lost = wp.get_module("lost_module")
lost.options = dict(lost.options, enable_backward=True)
report(kept=kept.options["enable_backward"], lost=lost.options["enable_backward"])
"""
    run = run_script(tmp_path, body, cache=warp_cache,
                     env=with_levers([{"id": "bw", "kind": "module_option", "name": "enable_backward",
                                       "value": False, "modules": ["kept_module", "lost_module"]}]))
    values = reported(run)
    assert (values["kept"], values["lost"]) == (False, True)
    final = [r for r in lever_records(run, "bw") if r.get("final")]
    assert len(final) == 1
    assert final[0]["modules"] == ["kept_module", "lost_module"]
    assert final[0]["replaced"] == ["lost_module"]


def test_module_option_lever_reaches_a_unique_module_by_its_kernel_key(tmp_path, warp_cache):
    # Warp creates a module="unique" module under the function's name and renames it after
    # hashing, so the report's "<key>_<hash>" name is matched at creation through the kernel key.
    body = REPORT + """
def make_scale(c):
    @wp.kernel(module="unique")
    def scale(x: wp.array(dtype=float)):
        x[wp.tid()] = x[wp.tid()] * c
    return scale


def make_shift(c):
    @wp.kernel(module="unique")
    def shift(x: wp.array(dtype=float)):
        x[wp.tid()] = x[wp.tid()] + c
    return shift


a, b = make_scale(2.0), make_shift(1.0)
report(scale=a.module.options["enable_backward"], shift=b.module.options["enable_backward"],
       scale_name=a.module.name)
"""
    run = run_script(tmp_path, body, cache=warp_cache,
                     env=with_levers([{"id": "bw", "kind": "module_option", "name": "enable_backward",
                                       "value": False, "modules": ["make_scale__locals__scale_0123abcd"],
                                       "unique_kernels": ["make_scale__locals__scale"]}]))
    values = reported(run)
    assert values["scale"] is False
    assert values["shift"] is not False  # another factory's kernel is not a target
    assert values["scale_name"].startswith("make_scale__locals__scale_")
    final = [r for r in lever_records(run, "bw") if r.get("final")]
    assert len(final) == 1 and final[0]["modules"] == [values["scale_name"]]  # reported by its name at exit


def test_drop_unique_moves_target_kernels_to_the_default_module(tmp_path, warp_cache):
    body = REPORT + """
@wp.kernel(module="unique")
def target(x: wp.array(dtype=float)):
    x[wp.tid()] = 1.0


def body(x: wp.array(dtype=float)):
    x[wp.tid()] = 2.0


called = wp.kernel(body, module="unique")  # the call form


@wp.kernel(module="unique")
def kept_unique(x: wp.array(dtype=float)):
    x[wp.tid()] = 3.0


report(target=target.module.name, called=called.module.name, other=kept_unique.module.name)
"""
    script = str(tmp_path / "app.py")
    lever = {"id": "unique", "kind": "drop_unique", "name": "unique",
             "kernels": [{"qualname": "target", "file": script}, {"qualname": "body", "file": script}]}
    run = run_script(tmp_path, body, cache=warp_cache, env=with_levers([lever]))
    values = reported(run)
    assert (values["target"], values["called"]) == ("__main__", "__main__")
    assert values["other"].startswith("kept_unique_")  # not a target: unique as the program asked
    records = lever_records(run, "unique")
    assert records[0]["status"] == "applied"
    assert [(r["kernel"], r["module"]) for r in records if "kernel" in r] == [("target", "__main__"),
                                                                               ("body", "__main__")]
    # The program's per-kernel record still sees the untouched kernel's module="unique" (CS-9's
    # evidence), and none for the moved ones.
    closures = [w for w in of_type(run.main, "option_write") if w.get("api") == "kernel"]
    assert all(w["site"]["file"] == script for w in closures)


@pytest.mark.skipif(EXPECT == "old", reason="module_options is Warp 1.19 API")
def test_drop_unique_keeps_kernels_with_module_options(tmp_path, warp_cache):
    body = REPORT + """
@wp.kernel(module="unique", module_options={"max_unroll": 2})
def fast(x: wp.array(dtype=float)):
    x[wp.tid()] = 1.0


report(module=fast.module.name)
"""
    script = str(tmp_path / "app.py")
    run = run_script(tmp_path, body, cache=warp_cache,
                     env=with_levers([{"id": "unique", "kind": "drop_unique", "name": "unique",
                                       "kernels": [{"qualname": "fast", "file": script}]}]))
    assert reported(run)["module"].startswith("fast_")
    assert any("kept module=\"unique\" on fast" in r["detail"] for r in lever_records(run, "unique"))


def test_noop_call_keeps_the_cache_and_counts_the_calls(tmp_path):
    cache = tmp_path / "cache"
    body = REPORT + """
from pathlib import Path
wp.init()
marker = Path(wp.config.kernel_cache_dir) / "wp_marker"  # Warp clears its wp_* folders
marker.mkdir(exist_ok=True)
wp.clear_kernel_cache()
wp.clear_kernel_cache()
report(kept=marker.exists())
"""
    run = run_script(tmp_path, body, cache=cache,
                     env=with_levers([{"id": "keep-cache", "kind": "noop_call", "name": "clear_kernel_cache"}]))
    assert reported(run) == {"kept": True}
    records = lever_records(run, "keep-cache")
    assert records[0]["status"] == "applied"
    calls = [r for r in records if r.get("call")]
    assert [c["call"] for c in calls] == ["clear_kernel_cache"] * 2
    assert calls[0]["site"]["file"] == str(tmp_path / "app.py")
    assert [r["calls"] for r in records if r.get("final")] == [2]
    assert of_type(run.main, "cache_clear") == []  # the clear did not happen

    # Without the lever the same program's clear happens (the test could fail).
    run = run_script(tmp_path, body, cache=cache)
    assert reported(run) == {"kept": False}
    assert len(of_type(run.main, "cache_clear")) == 2


def test_the_records_stop_at_their_bound_and_the_tally_counts_on(tmp_path, warp_cache):
    body = REPORT + """
for _ in range(150):
    wp.clear_lto_cache()
report(ok=True)
"""
    run = run_script(tmp_path, body, cache=warp_cache,
                     env=with_levers([{"id": "lto", "kind": "noop_call", "name": "clear_lto_cache"}]))
    assert reported(run) == {"ok": True}
    records = lever_records(run, "lto")
    assert len([r for r in records if r.get("call")]) == 100
    assert [r["calls"] for r in records if r.get("final")] == [150]


@pytest.mark.parametrize("levers,detail", [
    ("not json", "is not valid JSON"),
    ('{"id": "x"}', "is not a JSON array"),
    ('[{"id": "x", "kind": "config", "name": "enable_backward"}, 7,'
     ' {"id": "y", "kind": "teleport", "name": "z"},'
     ' {"id": "ok", "kind": "config", "name": "max_unroll", "value": 3}]', None),
])
def test_malformed_levers_fail_and_the_program_runs_unchanged(tmp_path, warp_cache, levers, detail):
    body = REPORT + "report(unroll=wp.config.max_unroll, kernel=wp.kernel.__module__)\n"
    run = run_script(tmp_path, body, cache=warp_cache, env=with_levers(levers))
    values = reported(run)
    records = lever_records(run)
    if detail is not None:
        assert [(r["id"], r["status"]) for r in records] == [("", "failed")]
        assert detail in records[0]["detail"]
        assert values["unroll"] != 3
        return
    assert [(r["id"], r["status"]) for r in records] == [("x", "failed"), ("#1", "failed"), ("y", "failed"),
                                                         ("ok", "applied")]
    assert "needs a 'value'" in records[0]["detail"] and "unknown kind 'teleport'" in records[2]["detail"]
    assert values["unroll"] == 3  # the well-formed one still applies


@pytest.mark.parametrize("levers", [None, "", "[]"])
def test_no_levers_install_nothing(tmp_path, warp_cache, levers):
    body = REPORT + """
# The probe's own per-kernel wrapper and cache-clear wrapper, with Warp's functions directly under.
report(kernel=wp.kernel.__wrapped__.__module__, kernel_depth=hasattr(wp.kernel.__wrapped__, "__wrapped__"),
       clear=wp.clear_kernel_cache.__wrapped__.__module__)
"""
    run = run_script(tmp_path, body, cache=warp_cache, env=None if levers is None else with_levers(levers))
    values = reported(run)
    assert values["kernel"].startswith("warp") and not values["kernel_depth"]
    assert values["clear"].startswith("warp")
    assert lever_records(run) == []
    assert "levers.kernel" not in of_type(run.main, "attach")[0]["hooks"]
