#!/usr/bin/env python3
"""The floors of harness/ (docs/architecture.md) hold in the code.

Reads the floor order from the table under "## Floors" in docs/architecture.md (first column:
the folder, lowest floor first) and fails when
- a folder directly under harness/ holding .h/.cpp files (anywhere beneath it) is not in the
  table, or the table lists a folder that does not exist;
- a file in harness/**/*.{h,cpp} has `#include "x/..."` where folder x is on a higher floor
  than the file's own folder (same folder is fine; files at harness/'s root sit below every
  floor; an include of a file that is not in the source tree, i.e. a generated header, or
  whose first component is no folder of harness/, is not checked).
Prints one OK line, or each problem (file:line) and exits 1.

    python3 tests/architecture_check.py [--root DIR]   # DIR: repository root (default: ../)
    python3 tests/architecture_check.py --self-test    # shows the check catches both faults

Python 3 standard library only; needs no build.
"""
import argparse
import os
import re
import sys
import tempfile

DOC = os.path.join("docs", "architecture.md")
HARNESS = "harness"
SOURCE_SUFFIXES = (".h", ".cpp")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
ROW_FOLDER = re.compile(r"^\|\s*`?([A-Za-z0-9_]+)/?`?\s*\|")


def read_floors(doc_path):
    """The folders of the Floors table, lowest floor first."""
    floors = []
    in_section = False
    with open(doc_path, encoding="utf-8") as doc:
        for line in doc:
            if line.startswith("## "):
                if in_section and floors:
                    break
                in_section = line.strip() == "## Floors"
                continue
            if not in_section or not line.startswith("|"):
                if in_section and floors and not line.strip():
                    break  # the table ended
                continue
            match = ROW_FOLDER.match(line)
            if match and match.group(1) != "folder":  # skip the header row
                floors.append(match.group(1))
    return floors


def source_folders(harness):
    """Folders directly under harness/ that hold .h/.cpp files anywhere beneath them."""
    folders = set()
    for entry in sorted(os.listdir(harness)):
        path = os.path.join(harness, entry)
        if not os.path.isdir(path):
            continue
        for _, _, files in os.walk(path):
            if any(name.endswith(SOURCE_SUFFIXES) for name in files):
                folders.add(entry)
                break
    return folders


def source_files(harness):
    for root, dirs, files in os.walk(harness):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(SOURCE_SUFFIXES):
                yield os.path.join(root, name)


def check(repo_root):
    """Returns (problems, summary)."""
    harness = os.path.join(repo_root, HARNESS)
    doc_path = os.path.join(repo_root, DOC)
    problems = []
    floors = read_floors(doc_path)
    if not floors:
        return ([f"{DOC}: no folders found in the table under '## Floors'"], "")
    duplicates = sorted({name for name in floors if floors.count(name) > 1})
    for name in duplicates:
        problems.append(f"{DOC}: folder {name}/ is listed more than once")
    floor_of = {name: index for index, name in enumerate(floors)}

    existing = source_folders(harness)
    for name in sorted(existing - set(floors)):
        problems.append(f"{HARNESS}/{name}/: folder with .h/.cpp files that {DOC} does not list")
    for name in floors:
        if name not in existing:
            problems.append(f"{DOC}: lists {name}/, which is no folder of {HARNESS}/ with .h/.cpp files")

    all_folders = {e for e in os.listdir(harness) if os.path.isdir(os.path.join(harness, e))}
    file_count = 0
    include_count = 0
    for path in source_files(harness):
        file_count += 1
        relative = os.path.relpath(path, harness).replace(os.sep, "/")
        own = relative.split("/")[0] if "/" in relative else None  # None: harness/'s root
        if own is not None and own not in floor_of:
            continue  # its folder is already reported as undocumented
        own_floor = floor_of[own] if own is not None else -1
        with open(path, encoding="utf-8", errors="replace") as source:
            for line_number, line in enumerate(source, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                target = match.group(1)
                if "/" not in target:
                    continue  # same folder, or harness/'s root (errors.h)
                folder = target.split("/")[0]
                if folder not in all_folders or folder == own:
                    continue
                if not os.path.isfile(os.path.join(harness, target)):
                    continue  # generated (e.g. instrument/instrumentation_sources.h)
                include_count += 1
                if folder not in floor_of:
                    continue  # already reported as an undocumented folder
                if floor_of[folder] > own_floor:
                    where = f"{own}/" if own is not None else f"{HARNESS}/'s root"
                    problems.append(
                        f"{HARNESS}/{relative}:{line_number}: includes \"{target}\": "
                        f"{folder}/ (floor {floor_of[folder]}) is above {where} "
                        f"(floor {own_floor}) in {DOC}")
    summary = (f"architecture OK: {len(floors)} folders in floor order, {file_count} files, "
               f"{include_count} cross-folder includes checked")
    return problems, summary


def report(problems, summary):
    if problems:
        for problem in problems:
            print(problem)
        print(f"architecture check FAILED: {len(problems)} problem(s)")
        return 1
    print(summary)
    return 0


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)


