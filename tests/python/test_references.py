"""What each load records about what its kernels reference (schema 10; references.py), on
real Warp of both API eras: the values a kernel's code names as Warp hashes them (a global
sharing an argument's name included), the functions Warp hashed with their overloads and
captured values, and a serial per kernel object. Reading them must leave the program as it is."""
import pytest

from conftest import load_probe_module, needs_warp, of_type, run_script

pytestmark = needs_warp

PROGRAM = """
import warp as wp
wp.config.enable_backward = False

def make(radius):
    def sdf(x: float):
        return x - radius
    return wp.func(sdf)  # defined here, so registered in this module (__main__)

sdf = make(1.0)

@wp.kernel
def combine(loss: wp.array(dtype=float), vol: wp.array(dtype=float)):
    i = wp.tid()
    loss[i] = sdf(vol[i])

a = wp.zeros(4, dtype=float, device="cpu")
b = wp.ones(4, dtype=float, device="cpu")
for step in range(2):
    wp.launch(combine, dim=4, inputs=[a, b], device="cpu")
    loss = 0.5 * (step + 1)
    sdf = make(2.0)
print("result", a.numpy().tolist())
"""


def test_a_rebuild_records_the_changed_value_and_function(tmp_path):
    run = run_script(tmp_path, PROGRAM)
    assert run.proc.returncode == 0, run.proc.stderr
    loads = [l for l in of_type(run.main, "load") if l["name"] == "__main__"]
    assert len(loads) == 2
    first, second = ({k["key"]: k for k in load["kernels"]}["combine"] for load in loads)
    assert first["object"] == second["object"]  # one kernel object, two contents
    assert first["args"] == ["loss", "vol"]
    assert "loss" not in first["constants"]
    assert second["constants"]["loss"] == "0.5"  # the global named like the argument, as Warp hashes it
    (before,), (after,) = ([f for f in load["functions"] if f["key"].endswith("sdf")] for load in loads)
    assert before["constants"] == {"radius": "1.0"} and after["constants"] == {"radius": "2.0"}
    assert before["hash"] != after["hash"] and before["line"] == after["line"]


def test_the_program_output_is_the_same_without_the_probe(tmp_path):
    probed = run_script(tmp_path, PROGRAM)
    bare = run_script(tmp_path, PROGRAM, probe=False)
    lines = lambda proc: [l for l in proc.stdout.splitlines() if l.startswith("result")]  # noqa: E731
    assert lines(probed.proc) == lines(bare.proc) and lines(bare.proc)


def test_constants_are_bounded_and_never_raise():
    references = load_probe_module("references")

    class Adjoint:
        tree = __import__("ast").parse("\n".join("x%d = y%d" % (i, i) for i in range(40)) + "\nz = " +
                                       " + ".join("v%d" % i for i in range(40)))

        @staticmethod
        def resolve_external_reference(name):
            if name == "v3":
                raise RuntimeError("boom")
            return 1.5

    class Kernel:
        adj = Adjoint()

    constants = references.kernel_constants(Kernel(), lambda value: isinstance(value, float))
    assert len(constants) == references.MAX_CONSTANTS
    assert "v3" not in constants and not any(name.startswith("x") for name in constants)
    assert references.kernel_constants(object(), lambda value: True) is None
    assert references.describe_functions(object()) is None
    assert references.short_repr("a" * 200).endswith("...")
