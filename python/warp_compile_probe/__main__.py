"""``python -m warp_compile_probe …`` runs the installed warp-compile-probe binary with these arguments.

The process is replaced (exec), so exit codes, signals and output are the binary's own.
"""

import os
import sys

from warp_compile_probe import executable


def main():
    try:
        binary = executable()
    except FileNotFoundError as error:
        sys.exit(f"warp-compile-probe: error: {error}")
    os.execv(binary, [binary, *sys.argv[1:]])


if __name__ == "__main__":
    main()