def self_test():
    """A synthetic tree with one upward include and one undocumented folder: both reported;
    the same tree without them passes."""
    doc = ("# Architecture\n\n## Floors\n\n| folder | holds |\n|---|---|\n"
           "| `low/` | the bottom |\n| `high/` | the top |\n\n## After\n\n| `notafloor/` | x |\n")
    failures = []
    with tempfile.TemporaryDirectory() as root:
        write(os.path.join(root, DOC), doc)
        h = os.path.join(root, HARNESS)
        write(os.path.join(h, "errors.h"), "#pragma once\n")
        write(os.path.join(h, "low", "a.h"), "#pragma once\n#include \"errors.h\"\n")
        write(os.path.join(h, "low", "a.cpp"),
              "#include \"low/a.h\"\n#include \"low/generated.h\"\n#include <vector>\n")
        write(os.path.join(h, "high", "b.h"), "#pragma once\n#include \"low/a.h\"\n")
        write(os.path.join(h, "high", "python", "x.py"), "")
        problems, _ = check(root)
        if problems:
            failures.append(f"clean tree reported problems: {problems}")

        write(os.path.join(h, "low", "c.cpp"), "#include \"low/a.h\"\n\n#include \"high/b.h\"\n")
        write(os.path.join(h, "extra", "d.cpp"), "#include \"low/a.h\"\n")
        problems, _ = check(root)
        upward = [p for p in problems if p.startswith(f"{HARNESS}/low/c.cpp:3: includes \"high/b.h\"")]
        undocumented = [p for p in problems if p.startswith(f"{HARNESS}/extra/:")]
        if len(upward) != 1:
            failures.append(f"upward include low/c.cpp:3 -> high/b.h not reported: {problems}")
        if len(undocumented) != 1:
            failures.append(f"undocumented folder extra/ not reported: {problems}")
        if len(problems) != 2:
            failures.append(f"expected exactly 2 problems, got {problems}")

        os.remove(os.path.join(h, "low", "c.cpp"))
        os.remove(os.path.join(h, "extra", "d.cpp"))
        os.rmdir(os.path.join(h, "extra"))
        os.remove(os.path.join(h, "high", "b.h"))
        problems, _ = check(root)
        stale = [p for p in problems if "lists high/" in p]
        if len(stale) != 1:
            failures.append(f"documented folder without sources not reported: {problems}")
    if failures:
        for failure in failures:
            print(f"self-test: {failure}")
        print("architecture check self-test FAILED")
        return 1
    print("architecture check self-test OK: upward include, undocumented folder and stale row reported")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        help="repository root (default: this file's ../)")
    parser.add_argument("--self-test", action="store_true",
                        help="check the checker on a synthetic tree, then the real one")
    arguments = parser.parse_args()
    status = 0
    if arguments.self_test:
        status = self_test()
    return report(*check(arguments.root)) or status


if __name__ == "__main__":
    sys.exit(main())
