#!/usr/bin/env python3
"""The original probe's command line, served by this project's binary.

Users of NVIDIA's warp-compile-time-optimizer skill have `python scripts/warp_compile_probe.py
measure ...` and `... compare ...` in their notes and CI scripts. This launcher runs
`warp-compile-probe` with the same arguments, so those lines keep working unchanged: same
subcommands, options, exit codes and JSON fields. It has no logic of its own beyond two
things argparse gave the original for free: unambiguous abbreviations of its long options
(`--sam 3` for `--samples 3`) and `--opt=value` spellings, which are expanded here.

The binary is, in order: $WCP_CLI; the build tree next to this script
(build/harness/warp-compile-probe); `warp-compile-probe` on PATH.
"""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BUILT = os.path.join(HERE, "..", "build", "harness", "warp-compile-probe")

# The long options the original accepted per subcommand (argparse expands unambiguous prefixes).
ORIGINAL_OPTIONS = {
    "measure": ["--samples", "--warm", "--json", "--label", "--cwd", "--timeout", "--help"],
    "compare": ["--help"],
}


def find_binary():
    for candidate in (os.environ.get("WCP_CLI"), BUILT):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("warp-compile-probe")


def expand(subcommand, arguments):
    """Expands the original's unambiguous option prefixes, up to `--` (the measured command
    after it is never touched)."""
    known = ORIGINAL_OPTIONS.get(subcommand)
    if known is None:
        return arguments
    expanded = []
    for index, argument in enumerate(arguments):
        if argument == "--":
            return expanded + arguments[index:]
        name, equals, value = argument.partition("=")
        if name.startswith("--") and name not in known:
            matches = [option for option in known if option.startswith(name)]
            if len(matches) == 1:
                argument = matches[0] + equals + value
        expanded.append(argument)
    return expanded


def main(argv):
    binary = find_binary()
    if binary is None:
        sys.stderr.write(
            "warp_compile_probe.py: the warp-compile-probe binary was not found (looked at $WCP_CLI, "
            f"{os.path.normpath(BUILT)} and PATH).\n"
            "Build it with `bash ci/setup.sh` in this repository (or `cmake -S . -B build && cmake --build build`),\n"
            "or install it and put it on PATH.\n")
        return 2
    arguments = argv[1:]
    if arguments:
        arguments = [arguments[0]] + expand(arguments[0], arguments[1:])
    os.execv(binary, [binary] + arguments)  # replaces this process: exit code and output are the binary's


if __name__ == "__main__":
    sys.exit(main(sys.argv))
