"""Is there a CUDA device here, and does Warp initialise on it?

Two questions with different answers for a test: no CUDA hardware is a reason to skip a CUDA
check; hardware that Warp cannot use (no driver library, Warp built without CUDA, a failed
init) is a failure, never a skip. The hardware is read without Warp: device nodes
(/dev/nvidia0, ...) or `nvidia-smi -L`. Shared by tests/integration/gpu_catalogue.py and the
checks of ci/gpu/checks/.
"""
import glob
import shutil
import subprocess

SKIP = 77  # CTest SKIP_RETURN_CODE of the `gpu` tests

WARP_PROBE = ("import warp as wp\n"
              "wp.init()\n"
              "names = [wp.get_device(f'cuda:{i}').name for i in range(wp.get_cuda_device_count())]\n"
              "print('WCP_CUDA', wp.get_cuda_device_count(), wp.config.version, '|'.join(names))\n")


def hardware():
    """(present, description): CUDA hardware as the system shows it, without asking Warp."""
    nodes = sorted(path for path in glob.glob("/dev/nvidia[0-9]*") if path[len("/dev/nvidia"):].isdigit())
    smi = shutil.which("nvidia-smi")
    listed = []
    if smi:
        try:
            result = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
            listed = [line.strip() for line in result.stdout.splitlines() if line.startswith("GPU ")]
        except (OSError, subprocess.TimeoutExpired):
            pass
    if listed:
        return True, "; ".join(listed)
    if nodes:
        return True, f"device nodes {', '.join(nodes)}"
    return False, "no CUDA device: no /dev/nvidiaN device node" + ("" if smi else " and no nvidia-smi") + \
        (" and nvidia-smi lists no GPU" if smi else "")


def warp_cuda(python, env=None, timeout=300):
    """What Warp under `python` reports: {"count", "version", "names"} or {"error"}."""
    try:
        probe = subprocess.run([python, "-c", WARP_PROBE], capture_output=True, text=True, timeout=timeout, env=env,
                               stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as error:
        return {"error": f"could not ask Warp under {python} ({error})"}
    for line in probe.stdout.splitlines():
        if line.startswith("WCP_CUDA "):
            fields = line.split(" ", 3)
            return {"count": int(fields[1]), "version": fields[2],
                    "names": [name for name in (fields[3] if len(fields) > 3 else "").split("|") if name]}
    tail = (probe.stderr or probe.stdout).strip().splitlines()[-1:] or ["no output"]
    return {"error": f"Warp did not initialise under {python} (exit {probe.returncode}: {tail[0]})"}


def status(python, env=None):
    """("absent" | "broken" | "ready", why, warp): skip on absent, fail on broken."""
    present, description = hardware()
    if not present:
        return "absent", description, None
    warp = warp_cuda(python, env)
    if "error" in warp:
        return "broken", f"CUDA hardware is present ({description}) but {warp['error']}", warp
    if warp["count"] == 0:
        return "broken", (f"CUDA hardware is present ({description}) but Warp {warp['version']} under {python} "
                          "reports wp.get_cuda_device_count() == 0"), warp
    return "ready", f"{description}; Warp {warp['version']} sees {warp['count']}: {', '.join(warp['names'])}", warp
