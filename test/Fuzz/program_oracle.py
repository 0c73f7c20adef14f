#!/usr/bin/env python3
"""A float64 oracle for the programs generate_programs.py writes.

`evaluate(description, inputs, xp)` runs a program's description (its
stages, epilogue and finalize as lists of ops) on float64 arrays and
returns, for every output, the float64 value and a first-order bound on
how far an f32 GPU evaluation may be from it: rounding of every f32 op
(unit roundoff 2^-24), the hardware approximations CREDIT lowers math to
(ex2/lg2/rsqrt.approx, tanh through exp), sums of up to N terms in any
order, flushed subnormals, and f32 overflow. Where a branch, a
comparison, a rounding or an overflow could go either way within that
bound, the bound is infinite and `compare` skips the element instead of
guessing. So a mismatch that `compare` reports is a wrong result, not
rounding.

`xp` is numpy or torch (`Numpy()` / `Torch(device)`); inputs are float64
arrays holding the exact values of the kernel's inputs: row inputs [M, N],
broadcasts [N], scalars [M].

    python3 program_oracle.py --self-test    (numpy: checks the oracle
                                              against closed forms)
"""

import math
import struct
import sys

U = 2.0 ** -24          # f32 unit roundoff
TINY = 2.0 ** -125      # what flushing subnormals to zero may change
F32_MAX = 3.4028234663852886e38
FORMATS = {"f32": (2.0 ** -23, F32_MAX, 2.0 ** -149),
           "f16": (2.0 ** -10, 65504.0, 2.0 ** -24),
           "bf16": (2.0 ** -7, 3.3895313892515355e38, 2.0 ** -133)}


class Numpy:
    def __init__(self):
        import numpy
        self.np = numpy

    def asarray(self, values):
        return self.np.asarray(values, dtype=self.np.float64)

    def __getattr__(self, name):
        return getattr(self.np, name)

    def erf(self, x):
        return self.np.vectorize(math.erf, otypes=[float])(x)

    def rint(self, x):
        return self.np.rint(x)

    def amax(self, x):
        return self.np.max(x, axis=-1, keepdims=True)

    def amin(self, x):
        return self.np.min(x, axis=-1, keepdims=True)

    def rowsum(self, x):
        return self.np.sum(x, axis=-1, keepdims=True)

    def colsum(self, x):
        return self.np.sum(x, axis=0)

    def full(self, shape, value):
        return self.np.full(shape, value, dtype=self.np.float64)

    def columns(self, n):
        return self.np.arange(n, dtype=self.np.float64).reshape(1, n)

    def cap(self, x, most):
        return self.np.minimum(x, most)

    def indices(self, mask):
        return list(zip(*[w.tolist() for w in self.np.nonzero(mask)]))


class Torch:
    def __init__(self, device):
        import torch
        self.torch, self.device = torch, device

    def asarray(self, values):
        return self.torch.as_tensor(values, dtype=self.torch.float64,
                                    device=self.device)

    def __getattr__(self, name):
        return getattr(self.torch, name)

    def erf(self, x):
        return self.torch.special.erf(x)

    def rint(self, x):
        return self.torch.round(x)  # halves to even

    def amax(self, x):
        return self.torch.amax(x, dim=-1, keepdim=True)

    def amin(self, x):
        return self.torch.amin(x, dim=-1, keepdim=True)

    def rowsum(self, x):
        return self.torch.sum(x, dim=-1, keepdim=True)

    def colsum(self, x):
        return self.torch.sum(x, dim=0)

    def full(self, shape, value):
        return self.torch.full(shape, value, dtype=self.torch.float64,
                               device=self.device)

    def fmax(self, a, b):
        return self.torch.fmax(a, b)

    def columns(self, n):
        return self.torch.arange(n, dtype=self.torch.float64,
                                 device=self.device).reshape(1, n)

    def cap(self, x, most):
        return self.torch.clamp(x, max=most)

    def indices(self, mask):
        return [tuple(i) for i in self.torch.nonzero(mask).tolist()]


class Value:
    """A float64 value and the bound on an f32 evaluation's distance."""

    def __init__(self, v, e):
        self.v, self.e = v, e


