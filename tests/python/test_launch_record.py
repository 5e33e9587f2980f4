"""The launch-record encoder (docs/launch-record.md): exact, compact, bounded.

Property tests feed seeded random sequences (loops, nested loops, near-periodic breaks,
data-dependent inner counts) and check decode(encode(x)) == x with the reference decoder in
conftest.py; size tests check the serialised record stays small for periodic programs.
"""
import json
import random

import pytest

from conftest import expand, load_probe_module

probe = load_probe_module()


def encode(sequence, final=True):
    record = probe.LaunchRecord()
    for sig in sequence:
        record.add(sig)
    if final:
        record.close_open()
    return record, record.snapshot()


def check(sequence, final=True):
    record, items = encode(sequence, final)
    assert expand(json.loads(json.dumps(items))) == sequence
    return record, items


def random_block(rng, depth, alphabet):
    if depth > 2 or rng.random() < 0.35:
        return [rng.randrange(alphabet)] * rng.choice([1, 1, 2, 3, 7])
    body = []
    for _ in range(rng.randrange(1, 4)):
        body += random_block(rng, depth + 1, alphabet)
    out = []
    for _ in range(rng.randrange(1, 7)):
        if rng.random() < 0.25:
            out += random_block(rng, depth + 1, alphabet)  # a break in the period
        else:
            out += body
    return out


def random_sequence(rng):
    kind = rng.randrange(4)
    if kind == 0:
        return [rng.randrange(rng.choice([2, 3, 8])) for _ in range(rng.randrange(300))]
    out = []
    for _ in range(rng.randrange(1, 5)):
        out += random_block(rng, 0, rng.choice([3, 6, 10]))
        if rng.random() < 0.3:
            out.append(rng.randrange(12))
    return out


@pytest.mark.parametrize("seed", range(8))
def test_random_sequences_round_trip(seed):
    rng = random.Random(seed)
    for _ in range(1500):
        sequence = random_sequence(rng)
        check(sequence)
        check(sequence, final=False)  # an intermediate snapshot is exact too


def test_snapshot_does_not_change_the_record():
    rng = random.Random(42)
    sequence = []
    for _ in range(40):
        sequence += [0, 1] * rng.randrange(1, 5) + [2]
    record = probe.LaunchRecord()
    for i, sig in enumerate(sequence):
        record.add(sig)
        if i % 7 == 0:
            assert expand(record.snapshot()) == sequence[:i + 1]
    record.close_open()
    assert expand(record.snapshot()) == sequence


def test_solver_with_data_dependent_inner_counts():
    rng = random.Random(3)
    sequence = []
    counts = []
    for _ in range(500):
        sequence += [0, 1]
        n = rng.randrange(3, 40)
        counts.append(n)
        sequence += [2, 3, 4] * n
        sequence += [5, 6]
    _, items = check(sequence)
    # One outer loop whose inner loop's count is a hole: one value per outer iteration.
    assert len(items) == 1 and "iterations" in items[0]
    assert items[0]["loop"][2] == {"loop": [2, 3, 4], "times": "?"}
    fills = [fill[0] for fill, k in items[0]["iterations"] for _ in range(k)]
    assert fills == counts


def test_nested_loops_with_constant_structure():
    sequence = []
    for outer in range(50):
        sequence += [9]
        for _ in range(4):
            sequence += [1, 2] * (3 + outer % 3) + [3]
        sequence += [4]
    _, items = check(sequence)
    assert len(json.dumps(items)) < 2000


def test_million_identical_launches_is_tiny():
    record = probe.LaunchRecord()
    record.add(0, 1_000_000)
    record.close_open()
    items = record.snapshot()
    assert items == [[0, 1_000_000]]
    assert len(json.dumps(items)) <= 1024


def test_million_alternating_launches_is_tiny():
    record = probe.LaunchRecord()
    for _ in range(500_000):
        record.add(0)
        record.add(1)
    record.close_open()
    items = record.snapshot()
    assert items == [{"loop": [0, 1], "times": 500_000}]
    assert len(json.dumps(items)) <= 1024


def test_periodic_memory_is_bounded():
    record = probe.LaunchRecord()
    for _ in range(20_000):
        for sig in (0, 1, 1, 2, 3):
            record.add(sig)
    assert len(record.items) <= 2
    loop = record.items[-1]
    assert len(loop[2]) == 1  # one run-length entry: every iteration identical


def test_aperiodic_fallback_stays_exact():
    rng = random.Random(11)
    sequence = [rng.randrange(50) for _ in range(20_000)]
    record, items = check(sequence)
    assert len(items) > 1000  # nothing to fold: the sequence simply grows


def test_grammar_shapes():
    # Leaves: S or [S, n >= 2]; exact loops times >= 2; templates carry holes only where allowed.
    rng = random.Random(5)
    for _ in range(300):
        _, items = encode(random_sequence(rng))
        stack = list(items)
        while stack:
            item = stack.pop()
            if isinstance(item, int):
                continue
            if isinstance(item, list):
                assert item[1] == "?" or item[1] >= 2
                continue
            if item == "?":
                continue
            assert "loop" in item
            if "times" in item:
                assert item["times"] == "?" or item["times"] >= 2
            else:
                for fill, k in item["iterations"]:
                    assert k >= 1
            stack.extend(item["loop"])
