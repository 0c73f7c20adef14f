"""Benchmarks CREDIT against the peers a user would pick instead.

    python -m credit.bench --grid paper --out results.json
    python -m credit.bench --grid ours --out results.json
    python -m credit.bench --grid decode --out results.json
    python -m credit.bench --render results.json    # the table again

For every point of a grid it checks each implementation against a float64
reference on fresh random inputs, then times it: at least 64 calls, cycling
over enough distinct input sets to exceed the 60 MB L2 (at least 256 MB),
are captured in a CUDA graph, so that launch overhead and the replay's own
start are left out for every implementation alike, and the median of 20
replays, per call, is reported with GB/s of
compulsory traffic
(each input read once, each output written once), the fraction of a
device-to-device copy measured in the same run, and the speedup of CREDIT's
default choice over the best peer. Implementations:

- credit at cluster sizes 1, 2, 4, 8, 16 and at the compiler's choice (0);
- torch eager (PyTorch's functions where they exist, else the DESIGN.md
  expression);
- torch.compile of the same function, compiled fresh for each point
  (torch._dynamo.reset(), dynamic=False);
- Liger-Kernel's rmsnorm, layernorm, softmax and cross-entropy, where the
  liger-kernel package is installed (scripts/device_bench.sh installs a
  carried wheel from .whl/);
- Quack's softmax, rmsnorm, layernorm and cross-entropy (loss and gradient
  in one pass), hand-written CuTe DSL kernels with DSMEM clusters, where
  quack-kernels and nvidia-cutlass-dsl are installed (`quack`);
- hand-written Triton kernels for every workload (credit.peers.triton_rowwise),
  BLOCK and num_warps tuned on each point's first (checking) call:
  `triton_resident` (the whole row in registers, rows up to 65536) and
  `triton_looped` (a fused reduction sweep, then an output sweep);
- the paper's hand-written CUDA kernels without DSMEM for its six workloads
  in fp32 (credit.peers.cuda_paper, benchmarks/baselines/paper_rowwise.cu):
  `cuda_smem` (the row staged in shared memory, where it fits) and
  `cuda_reread` (the row read again from global memory).

CREDIT's kernels launch with programmatic dependent launch: in the graph,
each of its calls launches while the one before it finishes, which the
peers' kernels, launched without it, do not. `--after-foreign` puts a small
PyTorch kernel before each timed call (and subtracts that kernel's own
time), as in a model where the kernel before is a GEMM: no call then
overlaps the one before it.

`--implementations` times only the labels given (`credit_c0,quack`, say).
An implementation that does not handle a point (a Liger row over 65536, a
resident Triton row over 65536, a CUDA row that does not fit in shared
memory, bf16 for the fp32-only CUDA kernels) is reported as n/a.

Kernels come from a library built beforehand (python -m credit.build
--suite bench-paper / bench-ours).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
import weakref

from . import suites
from .peers import NotApplicable

GRIDS = {"paper": suites.paper_points, "ours": suites.our_points,
         "decode": suites.decode_points}


def _torch_peers():
    """What a PyTorch user would write: PyTorch's own functions where they
    exist, else DESIGN.md's expressions (credit.reference), computed in f32
    where the inputs are 16-bit."""
    import torch
    import torch.nn.functional as F

    from . import reference

    def upcast(fn, *, keep=()):
        """fn on f32 copies of 16-bit inputs, outputs cast back."""
        def wrapped(*args):
            dtype = args[0].dtype
            outs = fn(*[a.float() if a.is_floating_point() else a
                        for a in args])
            outs = outs if isinstance(outs, tuple) else (outs,)
            result = tuple(o if i in keep or o.dim() != 2 else o.to(dtype)
                           for i, o in enumerate(outs))
            return result if len(result) > 1 else result[0]
        return wrapped

    def rowwise_quant(x):
        q, scale, _ = reference.rowwise_quant(x.float())
        return q.to(torch.int8), scale

    return {
        "layernorm_bwd": upcast(lambda x, dy, g: reference.layernorm_bwd(
            x, dy, g)[0]),
        "weighted_var_bwd": upcast(lambda x, w, dy:
                                   reference.weighted_var_bwd(x, w, dy)[0]),
        "pearson_bwd": upcast(reference.pearson_bwd),
        "softmax_logits_bwd": upcast(lambda l, dy:
                                     reference.softmax_logits_bwd(l, dy)[0]),
        "lars_momentum": reference.lars_momentum,
        "rowwise_quant": rowwise_quant,
        "softmax": lambda x: torch.softmax(x, -1),
        "log_softmax": lambda x: torch.log_softmax(x, -1),
        "layernorm": lambda x, g, b: F.layer_norm(x, (x.shape[-1],), g, b,
                                                  1e-5),
        "rmsnorm": lambda x, w: F.rms_norm(x, (x.shape[-1],), w, 1e-6),
        "rmsnorm_bwd": upcast(reference.rmsnorm_bwd, keep=(1,)),
        "cross_entropy": upcast(reference.cross_entropy, keep=(0,)),
        "l2_normalize": lambda x: F.normalize(x, 2.0, -1, 1e-12),
    }


def _liger_peers():
    """Liger-Kernel's Triton kernels (rmsnorm, layernorm, softmax and fused
    cross-entropy), where the liger-kernel package is installed."""
    try:
        from liger_kernel.ops.cross_entropy import LigerCrossEntropyFunction
        from liger_kernel.ops.layer_norm import LigerLayerNormFunction
        from liger_kernel.ops.rms_norm import LigerRMSNormFunction
        from liger_kernel.ops.softmax import LigerSoftmaxFunction
    except ImportError:
        return {}

    def rows_up_to_65536(fn):
        # Liger's kernels hold a row in one program and refuse longer ones.
        def checked(x, *args):
            if x.shape[-1] > 65536:
                raise NotApplicable("Liger-Kernel refuses rows over 65536")
            return fn(x, *args)
        return checked

    def cross_entropy(logits, target):
        # Liger computes the gradient during the forward pass, into the
        # logits' own storage, when they require a gradient: loss and
        # dlogits in one pass, like credit's cross_entropy.
        logits.requires_grad_(True)
        loss = LigerCrossEntropyFunction.apply(logits, target, None, -100,
                                               0.0, 0.0, "none")[0]
        logits.requires_grad_(False)
        return loss, logits.detach()

    return {
        "rmsnorm": rows_up_to_65536(lambda x, w: LigerRMSNormFunction.apply(
            x, w, 1e-6, 0.0, "llama", False)),
        "layernorm": rows_up_to_65536(lambda x, g, b: LigerLayerNormFunction
                                      .apply(x, g, b, 1e-5)),
        "softmax": rows_up_to_65536(LigerSoftmaxFunction.apply),
        # Liger's cross entropy loops over the row: no limit.
        "cross_entropy": cross_entropy,
    }


def _quack_peers():
    """Quack's hand-written CuTe DSL kernels with DSMEM clusters
    (quack-kernels, on nvidia-cutlass-dsl), for the workloads it has in the
    same form: softmax, rmsnorm, layernorm (forward) and cross-entropy with
    its gradient in the same pass. Empty where the package is missing.
    (Its softmax and layernorm backwards take the forward's outputs, not
    CREDIT's inputs: another workload.)"""
    try:
        from quack.cross_entropy import cross_entropy_fwd
        from quack.rmsnorm import layernorm_fwd, rmsnorm_fwd
        from quack.softmax import softmax_fwd
    except ImportError:
        return {}
    floats = {}

    def float32(t):
        # Quack's layernorm takes f32 weight and bias: converted once per
        # tensor, outside the timed calls, as a model would store them. The
        # copy lives as long as the tensor (an address is reused once it is
        # freed, so it cannot be the key).
        if id(t) not in floats:
            floats[id(t)] = t.float()
            weakref.finalize(t, floats.pop, id(t), None)
        return floats[id(t)]

    def cross_entropy(logits, target):
        return cross_entropy_fwd(logits, target, return_dx=True)

    return {
        "softmax": softmax_fwd,
        "rmsnorm": lambda x, w: rmsnorm_fwd(x, w, eps=1e-6)[0],
        "layernorm": lambda x, g, b: layernorm_fwd(x, float32(g), float32(b),
                                                   eps=1e-5),
        "cross_entropy": cross_entropy,
    }


def _handwritten_peers():
    """{label: {workload: fn}} for the hand-written Triton and CUDA
    kernels."""
    from .peers import cuda_paper, triton_rowwise

    peers = {f"triton_{v}": triton_rowwise.functions(v)
             for v in triton_rowwise.VARIANTS}
    try:
        paper = cuda_paper.load()
        peers.update({f"cuda_{v}": paper.functions(v)
                      for v in cuda_paper.VARIANTS})
    except (FileNotFoundError, OSError, RuntimeError,
            subprocess.CalledProcessError) as error:
        print(f"paper CUDA baselines unavailable: {error}", flush=True)
    return peers


def _references():
    """float64 references (credit.reference), in the peers' output order
    (and dtypes, where they are not floating point: the traffic counts)."""
    import torch

    from . import reference

    def first(fn):
        return lambda *a: fn(*a)[0]

    return {
        "layernorm_bwd": first(reference.layernorm_bwd),
        "weighted_var_bwd": first(reference.weighted_var_bwd),
        "pearson_bwd": reference.pearson_bwd,
        "softmax_logits_bwd": first(reference.softmax_logits_bwd),
        "lars_momentum": reference.lars_momentum,
        "rowwise_quant": lambda x: (
            lambda q, scale, _: (q.to(torch.int8), scale))(
                *reference.rowwise_quant(x)),
        "softmax": first(reference.softmax),
        "log_softmax": first(reference.log_softmax),
        "layernorm": first(reference.layernorm),
        "rmsnorm": first(reference.rmsnorm),
        "rmsnorm_bwd": reference.rmsnorm_bwd,
        "cross_entropy": reference.cross_entropy,
        "l2_normalize": first(reference.l2_normalize),
    }


def _credit_fn(name):
    import credit
    import credit.ops
    return {
        "layernorm_bwd": lambda x, dy, g: credit.layernorm_bwd(x, dy, g),
        "weighted_var_bwd": credit.weighted_var_bwd,
        "pearson_bwd": credit.pearson_bwd,
        "softmax_logits_bwd": credit.softmax_backward,
        "lars_momentum": credit.lars_momentum,
        "rowwise_quant": credit.rowwise_quant,
        "softmax": credit.softmax,
        "log_softmax": credit.log_softmax,
        "layernorm": lambda x, g, b: credit.layer_norm(x, (x.shape[-1],), g,
                                                       b),
        "rmsnorm": lambda x, w: credit.rms_norm(x, w, 1e-6),
        "rmsnorm_bwd": lambda x, dy, w, r: credit.ops._rmsnorm_bwd(x, dy, w,
                                                                  r),
        "cross_entropy": credit.ops._cross_entropy,
        "l2_normalize": credit.normalize,
    }[name]


def _inputs(point, torch):
    """Fresh random inputs for a point, and compulsory bytes moved."""
    dtype = {"f32": torch.float32, "bf16": torch.bfloat16,
             "f16": torch.float16}[point.dtype]
    m, n = point.m, point.n

    def rows(positive=False):
        t = torch.randn(m, n, device="cuda", dtype=torch.float32)
        return (t.abs() + 0.1 if positive else t).to(dtype)

    def vec():
        return torch.randn(n, device="cuda").to(dtype)

    w = point.workload
    if w in ("softmax", "log_softmax", "l2_normalize", "rowwise_quant"):
        args = (rows(),)
    elif w == "layernorm":
        args = (rows(), vec(), vec())
    elif w == "rmsnorm":
        args = (rows(), vec())
    elif w == "layernorm_bwd":
        args = (rows(), rows(), vec())
    elif w == "weighted_var_bwd":
        args = (rows(), rows(positive=True), rows())
    elif w == "pearson_bwd":
        args = (rows(), rows(), torch.randn(m, device="cuda"))
    elif w == "softmax_logits_bwd":
        args = (rows(), rows())
    elif w == "lars_momentum":
        args = (rows(), rows(), rows())
    elif w == "rmsnorm_bwd":
        x = rows()
        rstd = torch.rsqrt(x.float().pow(2).mean(-1) + 1e-6)
        args = (x, rows(), vec(), rstd)
    elif w == "cross_entropy":
        args = (rows(), torch.randint(0, n, (m,), device="cuda"))
    else:
        raise ValueError(w)
    return args


def _bytes(args, outputs) -> int:
    return sum(t.numel() * t.element_size() for t in list(args) + list(outputs)
               if hasattr(t, "numel"))


def _flatten(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _error(out, ref) -> float:
    """Relative 2-norm error over elements finite in the reference."""
    import torch
    errors = []
    for o, r in zip(_flatten(out), _flatten(ref)):
        o, r = o.double(), r.double()
        if o.shape != r.shape:
            o = o.reshape(r.shape) if o.numel() == r.numel() else o.sum(0)
        finite = torch.isfinite(r)
        scale = r[finite].norm()
        diff = (o[finite] - r[finite]).norm()
        errors.append(float(diff / scale) if scale > 0 else float(diff))
    return max(errors)


def tolerance(dtype: str) -> float:
    """The relative error against float64 a result may have to be timed."""
    return 2e-4 if dtype == "f32" else 1e-2


def check_and_time(torch, fn, tiling: str | None, args, reference,
                   arg_sets, dtype: str, reps: int = 20,
                   replay_budget_s: float | None = None, before=None
                   ) -> tuple[float | str, float | None]:
    """`fn` launched with `tiling` forced (None: the compiler's choice):
    its error against `reference` on `args`, and its microseconds per call
    over `arg_sets` (time_graph, with `reps`, `replay_budget_s` and
    `before`; `before`'s own time is the caller's to subtract) where
    that error is within tolerance(dtype), else None. A call that raises
    gives its message in place of the error (for experiments that record
    and go on)."""
    from . import ops
    try:
        with ops.force_tiling(tiling):
            error = _error(fn(*args), reference)
            if not error < tolerance(dtype):
                return error, None
            return error, 1e3 * time_graph(torch, fn, arg_sets, reps,
                                           replay_budget_s=replay_budget_s,
                                           before=before)
    except Exception as failure:  # recorded by the caller
        return f"{type(failure).__name__}: {failure}"[:300], None


def experiment_inputs(point, torch, references):
    """For experiments that time many tilings at a point: fresh inputs,
    their float64 reference, and enough input sets (the first is `args`)
    to exceed L2 (256 MB, at most 32 sets)."""
    args = _inputs(point, torch)
    reference = references[point.workload](
        *[a.double() if a.is_floating_point() else a for a in args])
    nbytes = sum(t.numel() * t.element_size() for t in args)
    sets = [args] + [_inputs(point, torch) for _ in range(
        max(1, min(32, math.ceil((256 << 20) / nbytes))) - 1)]
    return args, reference, sets


def foreign_kernel(torch):
    """A call that launches one small PyTorch kernel, without programmatic
    dependent launch: put before each timed call (--after-foreign), the
    kernel timed then starts only once the one before it has finished, as
    after a GEMM in a model, instead of overlapping a kernel of its own
    that lets it launch early (CREDIT's, programmatic dependent launch)."""
    scratch = torch.zeros(1, device="cuda")
    return lambda: scratch.add_(1.0)


def time_graph(torch, fn, arg_sets, reps: int = 20,
               min_calls: int = 64,
               replay_budget_s: float | None = None,
               before=None) -> float:
    """Milliseconds per call of `fn` over `arg_sets`, replayed as one CUDA
    graph (median of `reps` replays). The graph cycles over the sets until
    it holds at least `min_calls` calls: a replay's own start and end cost
    6-13 us, which a graph of the few large sets that exceed L2 charged to
    each of their calls (0.5 us at 8 sets, all of it at one; RESULTS.md,
    2026-12-04, seventeenth session). With `replay_budget_s`, replays
    longer than that budget over `reps` get fewer of them, at least 3 (a
    graph of 64 calls of 500 us varies by well under 1% from replay to
    replay; the cost model's measurement times thousands of them). With
    `before`, the graph calls it before each call of `fn` and the time is
    of both."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        # Every set once before capture, so that what a peer prepares once
        # per tensor (Quack's f32 layernorm weights) is not in the graph.
        for args in arg_sets:
            fn(*args)
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    calls = arg_sets * max(1, math.ceil(min_calls / len(arg_sets)))
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for args in calls:
            if before is not None:
                before()
            fn(*args)
    graph.replay()
    torch.cuda.synchronize()
    if replay_budget_s:
        start = time.perf_counter()
        graph.replay()
        torch.cuda.synchronize()
        once = time.perf_counter() - start
        reps = max(3, min(reps, math.ceil(replay_budget_s / once)))
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / len(calls))
    del graph
    times.sort()
    return times[len(times) // 2]


def measure_copy(torch, triton) -> float:
    """Device-to-device copy bandwidth in GB/s (bytes read + written)."""
    src = torch.empty(1 << 30, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    ms = triton.testing.do_bench(lambda: dst.copy_(src), warmup=50, rep=300,
                                 return_mode="median")
    return 2 * src.numel() / ms / 1e6


def run(grid: str, out_path: str, budget_s: float, compile_peers: bool,
        only: set[str] | None = None,
        implementations: set[str] | None = None,
        after_foreign: bool = False):
    import torch
    import triton
    import credit

    start = time.time()
    peers = _torch_peers()
    liger = _liger_peers()
    quack = _quack_peers()
    handwritten = _handwritten_peers()
    references = _references()
    copy_gbs = measure_copy(torch, triton)
    print(f"device-to-device copy: {copy_gbs:.0f} GB/s", flush=True)
    results = {"grid": grid, "device": torch.cuda.get_device_name(),
               "torch": torch.__version__, "triton": triton.__version__,
               "date": time.strftime("%Y-%m-%d"), "copy_gbs": copy_gbs,
               "after_foreign": after_foreign, "points": []}

    def save():
        with open(out_path, "w") as f:
            json.dump(results, f, indent=1)

    for point in GRIDS[grid]():
        if only and point.workload not in only:
            continue
        if time.time() - start > budget_s:
            print(f"budget spent; stopping before {point}", flush=True)
            break
        torch.manual_seed(hash(point) & 0xffff)
        args = _inputs(point, torch)
        reference_args = [a.double() if a.is_floating_point() else a
                          for a in args]
        reference = references[point.workload](*reference_args)
        outputs = _flatten(reference)
        nbytes = _bytes(args, [
            o if o.dtype == torch.int8 else
            o.to(args[0].dtype) if o.dim() == 2 else o.float()
            for o in outputs])
        del reference_args
        # Distinct input sets so that the timed calls miss in L2.
        sets = max(1, min(32, math.ceil((256 << 20) / nbytes)))
        arg_sets = [args] + [_inputs(point, torch) for _ in range(sets - 1)]
        row = {"workload": point.workload, "dtype": point.dtype, "m": point.m,
               "n": point.n, "bytes": nbytes, "times_ms": {}, "errors": {}}
        foreign = foreign_kernel(torch) if after_foreign else None
        if foreign:
            row["foreign_ms"] = time_graph(torch, foreign, [()])

        def time_it(label, fn_of):
            if implementations is not None and label not in implementations:
                return
            try:
                error = _error(fn_of(*args), reference)
                row["errors"][label] = error
                if not error < tolerance(point.dtype):
                    print(f"  {label}: wrong result (error {error:.2g}); "
                          "not timed", flush=True)
                    return
                try:
                    row["times_ms"][label] = time_graph(
                        torch, lambda *a: fn_of(*a), arg_sets,
                        before=foreign) - row.get("foreign_ms", 0.0)
                except RuntimeError as error:
                    # Not capturable (a host sync inside, say): time eager
                    # calls instead, with L2 flushed before each.
                    torch.cuda.synchronize()
                    row.setdefault("timed_without_graph", {})[label] = \
                        str(error)[:200]
                    row["times_ms"][label] = triton.testing.do_bench(
                        lambda: fn_of(*args), warmup=10, rep=50,
                        return_mode="median")
            except NotApplicable as error:
                row["errors"][label] = f"n/a: {error}"
            except Exception as error:  # recorded, not fatal
                row["errors"][label] = f"{type(error).__name__}: {error}"[:300]

        fn = _credit_fn(point.workload)
        for cluster in (0, 1, 2, 4, 8, 16):
            def call(*a, c=cluster):
                with credit.cluster_size(c):
                    return fn(*a)
            time_it(f"credit_c{cluster}", call)
        time_it("torch_eager", peers[point.workload])
        if point.workload in liger:
            # Liger's cross entropy overwrites its input with the gradient,
            # so it gets copies of its own.
            if point.workload == "cross_entropy":
                original = arg_sets
                arg_sets = [tuple(a.clone() for a in s_) for s_ in original]
                args = arg_sets[0]
            time_it("liger", liger[point.workload])
            if point.workload == "cross_entropy":
                arg_sets = original
                args = arg_sets[0]
        if point.workload in quack:
            time_it("quack", quack[point.workload])
        for label, functions in handwritten.items():
            if point.workload in functions:
                time_it(label, functions[point.workload])
        if compile_peers and time.time() - start < budget_s * 0.8 and (
                implementations is None or "torch_compile" in implementations):
            torch._dynamo.reset()
            compiled = torch.compile(peers[point.workload], dynamic=False)
            time_it("torch_compile", compiled)
        del arg_sets, args, reference, outputs
        torch.cuda.empty_cache()
        _summarize(row, copy_gbs)
        results["points"].append(row)
        save()
        print(_line(row), flush=True)
    save()
    return results


def _summarize(row, copy_gbs):
    times = row["times_ms"]
    gbs = {k: row["bytes"] / v / 1e6 for k, v in times.items()}
    row["gbs"] = gbs
    peers = {k: v for k, v in times.items() if not k.startswith("credit")}
    ours = times.get("credit_c0")
    credits = {k: v for k, v in times.items() if k.startswith("credit")}
    row["best_credit"] = min(credits, key=credits.get) if credits else None
    row["best_peer"] = min(peers, key=peers.get) if peers else None
    if ours and peers:
        row["speedup"] = peers[row["best_peer"]] / ours
    if ours:
        row["copy_fraction"] = gbs["credit_c0"] / copy_gbs
    if ours and "quack" in times:
        row["speedup_vs_quack"] = times["quack"] / ours


def _line(row) -> str:
    t = row["times_ms"]
    cells = " ".join(f"{k.replace('credit_', '')}={v * 1e3:.0f}us"
                     for k, v in t.items())
    speed = row.get("speedup")
    return (f"{row['workload']:>18} {row['dtype']:>4} {row['m']:>6}x"
            f"{row['n']:<8} {cells} | speedup "
            f"{speed:.2f}x vs {row.get('best_peer')}" if speed else
            f"{row['workload']} {row['m']}x{row['n']}: {row['errors']}")


def _absent(row, label) -> str:
    """The table cell of an implementation without a time."""
    error = row["errors"].get(label)
    if error is None:
        return "-"
    return "n/a" if isinstance(error, str) and error.startswith("n/a") \
        else "err"


def markdown(results) -> str:
    """The table for benchmarks/RESULTS.md."""
    labels = ["credit_c0", "credit_c1", "credit_c2", "credit_c4", "credit_c8",
              "credit_c16", "torch_eager", "torch_compile", "liger", "quack",
              "triton_resident", "triton_looped", "cuda_smem", "cuda_reread"]
    lines = [
        f"Device {results['device']}, torch {results['torch']}, triton "
        f"{results['triton']}, copy ceiling {results['copy_gbs']:.0f} GB/s "
        "(read + write). Times in microseconds per call (median of 20 CUDA-graph "
        "replays over input sets that exceed L2); GB/s of compulsory traffic "
        "for CREDIT's choice (c0); speedup = best peer / c0." +
        (" Each call after a foreign kernel (--after-foreign), whose own "
         "time is subtracted." if results.get("after_foreign") else ""),
        "",
        "| workload | dtype | M x N | " + " | ".join(
            l.replace("credit_", "") for l in labels) +
        " | c0 GB/s | of copy | best peer | speedup |",
        "|" + "---|" * (len(labels) + 7),
    ]
    for row in results["points"]:
        t = row["times_ms"]
        cells = [f"{t[l] * 1e3:.1f}" if l in t else _absent(row, l)
                 for l in labels]
        gbs = row.get("gbs", {}).get("credit_c0")
        lines.append(
            f"| {row['workload']} | {row['dtype']} | {row['m']} x {row['n']} | "
            + " | ".join(cells) +
            f" | {gbs:.0f} | {row.get('copy_fraction', 0):.0%} | "
            f"{row.get('best_peer') or '-'} | "
            f"{row.get('speedup', float('nan')):.2f} |" if gbs else
            f"| {row['workload']} | {row['dtype']} | {row['m']} x {row['n']} | "
            + " | ".join(cells) + " | - | - | - | - |")
    speedups = [r["speedup"] for r in results["points"] if r.get("speedup")]
    if speedups:
        geo = math.exp(sum(math.log(s) for s in speedups) / len(speedups))
        lines += ["", f"Geometric-mean speedup over the best peer: {geo:.3f}x "
                  f"({sum(s >= 1 for s in speedups)} of {len(speedups)} "
                  "points at or above 1)."]
    against = [r["speedup_vs_quack"] for r in results["points"]
               if r.get("speedup_vs_quack")]
    if against:
        geo = math.exp(sum(math.log(s) for s in against) / len(against))
        lines += ["", f"Against Quack alone (Quack / c0, {len(against)} "
                  f"points where it has the workload): geometric mean "
                  f"{geo:.3f}x, lowest {min(against):.2f}x."]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grid", choices=sorted(GRIDS))
    parser.add_argument("--out", help="JSON results file")
    parser.add_argument("--render", metavar="JSON",
                        help="print the table of a saved run; time nothing")
    parser.add_argument("--markdown", help="write the table here too")
    parser.add_argument("--only", help="comma-separated workloads to run")
    parser.add_argument("--implementations",
                        help="comma-separated labels to time (credit_c0, "
                        "quack, ...; default: all)")
    parser.add_argument("--budget", type=float, default=480,
                        help="seconds after which no new point starts")
    parser.add_argument("--no-compile", action="store_true",
                        help="skip the torch.compile peer")
    parser.add_argument("--after-foreign", action="store_true",
                        help="put a small PyTorch kernel before each timed "
                        "call and subtract its own time: no call overlaps "
                        "the one before it (programmatic dependent launch)")
    args = parser.parse_args(argv)
    if args.render:
        with open(args.render) as f:
            results = json.load(f)
    elif args.grid and args.out:
        only = set(args.only.split(",")) if args.only else None
        implementations = set(args.implementations.split(",")) \
            if args.implementations else None
        results = run(args.grid, args.out, args.budget, not args.no_compile,
                      only, implementations, args.after_foreign)
    else:
        parser.error("give --grid and --out, or --render")
    table = markdown(results)
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
