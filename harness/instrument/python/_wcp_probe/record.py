# The launch record's encoder: a process's launch sequence, folded into loops as it grows so
# that memory stays bounded (docs/launch-record.md). Pure Python with no Warp in sight: the
# launch hooks (launches.py) feed it signature indices, and it is tested on its own
# (tests/python/test_launch_record.py).


class LaunchRecord:
    """The process's launch sequence, folded into loops as it grows (see docs/launch-record.md).

    Items are leaf runs [S, count] (shape = ("L", S)) or _WcpLoop objects. `add(S)` is
    the per-launch entry; everything else runs when a run closes, which is once per change
    of signature, not once per launch.
    """

    K = 32  # longest loop body the tail fold looks for

    def __init__(self):
        self.items = []  # closed top-level items
        self.shapes = []  # their shape ids, in step with items
        self.shape_ids = {}  # shape key -> id
        self.shape_keys = []  # id -> shape key: ("L", S) or ("P", body shape ids)
        self.leaf_sids = {}  # signature -> its leaf shape id
        self.vectors = {}  # iteration vector -> the one shared instance of it
        self.open_sig = -1  # the open leaf run
        self.open_count = 0
        self.frames = None  # absorption state of the last item when it is a loop: [[loop_shape_id, body, pos, vec, iters], ...]
        self.total = 0

    # -- shapes -----------------------------------------------------------------------------
    def shape(self, key):
        sid = self.shape_ids.get(key)
        if sid is None:
            sid = len(self.shape_keys)
            self.shape_ids[key] = sid
            self.shape_keys.append(key)
        return sid

    def can_start(self, loop_sid, sid):
        # Whether an item of shape `sid` can begin an instance of loop shape `loop_sid`.
        first = self.shape_keys[loop_sid][1][0]
        if first == sid:
            return True
        return self.shape_keys[first][0] == "P" and self.can_start(first, sid)

    # -- per launch -------------------------------------------------------------------------
    def add(self, sig, n=1):
        self.total += n
        if sig == self.open_sig:
            self.open_count += n
            return
        count = self.open_count
        if count:
            # Close the open run. The common case, inlined: it is the next body item of the
            # expected top-level loop (two kernels alternating come here on every launch).
            previous = self.open_sig
            sid = self.leaf_sids.get(previous)
            if sid is None:
                sid = self.leaf_sids[previous] = self.shape(("L", previous))
            frames = self.frames
            if frames is not None and len(frames) == 1:
                frame = frames[0]
                body = frame[1]
                pos = frame[2]
                if body[pos] == sid:
                    frame[3].append(count)
                    pos += 1
                    if pos == len(body):
                        vec = tuple(frame[3])
                        vec = self.vectors.setdefault(vec, vec)
                        iters = frame[4]
                        last = iters[-1]
                        if last[0] == vec:
                            last[1] += 1
                        else:
                            iters.append([vec, 1])
                        frame[2] = 0
                        frame[3] = []
                    else:
                        frame[2] = pos
                    self.open_sig = sig
                    self.open_count = n
                    return
            self.open_sig = -1
            self.open_count = 0
            self.push(["L", previous, count], sid)
        self.open_sig = sig
        self.open_count = n

    def close_open(self):
        if not self.open_count:
            return
        item = ["L", self.open_sig, self.open_count]
        self.open_sig = -1
        self.open_count = 0
        self.push(item, self.shape(("L", item[1])))

    # -- items ------------------------------------------------------------------------------
    def push(self, item, sid):
        if self.frames is not None:
            if self.feed(item, sid):
                return
        self.append(item, sid)

    def append(self, item, sid):
        items, shapes = self.items, self.shapes
        items.append(item)
        shapes.append(sid)
        # Fold the tail: the last k shapes equal the k before them -> one loop of 2 iterations.
        while True:
            n = len(shapes)
            folded = False
            for k in range(1, min(self.K, n // 2) + 1):
                if shapes[-1] != shapes[-k - 1]:
                    continue
                if shapes[n - k:] == shapes[n - 2 * k:n - k]:
                    body = tuple(shapes[n - k:])
                    first = tuple(self.value(x) for x in items[n - 2 * k:n - k])
                    second = tuple(self.value(x) for x in items[n - k:])
                    iters = [[self.vectors.setdefault(first, first), 1]]
                    self.rle_append(iters, second)
                    loop_sid = self.shape(("P", body))
                    loop = ["P", loop_sid, iters]
                    del items[n - 2 * k:]
                    del shapes[n - 2 * k:]
                    items.append(loop)
                    shapes.append(loop_sid)
                    folded = True
                    break
            if not folded:
                break
        last = items[-1]
        if last[0] == "P":
            self.frames = [[shapes[-1], self.shape_keys[shapes[-1]][1], 0, [], last[2]]]
        else:
            self.frames = None

    def rle_append(self, iters, vec):
        # Equal vectors are shared: a data-dependent count costs a list entry, not a new tuple.
        vec = self.vectors.setdefault(vec, vec)
        last = iters[-1] if iters else None
        if last is not None and last[0] == vec:
            last[1] += 1
        else:
            iters.append([vec, 1])

    def value(self, item):
        # The count-part of an item: a leaf's count, or a loop's iterations (hashable).
        if item[0] == "L":
            return item[2]
        return tuple((vec, k) for vec, k in item[2])

    def item_of(self, sid, value):
        key = self.shape_keys[sid]
        if key[0] == "L":
            return ["L", key[1], value]
        return ["P", sid, [[vec, k] for vec, k in value]]

    # -- absorbing items into the expected loop ----------------------------------------------
    def feed(self, item, sid):
        frames = self.frames
        while True:
            frame = frames[-1]
            loop_sid, body, pos, vec, iters = frame
            want = body[pos]
            if want == sid:
                vec.append(self.value(item))
                self.advance(frames)
                return True
            if self.shape_keys[want][0] == "P" and self.can_start(want, sid):
                frames.append([want, self.shape_keys[want][1], 0, [], []])
                continue
            if pos == 0 and len(frames) > 1 and iters:
                # The nested loop instance ended here: hand its value to the enclosing body.
                frames.pop()
                frames[-1][3].append(tuple((v, k) for v, k in iters))
                self.advance(frames)
                continue
            break
        # Mismatch: the loop at the top level ends; a partial iteration goes back to items.
        partial = self.materialize(frames)
        self.frames = None
        for p_item, p_sid in partial:
            self.push(p_item, p_sid)
        self.push(item, sid)
        return True

    def advance(self, frames):
        frame = frames[-1]
        frame[2] += 1
        if frame[2] == len(frame[1]):
            self.rle_append(frame[4], tuple(frame[3]))
            frame[2] = 0
            frame[3] = []

    def materialize(self, frames):
        # Items equivalent to the partial state below the top-level loop (which stays as is).
        out = []
        for depth, (loop_sid, body, pos, vec, iters) in enumerate(frames):
            if depth > 0 and iters:
                total = sum(k for _, k in iters)
                if total == 1:
                    out.extend((self.item_of(b, v), b) for b, v in zip(body, iters[0][0]))
                else:
                    out.append((["P", loop_sid, [[v, k] for v, k in iters]], loop_sid))
            out.extend((self.item_of(b, v), b) for b, v in zip(body, vec))
        return out

    # -- serialisation -------------------------------------------------------------------------
    def snapshot(self):
        """The sequence as JSON-ready items; does not change the state."""
        out = [self.ser(item) for item in self.items]
        if self.frames is not None:
            for p_item, _ in self.materialize(self.frames):
                out.append(self.ser(p_item))
        if self.open_count:
            out.append(self.ser(["L", self.open_sig, self.open_count]))
        return out

    def ser(self, item):
        if item[0] == "L":
            return item[1] if item[2] == 1 else [item[1], item[2]]
        return self.ser_loop(item[1], item[2])

    def ser_value(self, sid, value, out):
        # Appends the serialised item (shape sid, value) to out; a one-iteration loop is spliced.
        key = self.shape_keys[sid]
        if key[0] == "L":
            out.append(key[1] if value == 1 else [key[1], value])
            return
        if len(value) == 1 and value[0][1] == 1:
            for b, v in zip(key[1], value[0][0]):
                self.ser_value(b, v, out)
            return
        out.append(self.ser_loop(sid, value))

    def ser_whole(self, sid, value):
        # One item (never spliced), for a "?" fill.
        key = self.shape_keys[sid]
        if key[0] == "L":
            return key[1] if value == 1 else [key[1], value]
        if len(value) == 1 and value[0][1] == 1:
            body = []
            for b, v in zip(key[1], value[0][0]):
                self.ser_value(b, v, body)
            return {"loop": body, "iterations": [[[], 1]]}
        return self.ser_loop(sid, value)

    def ser_loop(self, sid, iters):
        body = self.shape_keys[sid][1]
        if len(iters) == 1 and iters[0][1] >= 2:
            items = []
            for b, v in zip(body, iters[0][0]):
                self.ser_value(b, v, items)
            return {"loop": items, "times": iters[0][1]}
        template = []
        plans = [self.plan(b, [vec[i] for vec, _ in iters], template) for i, b in enumerate(body)]
        iterations = []
        for vec, k in iters:
            fill = []
            for p, v in zip(plans, vec):
                self.fill(p, v, fill)
            iterations.append([fill, k])
        return {"loop": template, "iterations": iterations}

    def plan(self, sid, values, out):
        # Appends the template for one body position to out and returns how to fill it:
        # None (constant), ("count",), ("times",), ("whole", sid) or ("body", [plans]).
        first = values[0]
        if all(v == first for v in values):
            self.ser_value(sid, first, out)
            return None
        key = self.shape_keys[sid]
        if key[0] == "L":
            out.append([key[1], "?"])
            return ("count",)
        if all(len(v) == 1 for v in values):
            if all(v[0][0] == first[0][0] for v in values):
                inner = []
                for b, x in zip(key[1], first[0][0]):
                    self.ser_value(b, x, inner)
                out.append({"loop": inner, "times": "?"})
                return ("times",)
            k = first[0][1]
            if all(v[0][1] == k for v in values):
                target = out if k == 1 else []
                children = [self.plan(b, [v[0][0][j] for v in values], target) for j, b in enumerate(key[1])]
                if k != 1:
                    target = {"loop": target, "times": k}
                    out.append(target)
                return ("body", children)
        out.append("?")
        return ("whole", sid)

    def fill(self, plan, value, out):
        if plan is None:
            return
        kind = plan[0]
        if kind == "count":
            out.append(value)
        elif kind == "times":
            out.append(value[0][1])
        elif kind == "whole":
            out.append(self.ser_whole(plan[1], value))
        else:
            for child, v in zip(plan[1], value[0][0]):
                self.fill(child, v, out)