def _settle(xp, v, e, *inputs):
    """What f32 makes of (v, e): NaN bounds become infinite, results
    certain to overflow become infinities, ones that may or may not are
    uncertain; NaN results are certain when their inputs are."""
    inf = float("inf")
    e = xp.where(xp.isnan(e), inf, e) + TINY
    uncertain_in = None
    for value in inputs:
        flag = xp.isinf(value.e)
        uncertain_in = flag if uncertain_in is None else (uncertain_in | flag)
    big = xp.abs(v)
    finite = xp.isfinite(v)
    overflows = finite & (big - e > F32_MAX)
    v = xp.where(overflows, xp.where(v > 0, inf, -inf), v)
    e = xp.where(overflows, 0.0, e)
    e = xp.where(xp.isfinite(v) & (big + e >= F32_MAX), inf, e)
    special = ~xp.isfinite(v)
    if uncertain_in is not None:
        e = xp.where(special, xp.where(uncertain_in, inf, 0.0), e)
    else:
        e = xp.where(special, 0.0, e)
    return Value(v, e)


def _apply(xp, op, env):
    kind = op["op"]
    args = [env[a] for a in op.get("args", [])]
    inf = float("inf")
    if kind == "const":
        value = struct.unpack("f", struct.pack("f", float(op["value"])))[0]
        return Value(xp.asarray(value), xp.asarray(0.0))
    if kind == "sitofp":
        a = args[0]
        return Value(a.v, U * xp.abs(a.v) + 0.0 * a.e)
    a = args[0]
    if kind == "arith.negf":
        return Value(-a.v, a.e)
    if kind == "math.absf":
        return Value(xp.abs(a.v), a.e)
    if kind == "math.exp" or kind == "math.exp2":
        scale = 1.0 if kind == "math.exp" else math.log(2.0)
        v = xp.exp(a.v * scale)
        e = xp.abs(v) * (xp.expm1(xp.cap(a.e * scale, 700.0)) +
                         4 * U * (1 + xp.abs(a.v * scale) * 1.5))
        return _settle(xp, v, e, a)
    if kind == "math.log":
        with _quiet(xp):
            v = xp.log(a.v)
            low = a.v - a.e
            e = xp.where(low > 2 * TINY, a.e / xp.where(low > 0, low, 1.0),
                         inf) + 2.0 ** -21 + U * xp.abs(v)
        e = xp.where((a.v < 0) & (a.v + a.e < 0), 0.0, e)  # NaN either way
        return _settle(xp, v, e, a)
    if kind == "math.sqrt":
        with _quiet(xp):
            v = xp.sqrt(a.v)
            low = xp.where(a.v - a.e > 0, a.v - a.e, 0.0)
            e = a.e / xp.where(v + xp.sqrt(low) > 0, v + xp.sqrt(low), 1.0) \
                + U * xp.abs(v)
            e = xp.where((a.v - a.e < 0) & (a.v + a.e > 0), inf, e)
            e = xp.where((a.v - a.e <= 0) & (a.e > 0) & (a.v >= 0),
                         xp.maximum(e, xp.sqrt(xp.abs(a.v) + a.e)), e)
        return _settle(xp, v, e, a)
    if kind == "math.rsqrt":
        with _quiet(xp):
            v = 1.0 / xp.sqrt(a.v)
            low = a.v - a.e
            e = xp.where(low > 2 * TINY,
                         xp.abs(v) * (xp.sqrt(a.v / xp.where(low > 0, low, 1.0))
                                      - 1.0) + 4 * U * xp.abs(v), inf)
            e = xp.where((a.v < 0) & (a.v + a.e < 0), 0.0, e)
        return _settle(xp, v, e, a)
    if kind == "math.tanh":
        v = xp.tanh(a.v)
        return _settle(xp, v, (1 - v * v) * a.e + 8 * U, a)
    if kind == "math.erf":
        v = xp.erf(a.v)
        return _settle(xp, v, 1.13 * a.e + 16 * U, a)
    if kind == "math.sin":
        v = xp.sin(a.v)
        return _settle(xp, v, a.e + 2.0 ** -19 * (1 + xp.abs(a.v)), a)
    if kind in ("math.floor", "math.roundeven"):
        step = xp.floor if kind == "math.floor" else xp.rint
        v = step(a.v)
        same = step(a.v - a.e) == step(a.v + a.e)
        return _settle(xp, v, xp.where(same, 0.0, inf), a)
    if kind == "toint":  # fptosi(100 tanh(a)), truncated toward zero
        t = xp.tanh(a.v)
        s = 100.0 * t
        es = 100.0 * ((1 - t * t) * a.e + 8 * U) + U * 100.0
        v = xp.trunc(s)
        same = xp.trunc(s - es) == xp.trunc(s + es)
        near = (xp.trunc(s + es) - xp.trunc(s - es)) <= 1
        return Value(v, xp.where(same, 0.0, xp.where(near, 1.0, inf))
                     + xp.where(xp.isinf(a.e), inf, 0.0))
    b = args[1]
    if kind in ("arith.addf", "arith.subf"):
        v = a.v + b.v if kind == "arith.addf" else a.v - b.v
        return _settle(xp, v, a.e + b.e + U * xp.abs(v), a, b)
    if kind == "arith.mulf":
        with _quiet(xp):
            v = a.v * b.v
            e = xp.abs(a.v) * b.e + xp.abs(b.v) * a.e + a.e * b.e + U * xp.abs(v)
        return _settle(xp, v, e, a, b)
    if kind == "arith.divf":
        with _quiet(xp):
            v = a.v / b.v
            low = xp.abs(b.v) - b.e
            e = xp.where(low > 2 * TINY,
                         (a.e + xp.abs(v) * b.e) / xp.where(low > 0, low, 1.0),
                         inf) + 2 * U * xp.abs(v)
        return _settle(xp, v, e, a, b)
    if kind in ("arith.maximumf", "arith.minimumf"):
        pick = xp.maximum if kind == "arith.maximumf" else xp.minimum
        return _settle(xp, pick(a.v, b.v), xp.maximum(a.e, b.e), a, b)
    if kind == "arith.maxnumf":
        v = xp.fmax(a.v, b.v)
        e = xp.where(xp.isnan(a.v), b.e, xp.where(xp.isnan(b.v), a.e,
                                                   xp.maximum(a.e, b.e)))
        return _settle(xp, v, e, Value(v, e))
    if kind == "select":  # a PRED b ? a : b
        with _quiet(xp):
            predicate = op["predicate"]
            condition = {"olt": a.v < b.v, "ogt": a.v > b.v,
                         "oeq": a.v == b.v, "une": a.v != b.v}[predicate]
            v = xp.where(condition, a.v, b.v)
            e = xp.where(condition, a.e, b.e)
            if op["args"][0] != op["args"][1]:
                close = xp.abs(a.v - b.v) <= a.e + b.e
                e = xp.where(close, xp.maximum(a.e, b.e) + xp.abs(a.v - b.v), e)
        return _settle(xp, v, e, a, b)
    if kind == "if":  # a < b ? a : a * b
        with _quiet(xp):
            product = _apply(xp, {"op": "arith.mulf", "args": [0, 1]},
                             {0: a, 1: b})
            condition = a.v < b.v
            v = xp.where(condition, a.v, product.v)
            e = xp.where(condition, a.e, product.e)
            if op["args"][0] != op["args"][1]:
                e = xp.where(xp.abs(a.v - b.v) <= a.e + b.e, inf, e)
        return _settle(xp, v, e, a, b)
    raise ValueError(f"unknown op {kind}")


