"""Hand-written Triton kernels for every workload, as a strong Triton user
would write them, in two variants:

- `resident`: one program per row holds the whole row in registers
  (BLOCK = next power of two >= N, one load of each input, like Triton's
  fused-softmax tutorial and Liger-Kernel). Rows longer than
  MAX_RESIDENT elements are refused (NotApplicable): every register would
  spill.
- `looped`: one program per row loops over the row in LOOP_BLOCK-element
  chunks: one sweep fuses every reduction (sums of moments; an online max
  and rescaled sum for the softmax family), a second sweep re-reads the row
  (from L2 where it is still there) and writes the outputs.

Like a Triton user with @triton.autotune, the first call of a kernel for a
row length and dtype times every candidate (BLOCK, num_warps) (`_candidates`:
resident rows with 2-64 elements per thread, looped chunks of 2048-8192
with 4-32) and keeps the fastest; `autotune = False` uses the default
configuration (`_config`) instead. The first call must therefore not be
inside CUDA-graph capture.

The functions take the benchmark's arguments (credit.bench._inputs) and
return the outputs in the reference's order (credit.reference). Reductions
accumulate in fp32; 16-bit inputs are upcast on load and outputs are stored
in the input's dtype.
"""

from __future__ import annotations

import torch
import triton

from ..ops import empty_output as _empty
from . import NotApplicable, triton_kernels

VARIANTS = ("resident", "looped")
MAX_RESIDENT = 65536
LOOP_BLOCK = 4096

#: Time the candidate configurations on a kernel's first call for a shape
#: and keep the fastest; False: the default configuration.
autotune = True
_tuned: dict = {}


