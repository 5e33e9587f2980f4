"""Reference decoder of the launch sequence grammar (docs/launch-record.md), shared by the
instrumentation tests (tests/python) and the integration tests (tests/integration). Written
from the grammar, not from the C++ reader, so the two can check each other."""


def expand(items, out=None):
    """Reference decoder of the launch sequence grammar (docs/launch-record.md)."""
    out = [] if out is None else out
    for item in items:
        if isinstance(item, int):
            out.append(item)
        elif isinstance(item, list):
            assert len(item) == 2 and isinstance(item[1], int) and item[1] >= 2, item
            out.extend([item[0]] * item[1])
        else:
            body = item["loop"]
            if "times" in item:
                assert isinstance(item["times"], int) and item["times"] >= 2, item
                for _ in range(item["times"]):
                    expand(body, out)
            else:
                for fill, k in item["iterations"]:
                    assert k >= 1
                    fill = list(fill)
                    instance = [_instantiate(t, fill) for t in body]
                    assert not fill, "fill has more values than the template has holes"
                    for _ in range(k):
                        expand(instance, out)
    return out


def _instantiate(t, fill):
    if t == "?":
        value = fill.pop(0)
        assert value != "?"
        return value
    if isinstance(t, list):
        if t[1] == "?":
            count = fill.pop(0)
            assert isinstance(count, int) and count >= 1
            return [t[0], count] if count > 1 else t[0]
        return t
    if isinstance(t, dict) and "times" in t:
        if t["times"] == "?":
            times = fill.pop(0)
            assert isinstance(times, int) and times >= 1
            if times == 1:
                return {"loop": t["loop"], "iterations": [[[], 1]]}
            return {"loop": t["loop"], "times": times}
        return {"loop": [_instantiate(x, fill) for x in t["loop"]], "times": t["times"]}
    return t