class _quiet:
    """numpy's floating point warnings off (NaN and inf are expected)."""

    def __init__(self, xp):
        self.np = getattr(xp, "np", None)

    def __enter__(self):
        if self.np is not None:
            self.saved = self.np.seterr(all="ignore")

    def __exit__(self, *exc):
        if self.np is not None:
            self.np.seterr(**self.saved)


def _region(xp, region, values):
    env = dict(zip(region["args"], values))
    for op in region["ops"]:
        env[op["result"]] = _apply(xp, op, env)
    return [env[name] for name in region["yields"]]


def _reduce(xp, kinds, items, n):
    """A stage's row results from its yielded [M, N] values."""
    terms = min(n, 2048) + 64          # sequential adds a partial may chain
    results = []
    for position, (kind, item) in enumerate(zip(kinds, items)):
        v, e = item.v, item.e
        with _quiet(xp):
            if kind == "add":
                s = xp.rowsum(v)
                bound = xp.rowsum(e) + U * terms * xp.rowsum(xp.abs(v))
            elif kind in ("max", "min"):
                s = xp.amax(v) if kind == "max" else xp.amin(v)
                bound = xp.amax(e)
            elif kind == "addexp":
                partner = max(i for i in range(position) if kinds[i] == "max")
                a, top = items[partner], results[partner]
                shift = xp.where(xp.isinf(top.v) & (top.v < 0), 0.0, top.v)
                t = xp.exp(a.v - shift)
                et = t * (xp.expm1(xp.cap(a.e + top.e, 700.0)) +
                          4 * U * (1 + xp.abs(a.v - shift)))
                term = v * t
                s = xp.rowsum(term)
                bound = (xp.rowsum(xp.abs(v) * et + t * e) +
                         U * (terms + 64) * xp.rowsum(xp.abs(term)))
            elif kind == "sqdev":
                total, count = results[position - 2], results[position - 1]
                d = v - total.v / count.v
                s = xp.rowsum(d * d)
                emean = total.e / count.v
                bound = (xp.rowsum(2 * xp.abs(d) * (e + emean) +
                                   (e + emean) ** 2) + U * terms * s)
            else:
                raise ValueError(kind)
        results.append(_settle(xp, s, bound, Value(s, xp.amax(e))))
    return results


