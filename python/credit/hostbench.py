"""Host time per call of CREDIT's PyTorch functions against the eager
PyTorch op, at decode and training shapes.

    python -m credit.hostbench --out benchmarks/host-DATE-runN.json

Each point times a loop of asynchronous calls by the wall clock (the GPU
runs behind; nothing synchronizes inside the loop, and the loop is short
enough that the launch queue never fills), after warm-up calls that
compile, load and plan. CREDIT's and the eager op's loops alternate (a
machine whose speed drifts affects both alike), and the median of several
loops is reported, in
microseconds per call, for CREDIT (`credit_us`), the eager op
(`eager_us`) and, with --compile, the op under torch.compile
(`compiled_us`). Every CREDIT result is first checked against the eager op
in float64. Points marked `grad` run with inputs that require grad, so
that both sides record autograd; of those, the ones marked `backward` time
forward and backward (torch.autograd.grad with a random upstream
gradient, so nothing accumulates).
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import time

import torch
import torch.nn.functional as F

import credit
from credit import fastpath, native

DECODE = [(1, 32000), (4, 128256), (8, 151936)]
TRAINING = [(4096, 4096), (16384, 8192)]
NORM_DECODE = [(1, 4096), (8, 8192)]
NORM_TRAINING = [(4096, 4096), (16384, 8192)]


def _quant_eager(x):
    amax = x.abs().amax(-1, keepdim=True).float()
    scale = torch.where(amax > 0, 127.0 / amax, torch.zeros_like(amax))
    q = (x.float() * scale).round().clamp(-127, 127).to(torch.int8)
    return q, (amax / 127.0).squeeze(-1)


def _cases(dtype):
    """(op, shapes, make inputs, credit call, eager call)."""
    def rows(m, n):
        return torch.randn(m, n, device="cuda", dtype=dtype)

    def vector(n):
        return torch.randn(n, device="cuda", dtype=dtype)

    def target(m, n):
        return torch.randint(0, n, (m,), device="cuda")

    return [
        ("softmax", DECODE + TRAINING, lambda m, n: (rows(m, n),),
         lambda x: credit.softmax(x), lambda x: torch.softmax(x, -1)),
        ("log_softmax", DECODE + TRAINING, lambda m, n: (rows(m, n),),
         lambda x: credit.log_softmax(x), lambda x: torch.log_softmax(x, -1)),
        ("cross_entropy", DECODE + TRAINING,
         lambda m, n: (rows(m, n), target(m, n)),
         lambda x, t: credit.cross_entropy(x, t, reduction="none"),
         lambda x, t: F.cross_entropy(x, t, reduction="none")),
        ("rms_norm", NORM_DECODE + NORM_TRAINING,
         lambda m, n: (rows(m, n), vector(n)),
         lambda x, w: credit.rms_norm(x, w, 1e-6),
         lambda x, w: F.rms_norm(x, (x.shape[-1],), w, 1e-6)),
        ("layer_norm", NORM_DECODE + NORM_TRAINING,
         lambda m, n: (rows(m, n), vector(n), vector(n)),
         lambda x, w, b: credit.layer_norm(x, (x.shape[-1],), w, b, 1e-5),
         lambda x, w, b: F.layer_norm(x, (x.shape[-1],), w, b, 1e-5)),
        ("normalize", NORM_DECODE + NORM_TRAINING, lambda m, n: (rows(m, n),),
         lambda x: credit.normalize(x), lambda x: F.normalize(x, dim=-1)),
        ("softmax_backward", DECODE + TRAINING,
         lambda m, n: (rows(m, n), rows(m, n)),
         lambda x, dy: credit.softmax_backward(x, dy),
         lambda x, dy: torch._softmax_backward_data(dy, x, -1, x.dtype)),
        ("rowwise_quant", NORM_DECODE + NORM_TRAINING,
         lambda m, n: (rows(m, n),),
         lambda x: credit.rowwise_quant(x), _quant_eager),
    ]


def _check(op, ours, theirs, args):
    """CREDIT's result against the eager op's on float64 inputs (the
    softmax backward and the quantization compare what they share)."""
    if op == "softmax_backward":
        x, dy = args
        p = torch.softmax(x.double(), -1)
        reference = p * (dy.double() - (p * dy.double()).sum(-1, keepdim=True))
    elif op == "rowwise_quant":
        reference = theirs(*[a.double() if a.is_floating_point() else a
                             for a in args])[1]
        ours = ours[1]
    else:
        reference = theirs(*[a.double() if a.is_floating_point() else a
                             for a in args])
    if isinstance(ours, tuple):
        ours = ours[0]
    if isinstance(reference, tuple):
        reference = reference[0]
    error = ((ours.double() - reference).norm() /
             reference.norm().clamp(min=1e-30)).item()
    if not error < 2e-2:
        raise AssertionError(f"{op}: relative error {error:.2e} against "
                             "float64")


def _loop_us(fn, args, iters: int) -> float:
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(iters):
        fn(*args)
    return (time.perf_counter() - start) / iters * 1e6


def _per_call_us(fn, args, iters: int, repeats: int) -> float:
    for _ in range(5):
        fn(*args)
    samples = [_loop_us(fn, args, iters) for _ in range(repeats)]
    torch.cuda.synchronize()
    return statistics.median(samples)


def _compare_us(fns, args, iters: int, repeats: int) -> list[float]:
    """Medians of loops of each of `fns`, the loops interleaved so that a
    machine whose speed drifts during the run affects them alike."""
    for fn in fns:
        for _ in range(5):
            fn(*args)
    samples = [[] for _ in fns]
    for _ in range(repeats):
        for fn, kept in zip(fns, samples):
            kept.append(_loop_us(fn, args, iters))
    torch.cuda.synchronize()
    return [statistics.median(kept) for kept in samples]


def run(dtype=torch.bfloat16, iters: int = 100, repeats: int = 11,
        compile_peer: bool = False, grad: bool = True) -> dict:
    if native.mode() != "off" and native.MODULE is None:
        # What the user gets once the C++ path is built, not the Python
        # path it replaces while it builds.
        try:
            native.build()
        except (RuntimeError, ImportError, OSError) as error:
            print(f"the C++ call path is not available: {error}")
    points = []
    for op, shapes, make, ours, theirs in _cases(dtype):
        for m, n in shapes:
            args = make(m, n)
            _check(op, ours(*args), theirs, args)
            credit_us, eager_us = _compare_us((ours, theirs), args, iters,
                                              repeats)
            point = {"op": op, "dtype": str(dtype).replace("torch.", ""),
                     "m": m, "n": n, "grad": False,
                     "credit_us": credit_us, "eager_us": eager_us}
            if compile_peer:
                torch._dynamo.reset()
                compiled = torch.compile(theirs, dynamic=False)
                point["compiled_us"] = _per_call_us(compiled, args, iters,
                                                    repeats)
            point["ratio"] = point["credit_us"] / point["eager_us"]
            points.append(point)
            print(f"{op:17s} {m:6d} x {n:7d}  credit {point['credit_us']:7.1f} us"
                  f"  eager {point['eager_us']:7.1f} us  ratio "
                  f"{point['ratio']:.2f}", flush=True)
    if grad:
        # The forward ops with autograd, inputs that require grad: the
        # forward alone (the graph recorded and dropped), then forward and
        # backward (torch.autograd.grad, so nothing accumulates).
        for op, shapes, make, ours, theirs in _cases(dtype):
            if op not in ("softmax", "rms_norm", "layer_norm",
                          "cross_entropy"):
                continue
            m, n = shapes[0]
            args = tuple(a.requires_grad_() if a.is_floating_point() else a
                         for a in make(m, n))
            wrt = tuple(a for a in args if a.requires_grad)
            upstream = torch.randn_like(theirs(*args))

            def both(fn):
                return lambda *a: torch.autograd.grad(fn(*a), wrt, upstream)

            for backward, fns in ((False, (ours, theirs)),
                                  (True, (both(ours), both(theirs)))):
                credit_us, eager_us = _compare_us(fns, args, iters, repeats)
                point = {"op": op, "dtype": str(dtype).replace("torch.", ""),
                         "m": m, "n": n, "grad": True, "backward": backward,
                         "credit_us": credit_us, "eager_us": eager_us,
                         "ratio": credit_us / eager_us}
                points.append(point)
                label = op + (" (fwd+bwd)" if backward else " (grad)")
                print(f"{label:24s} {m:6d} x {n:7d}  credit "
                      f"{credit_us:7.1f} us  eager {eager_us:7.1f} us  "
                      f"ratio {point['ratio']:.2f}", flush=True)
    return {
        "date": datetime.date.today().isoformat(),
        "device": torch.cuda.get_device_name(),
        "torch": torch.__version__,
        "fastlaunch": fastpath._fastlaunch is not None,
        "native": native.MODULE is not None,
        "iters": iters, "repeats": repeats,
        "points": points,
    }


def first_calls(dtype=torch.bfloat16, n: int = 5120) -> list[dict]:
    """Seconds of each op's first call for a row length no call has used
    (credit-opt, loading, the launch, synchronized): what a user waits
    once per shape with an empty cache."""
    points = []
    for op, _, make, ours, _ in _cases(dtype):
        args = make(8, n)
        torch.cuda.synchronize()
        start = time.perf_counter()
        ours(*args)
        torch.cuda.synchronize()
        seconds = time.perf_counter() - start
        points.append({"op": op, "dtype": str(dtype).replace("torch.", ""),
                       "n": n, "first_call_s": seconds})
        print(f"{op:17s} first call at N = {n}: {seconds:.3f} s", flush=True)
    return points


def breakdown(m: int = 8, n: int = 151936) -> dict:
    """Microseconds of the parts of one credit.softmax call (bf16 [m, n])
    against the eager op: where the host time goes."""
    from credit import ops
    x = torch.randn(m, n, device="cuda", dtype=torch.bfloat16)
    credit.softmax(x)
    plan = fastpath.plans[ops._call_key("softmax", x, None, 64)]
    kernel = plan.kernels[0]
    y = torch.empty_like(x)
    stream = fastpath._current_stream(plan.device)
    # The kernel's parameters as fastpath builds them (a split row's
    # kernel also takes its partial and counter buffers).
    args = [x.data_ptr(), n, y.data_ptr(), n]
    if kernel.split:
        args += kernel.loaded.split_args(m, stream)
    args = tuple(args)
    parts = {
        "credit.softmax": lambda: credit.softmax(x),
        "ops._fast": lambda: ops._fast("softmax", (x,), (), ()),
        "fastpath.run": lambda: fastpath.run(plan, (x,), (), (), False),
        "torch.empty_like": lambda: torch.empty_like(x),
        "is_compiling": torch.compiler.is_compiling,
        "current stream": lambda: fastpath._current_stream(plan.device),
        "torch.softmax (eager)": lambda: torch.softmax(x, -1),
    }
    if plan.native:
        parts["native run_one"] = lambda: native.MODULE.run_one(
            plan.native, x, False)
    if fastpath._fastlaunch is not None:
        parts["_fastlaunch.launch"] = lambda: fastpath._fastlaunch.launch(
            kernel.function, kernel.block, kernel.cluster, kernel.shared,
            kernel.policy, kernel.group, kernel.active, kernel.switch_share,
            plan.blocks, stream, m, tuple(args), kernel.dependent)
    result = {}
    for name, fn in parts.items():
        result[name] = _per_call_us(lambda: fn(), (), 200, 7)
        print(f"{name:24s} {result[name]:6.2f} us", flush=True)
    return result


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="where to write the JSON")
    parser.add_argument("--iters", type=int, default=100)
    parser.add_argument("--compile", action="store_true",
                        help="also time the op under torch.compile")
    parser.add_argument("--first-calls", action="store_true",
                        help="first time the first call of each op at a "
                             "new row length (compile and load included)")
    parser.add_argument("--breakdown", action="store_true",
                        help="first time the parts of one softmax call")
    args = parser.parse_args(argv)
    parts = breakdown() if args.breakdown else None
    first = first_calls() if args.first_calls else None
    result = run(iters=args.iters, compile_peer=args.compile)
    if first is not None:
        result["first_calls"] = first
    if parts is not None:
        result["breakdown_us"] = parts
    worst = max(p["ratio"] for p in result["points"])
    print(f"{len(result['points'])} points, worst credit/eager {worst:.2f}")
    if args.out:
        with open(args.out, "w") as handle:
            json.dump(result, handle, indent=1)


if __name__ == "__main__":
    main()