def _config(n: int, variant: str) -> tuple[int, int]:
    """BLOCK and num_warps: 16 elements per thread for a resident row (up
    to 32 warps), 8 warps over 4096-element chunks for a looped one."""
    if variant == "resident":
        block = triton.next_power_of_2(n)
        if block > MAX_RESIDENT:
            raise NotApplicable(f"a row of {n} elements does not fit in one "
                                f"program's registers (max {MAX_RESIDENT})")
        return block, min(32, max(4, block // 512))
    if variant != "looped":
        raise ValueError(f"unknown variant {variant!r}")
    block = min(triton.next_power_of_2(n), LOOP_BLOCK)
    return block, 8 if block >= 2048 else 4


def _candidates(n: int, variant: str) -> list[tuple[int, int]]:
    """(BLOCK, num_warps) pairs to time, the default first."""
    default = _config(n, variant)
    if variant == "resident":
        pairs = [(default[0], w) for w in (4, 8, 16, 32)
                 if 2 <= default[0] // (32 * w) <= 64]
    else:
        top = triton.next_power_of_2(n)
        pairs = [(b, w) for b in (2048, 4096, 8192) if b <= max(top, 2048)
                 for w in (4, 8, 16) if 4 <= b // (32 * w) <= 32]
    return [default] + [p for p in pairs if p != default]


def _fastest(kernel, grid, args, meta, configs):
    """The configuration of `configs` with the lowest median time."""
    times = []
    for block, warps in configs:
        def call(block=block, warps=warps):
            kernel[(grid,)](*args, BLOCK=block, num_warps=warps, **meta)
        try:
            times.append((triton.testing.do_bench(call, warmup=5, rep=20,
                                                  return_mode="median"),
                          (block, warps)))
        except triton.runtime.errors.OutOfResources:
            continue
    return min(times)[1]


# --- Host wrappers ----------------------------------------------------------

def _rows(*tensors):
    """Contiguous [M, N] rows on one CUDA device, with M and N."""
    x = tensors[0]
    if x.dim() != 2 or not x.is_cuda:
        raise NotApplicable("the Triton baselines take 2-D CUDA rows")
    return [t.contiguous() for t in tensors], x.shape[0], x.shape[1]


def _like(x):
    """An output shaped and typed like row input `x`."""
    return _empty(x.shape, x.dtype, x.device)


def _launch(name, variant, grid, *args, n, reset=(), **meta):
    """Kernel `name`_`variant`[(grid,)](*args, n) with the tuned (or the
    default) BLOCK and num_warps. `reset`: tensors the kernel accumulates
    into, zeroed again after tuning ran the kernel on them."""
    configs = _candidates(n, variant)
    kernel = getattr(triton_kernels, f"{name}_{variant}")
    if not grid:
        return
    args = args + (n,)
    block, warps = configs[0]
    if autotune and len(configs) > 1:
        dtypes = tuple(str(a.dtype) for a in args
                       if isinstance(a, torch.Tensor))
        key = (name, variant, n, tuple(sorted(meta.items())), dtypes)
        if key not in _tuned:
            _tuned[key] = _fastest(kernel, grid, args, meta, configs)
            for tensor in reset:
                tensor.zero_()
        block, warps = _tuned[key]
    kernel[(grid,)](*args, BLOCK=block, num_warps=warps, **meta)


def softmax(variant, x, log=False):
    (x,), m, n = _rows(x)
    y = _like(x)
    _launch("softmax", variant, m, x, y, n=n, LOG=log)
    return y


def log_softmax(variant, x):
    return softmax(variant, x, log=True)


def softmax_logits_bwd(variant, logits, dy):
    (logits, dy), m, n = _rows(logits, dy)
    dx = _like(logits)
    _launch("softmax_logits_bwd", variant, m, logits, dy, dx, n=n)
    return dx


def cross_entropy(variant, logits, target):
    (logits,), m, n = _rows(logits)
    loss = _empty((m,), torch.float32, logits.device)
    dx = _like(logits)
    _launch("cross_entropy", variant, m, logits, target.contiguous(), loss,
            dx, n=n)
    return loss, dx


def layernorm(variant, x, gamma, beta):
    (x, gamma, beta), m, n = _rows(x, gamma, beta)
    y = _like(x)
    mean = _empty((m,), torch.float32, x.device)
    rstd = _empty((m,), torch.float32, x.device)
    _launch("layernorm", variant, m, x, gamma, beta, y, mean, rstd, n=n)
    return y, mean, rstd


def rmsnorm(variant, x, w):
    (x, w), m, n = _rows(x, w)
    y = _like(x)
    rstd = _empty((m,), torch.float32, x.device)
    _launch("rmsnorm", variant, m, x, w, y, rstd, n=n)
    return y, rstd


def l2_normalize(variant, x):
    (x,), m, n = _rows(x)
    y = _like(x)
    _launch("l2_normalize", variant, m, x, y, n=n)
    return y


def rmsnorm_bwd(variant, x, dy, w, rstd):
    """dx and the per-program partial dw ([programs, N] f32; dw is its sum
    over the first dimension, as credit's rmsnorm_bwd gives it)."""
    (x, dy, w, rstd), m, n = _rows(x, dy, w, rstd)
    programs = max(1, min(m, 2 * torch.cuda.get_device_properties(
        x.device).multi_processor_count))
    dx = _like(x)
    dw = (torch.zeros if variant == "looped" else _empty)(
        (programs, n), dtype=torch.float32, device=x.device)
    _launch("rmsnorm_bwd", variant, programs if m else 0, x, dy, w, rstd, dx,
            dw, m, n=n, reset=(dw,) if variant == "looped" else ())
    return dx, dw


def layernorm_bwd(variant, x, dy, gamma):
    (x, dy, gamma), m, n = _rows(x, dy, gamma)
    dx = _like(x)
    _launch("layernorm_bwd", variant, m, x, dy, gamma, dx, n=n)
    return dx


def weighted_var_bwd(variant, x, w, dy):
    (x, w, dy), m, n = _rows(x, w, dy)
    dx = _like(x)
    _launch("weighted_var_bwd", variant, m, x, w, dy, dx, n=n)
    return dx


def pearson_bwd(variant, x, y, g):
    (x, y, g), m, n = _rows(x, y, g)
    dx = _like(x)
    dy = _like(x)
    _launch("pearson_bwd", variant, m, x, y, g, dx, dy, n=n)
    return dx, dy


def lars_momentum(variant, w, grad, mom):
    (w, grad, mom), m, n = _rows(w, grad, mom)
    w_out = _like(w)
    u = _like(w)
    _launch("lars_momentum", variant, m, w, grad, mom, w_out, u, n=n)
    return w_out, u


def rowwise_quant(variant, x):
    (x,), m, n = _rows(x)
    q = _empty(x.shape, torch.int8, x.device)
    scale = _empty((m,), torch.float32, x.device)
    _launch("rowwise_quant", variant, m, x, q, scale, n=n)
    return q, scale


WORKLOADS = {
    "layernorm_bwd": layernorm_bwd,
    "weighted_var_bwd": weighted_var_bwd,
    "pearson_bwd": pearson_bwd,
    "softmax_logits_bwd": softmax_logits_bwd,
    "lars_momentum": lars_momentum,
    "rowwise_quant": rowwise_quant,
    "softmax": softmax,
    "log_softmax": log_softmax,
    "layernorm": layernorm,
    "rmsnorm": rmsnorm,
    "rmsnorm_bwd": rmsnorm_bwd,
    "cross_entropy": cross_entropy,
    "l2_normalize": l2_normalize,
}


def functions(variant: str) -> dict:
    """{workload: fn(*bench args) -> outputs} for one variant."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; one of {VARIANTS}")
    return {name: (lambda *a, f=fn: f(variant, *a))
            for name, fn in WORKLOADS.items()}