def evaluate(description, inputs, xp):
    """Outputs of the program on `inputs` (dict: ins, bcasts, scalars,
    each a list of float64 arrays): a dict of lists of Value (outs
    [M, N], scalar_outs [M], colsums [blocks, N])."""
    n = description["n"]
    m = inputs["ins"][0].shape[0]
    zero = xp.full((1, 1), 0.0)
    column = Value(xp.columns(n), zero)
    elements = ([column] + [Value(x, zero) for x in inputs["ins"]] +
                [Value(b.reshape(1, n), zero) for b in inputs["bcasts"]])
    scalars = [Value(s.reshape(m, 1), zero) for s in inputs["scalars"]]
    full = xp.full((m, n), 0.0)
    reduced = []
    for stage in description["stages"]:
        items = _region(xp, stage, elements + scalars + reduced)
        items = [Value(item.v + full, item.e + full) for item in items]
        reduced += _reduce(xp, stage["kinds"], items, n)
    outputs = {"outs": [], "scalar_outs": [], "colsums": []}
    if description["epilogue"] is not None:
        values = _region(xp, description["epilogue"],
                         elements + scalars + reduced)
        values = [Value(x.v + full, x.e + full) for x in values]
        count = len(description["outs"])
        outputs["outs"] = values[:count]
        blocks = description["blocks"]
        per_block = -(-m // blocks)
        for value in values[count:]:
            sums, bounds = [], []
            for block in range(blocks):
                rows = slice(block * per_block, min(m, (block + 1) * per_block))
                part_v, part_e = value.v[rows], value.e[rows]
                sums.append(xp.colsum(part_v) if part_v.shape[0] else
                            xp.full((n,), 0.0))
                bounds.append((xp.colsum(part_e) + U * (per_block + 64) *
                               xp.colsum(xp.abs(part_v)))
                              if part_v.shape[0] else xp.full((n,), 0.0))
            outputs["colsums"].append(_settle(xp, xp.stack(sums),
                                              xp.stack(bounds)))
    if description["finalize"] is not None:
        values = _region(xp, description["finalize"], scalars + reduced)
        outputs["scalar_outs"] = [
            Value((x.v + xp.full((m, 1), 0.0)).reshape(m),
                  (x.e + xp.full((m, 1), 0.0)).reshape(m)) for x in values]
    return outputs


def compare(reference, got, dtype, xp):
    """Elements of `got` (float64, the kernel's output converted exactly)
    that disagree with `reference` beyond its bound and `dtype`'s rounding:
    (checked, skipped, wrong, a few wrong examples)."""
    inf = float("inf")
    v, e = reference.v, reference.e
    if dtype in ("i8", "i32", "i64"):
        certain = xp.isfinite(e)
        wrong = certain & (xp.abs(got - v) > e)
    else:
        ulp, largest, smallest = FORMATS[dtype]
        with _quiet(xp):
            certain = ~xp.isinf(e) & ~((xp.abs(v) + e >= largest) &
                                       xp.isfinite(v))
            tolerance = e * (1 + ulp) + ulp * xp.abs(v) + smallest
            both_nan = xp.isnan(v) & xp.isnan(got)
            same_inf = xp.isinf(v) & (got == v)
            close = xp.abs(got - v) <= tolerance
            wrong = certain & ~(both_nan | same_inf | close)
    checked = int(certain.sum())
    skipped = int((~certain).sum())
    bad = int(wrong.sum())
    examples = []
    if bad:
        for index in xp.indices(wrong)[:5]:
            examples.append((index, float(got[index]), float(v[index]),
                             float(e[index])))
    return checked, skipped, bad, examples


def _self_test():
    """The oracle against closed forms, on numpy."""
    import numpy as np
    xp = Numpy()
    rng = np.random.default_rng(1)
    m, n = 5, 1000
    x = rng.uniform(-3, 3, (m, n))
    softmax = {
        "n": n, "outs": ["f32"], "scalar_outs": [], "blocks": 1,
        "stages": [{"kinds": ["max", "addexp"], "args": ["%j", "%x"],
                    "ops": [{"op": "const", "value": "1.0", "result": "%one"}],
                    "yields": ["%x", "%one"]}],
        "epilogue": {"args": ["%j", "%x", "%m", "%s"],
                     "ops": [{"op": "arith.subf", "args": ["%x", "%m"], "result": "%d"},
                             {"op": "math.exp", "args": ["%d"], "result": "%e"},
                             {"op": "arith.divf", "args": ["%e", "%s"], "result": "%y"}],
                     "yields": ["%y"]},
        "finalize": None}
    out = evaluate(softmax, {"ins": [x], "bcasts": [], "scalars": []}, xp)
    y = out["outs"][0]
    expected = np.exp(x - x.max(1, keepdims=True))
    expected /= expected.sum(1, keepdims=True)
    assert np.allclose(y.v, expected, rtol=1e-12), "softmax value"
    assert (y.e < 2e-4 * np.abs(expected)).all() and (y.e > 0).all()
    checked, skipped, bad, _ = compare(y, expected.astype(np.float32)
                                       .astype(np.float64), "f32", xp)
    assert (checked, skipped, bad) == (m * n, 0, 0)
    wrong = expected.astype(np.float32).astype(np.float64)
    wrong[2, 7] *= 1.001
    assert compare(y, wrong, "f32", xp)[2] == 1, "a wrong element is found"

    variance = {
        "n": n, "outs": [], "scalar_outs": ["f32"], "blocks": 1,
        "stages": [{"kinds": ["add", "add", "sqdev"], "args": ["%j", "%x"],
                    "ops": [{"op": "const", "value": "1.0", "result": "%one"}],
                    "yields": ["%x", "%one", "%x"]}],
        "epilogue": None,
        "finalize": {"args": ["%s", "%c", "%q"],
                     "ops": [{"op": "arith.divf", "args": ["%q", "%c"], "result": "%v"}],
                     "yields": ["%v"]}}
    out = evaluate(variance, {"ins": [x + 1000.0], "bcasts": [], "scalars": []}, xp)
    assert np.allclose(out["scalar_outs"][0].v, x.var(1), rtol=1e-9), "variance"

    # A branch on nearly equal values is skipped, a clear one is checked.
    branch = {
        "n": 2, "outs": ["f32"], "scalar_outs": [], "blocks": 1,
        "stages": [{"kinds": ["add"], "args": ["%j", "%x", "%y"], "ops": [],
                    "yields": ["%x"]}],
        "epilogue": {"args": ["%j", "%x", "%y", "%s"],
                     "ops": [{"op": "arith.mulf", "args": ["%x", "%x"], "result": "%q"},
                             {"op": "if", "args": ["%q", "%y"], "result": "%r"}],
                     "yields": ["%r"]},
        "finalize": None}
    xs = np.array([[1.0, 3.0]])
    ys = np.array([[1.0 + 1e-9, 2.0]])
    out = evaluate(branch, {"ins": [xs, ys], "bcasts": [], "scalars": []}, xp)
    r = out["outs"][0]
    assert np.isinf(r.e[0, 0]) and np.isfinite(r.e[0, 1]) and r.v[0, 1] == 18.0

    # Overflow in f32 is an infinity, or uncertain at the edge.
    edge = {
        "n": 3, "outs": ["f32"], "scalar_outs": [], "blocks": 1,
        "stages": [{"kinds": ["max"], "args": ["%j", "%x"], "ops": [],
                    "yields": ["%x"]}],
        "epilogue": {"args": ["%j", "%x", "%m"],
                     "ops": [{"op": "math.exp", "args": ["%x"], "result": "%e"}],
                     "yields": ["%e"]},
        "finalize": None}
    out = evaluate(edge, {"ins": [np.array([[100.0, 88.72283, 1.0]])],
                          "bcasts": [], "scalars": []}, xp)
    e = out["outs"][0]
    assert e.v[0, 0] == np.inf and e.e[0, 0] == 0, "certain overflow"
    assert np.isinf(e.e[0, 1]), "overflow at the edge is uncertain"
    assert np.isfinite(e.e[0, 2])

    # fptosi(100 tanh(x)) within one of the truncation points: +-1.
    toint = {
        "n": 2, "outs": ["i8"], "scalar_outs": [], "blocks": 1,
        "stages": [{"kinds": ["add"], "args": ["%j", "%x"], "ops": [],
                    "yields": ["%x"]}],
        "epilogue": {"args": ["%j", "%x", "%s"],
                     "ops": [{"op": "toint", "args": ["%x"], "type": "i8",
                              "result": "%q"}],
                     "yields": ["%q"]},
        "finalize": None}
    boundary = math.atanh(0.25)  # 100 tanh = 25 exactly
    out = evaluate(toint, {"ins": [np.array([[boundary, 0.1]])],
                           "bcasts": [], "scalars": []}, xp)
    q = out["outs"][0]
    assert q.e[0, 0] == 1.0 and q.e[0, 1] == 0.0 and q.v[0, 1] == 9.0
    emulated = _emulate_generated(40)
    print(f"program_oracle: self-test passed ({emulated} elements of 40 "
          "generated programs' f32 evaluations within the bounds)")


def _bfloat16(x):
    """x (float32) rounded to bfloat16's precision, to nearest even."""
    import numpy as np
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    return bits.astype(np.uint32).view(np.float32)


def _emulate_generated(count):
    """Generated programs evaluated in numpy's float32 (another summation
    order, correctly rounded math) must be within the oracle's bounds
    everywhere: the bounds are not tighter than f32 rounding."""
    import random
    import numpy as np
    from generate_programs import program

    class Float32(Numpy):
        def asarray(self, values):
            return self.np.asarray(values, dtype=self.np.float32)

        def full(self, shape, value):
            return self.np.full(shape, value, dtype=self.np.float32)

        def columns(self, n):
            return self.np.arange(n, dtype=self.np.float32).reshape(1, n)

    def rounded(x, dtype):
        with np.errstate(all="ignore"):
            x = np.asarray(x, dtype=np.float32)
            if dtype == "f16":
                x = x.astype(np.float16)
            elif dtype == "bf16":
                x = _bfloat16(x)
            return x.astype(np.float64)

    rng, values = random.Random(7), np.random.default_rng(7)
    checked = 0
    for index in range(count):
        description = program(rng, index)[1]
        n = description["n"]
        m = max(1, min(description["m"] or 3, 1_000_000 // n))
        inputs = {
            "ins": [rounded(values.uniform(-2, 2, (m, n)), t)
                    for t in description["ins"]],
            "bcasts": [rounded(values.uniform(-2, 2, n), t)
                       for t in description["bcasts"]],
            "scalars": [values.integers(-5, 6, m).astype(np.float64)
                        if t.startswith("i") else
                        rounded(values.uniform(-2, 2, m), t)
                        for t in description["scalars"]]}
        single = {k: [x.astype(np.float32) for x in v]
                  for k, v in inputs.items()}
        with np.errstate(all="ignore"):
            reference = evaluate(description, inputs, Numpy())
            emulated = evaluate(description, single, Float32())
        for key, dtypes in (("outs", description["outs"]),
                            ("scalar_outs", description["scalar_outs"]),
                            ("colsums", ["f32"] * description["colsums"])):
            for want, got, dtype in zip(reference[key], emulated[key], dtypes):
                value = got.v if dtype.startswith("i") else rounded(got.v, dtype)
                value = np.broadcast_to(np.asarray(value, np.float64),
                                        want.v.shape)
                good, _, bad, examples = compare(want, value, dtype, Numpy())
                assert not bad, (f"generated program {index}: {key} "
                                 f"({dtype}) outside the bounds: {examples}")
                checked += good
    return checked


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        _self_test()
    else:
        sys.exit(__doc__)
