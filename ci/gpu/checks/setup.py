"""The machine and the pack, before any measurement: which Python, numpy and Warp run (Warp from
the pack's unpacked folder, nowhere else), which libraries the CLI loads (the pack's), which GPU
and driver Warp sees. CUDA hardware on which Warp does not initialise fails this check; no CUDA
hardware is only a figure here (the CUDA checks skip on it).

  python3 ci/gpu/checks/setup.py --results DIR
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpucheck  # noqa: E402  (first: it puts tests/ on sys.path)
import cuda_device  # noqa: E402

WARP_FACTS = r"""
import json, os, sys
import numpy
import warp as wp
wp.init()
try:
    import warp._src.context as context
except ImportError:
    import warp.context as context
runtime = context.runtime
def version(value):
    return ".".join(str(part) for part in value) if isinstance(value, tuple) else value
facts = {"python": sys.version.split()[0], "executable": sys.executable, "numpy": numpy.__version__,
         "warp": wp.config.version, "warp_file": os.path.abspath(wp.__file__),
         "toolkit": version(getattr(runtime, "toolkit_version", None)),
         "driver": version(getattr(runtime, "driver_version", None)),
         "cuda_devices": [{"name": d.name, "arch": getattr(d, "arch", None)} for d in runtime.cuda_devices],
         "cpu_compiler": getattr(runtime, "llvm", None) is not None}
print("WCP_FACTS " + json.dumps(facts))
"""


def warp_facts(check):
    result = gpucheck.run([gpucheck.PYTHON, "-c", WARP_FACTS], env=check.env(), timeout=300,
                          log_path=os.path.join(check.results, "warp_facts.log"))
    for line in result.stdout.splitlines():
        if line.startswith("WCP_FACTS "):
            return json.loads(line.split(" ", 1)[1])
    check.expect(False, f"Warp did not import and initialise: {(result.stderr or result.stdout).strip()[-400:]}")
    return None


def check_warp_comes_from_the_pack(check, facts):
    site = os.environ.get("WCP_WARP_SITE")
    if not site:
        check.figure("warp from", facts["warp_file"] + " (no WCP_WARP_SITE: not run from a pack)")
        return
    inside = os.path.commonpath([os.path.realpath(facts["warp_file"]), os.path.realpath(site)]) == os.path.realpath(site)
    check.expect(inside, f"warp was imported from {facts['warp_file']}, not from the pack's {site}")
    check.figure("warp from", facts["warp_file"])
    # Without the pack's folder on PYTHONPATH this interpreter has no Warp (asserted in the rehearsal,
    # where the development machine's venv Warp must stay hidden; a figure on a GPU machine).
    others = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and os.path.realpath(p) != os.path.realpath(site)]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(others))
    hidden = subprocess.run([gpucheck.PYTHON, "-c", "import warp"], capture_output=True, env=env,
                            stdin=subprocess.DEVNULL).returncode != 0
    check.figure("warp importable without the pack", not hidden)
    if os.environ.get("WCP_REHEARSAL") == "1":
        check.expect(hidden, "the rehearsal's interpreter imports a Warp of its own without the pack")


def check_cli_libraries(check):
    version = gpucheck.run([gpucheck.CLI, "--version"], env=check.env())
    check.expect(version.returncode == 0, f"the CLI does not run: {version.stderr.strip()[-300:]}")
    check.figure("cli", version.stdout.strip())
    cli_dir = os.environ.get("WCP_CLI_DIR")
    if not cli_dir:
        return
    listed = gpucheck.run(["sh", os.path.join(cli_dir, "list-libraries.sh")], env=check.env())
    packed = set(os.listdir(os.path.join(cli_dir, "lib")))
    resolved = {}
    for line in listed.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] == "=>":
            resolved[parts[0]] = parts[2]
    lib_dir = os.path.realpath(os.path.join(cli_dir, "lib"))
    for name in sorted(packed):
        if name.startswith("ld-linux"):
            continue
        where = resolved.get(name, "not loaded")
        check.expect(os.path.dirname(os.path.realpath(where)) == lib_dir if where != "not loaded" else False,
                     f"the CLI loads {name} from {where}, not from the pack")
    check.figure("cli libraries", {name: path for name, path in sorted(resolved.items())})
    with open(os.path.join(cli_dir, "requires.txt"), encoding="utf-8") as handle:
        check.figure("cli requires", handle.read().strip().replace("\n", "; "))


def main():
    check = gpucheck.Check("setup", __doc__)
    check.parse()
    check_cli_libraries(check)
    facts = warp_facts(check)
    if facts:
        check.figure("python", f"{facts['python']} ({facts['executable']}), numpy {facts['numpy']}")
        check.figure("warp", f"{facts['warp']}, CUDA toolkit {facts['toolkit']}, driver {facts['driver']}, "
                             f"CPU compiler {'present' if facts['cpu_compiler'] else 'absent'}")
        check_warp_comes_from_the_pack(check, facts)
    present, hardware = cuda_device.hardware()
    smi = gpucheck.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"]) \
        if present and shutil.which("nvidia-smi") else None
    gpu = smi.stdout.strip().splitlines()[0] if smi is not None and smi.returncode == 0 and smi.stdout.strip() else None
    check.figure("gpu", f"{gpu} (nvidia-smi)" if gpu else hardware)
    state, why, _ = cuda_device.status(gpucheck.PYTHON, check.env())
    check.figure("cuda", f"{state}: {why}")
    if facts and facts["cuda_devices"]:
        check.figure("warp cuda devices", facts["cuda_devices"])
    check.expect(state != "broken", why)
    check.finish()


if __name__ == "__main__":
    main()
