"""Rows sharded across the GPUs of a group: vocabulary-parallel
cross-entropy, softmax and log_softmax through torch.distributed.

With tensor parallelism a model's output layer holds a [tokens, V/P] shard
of every row of logits on each of P ranks. Each function here makes one
collective per call (backward passes: one more):

1. the workload's *partial* kernel (`credit-split-stages{part=partial}`,
   compiled from the same `credit.rowwise` op as the single-GPU kernel)
   reduces the local shard of each row to its stage values: the online
   maximum and the sum of exponentials relative to it (and, for
   cross_entropy, the target's logit where this shard holds the target);
2. one `all_gather` of every rank's packed per-row partials (a header and
   three floats per row, so `12 * M` bytes from each rank): an all-reduce
   cannot combine maxima with sums rescaled to them in one call, a gather
   of the partials can, and it sends half the bytes of a padded all-reduce;
3. the *combine* kernel (`part=combine shards=P`) combines the P partials
   of each row in rank order (the same arithmetic as the kernels' own
   exchanges, so every rank computes the same bits) and writes this
   rank's shard of the outputs.

Every payload starts with a header (workload, dtype, rows, shard length
and first column), and every rank checks all of them after the gather, so
a rank that calls another function, another dtype or shards that do not
tile the vocabulary gets the same clear error on every rank instead of a
hang or a wrong answer (`validate=False` skips the check and the device
synchronization it needs; such a call can be captured in a CUDA graph).
The row count M must agree (it sets the size
of the collective); in a tensor-parallel group the tokens are the same
on every rank by construction.

CPU tensors (e.g. with the gloo backend) are computed with torch in
float64 through the same header, gather and combination order, so the
protocol runs without a GPU.
"""

from __future__ import annotations

import torch
import torch.distributed as dist

from . import fastpath, ops
from .compiler import MAX_SHARDS, Request
from .validation import ArgumentError
from .workloads import KERNELS


class DistributedError(ArgumentError):
    """A sharded call that the ranks of its group disagree about, or a
    group that cannot be used."""


#: The stage entries each workload's partial part writes per row (its one
#: stage after credit-online-softmax): kinds as createCombineAll combines
#: them.
PARTIALS = {
    "softmax": ("max", "addexp"),
    "log_softmax": ("max", "addexp"),
    "cross_entropy": ("max", "addexp", "add"),
    "softmax_logits_bwd": ("max", "addexp", "addexp"),
}
#: Floats per row in every payload, whatever the workload: a rank calling
#: another function then sends a payload of the same size and the header
#: check catches it.
_WIDTH = max(len(kinds) for kinds in PARTIALS.values())
_HEADER = 8
_MAGIC = 0x43524454  # "CRDT"
_NAMES = sorted(PARTIALS)
_DTYPE_CODES = {torch.float32: 1, torch.bfloat16: 2, torch.float16: 3}
_CODE_DTYPES = {code: dtype for dtype, code in _DTYPE_CODES.items()}


# --------------------------------------------------------------------------
# The two parts on one device: kernels for CUDA tensors, torch for CPU ones.
# --------------------------------------------------------------------------

def _part_plan(name: str, x: torch.Tensor, split: str,
               shards: int) -> fastpath.Plan:
    device = x.get_device()
    key = ("split", name, x.dtype, x.shape[-1], split, shards, device)
    plan = fastpath.plans.get(key)
    if plan is None:
        request = Request(name, ops._DTYPES[x.dtype], x.shape[-1], 0,
                          KERNELS[name].eps, split=split, shards=shards)
        plan = fastpath.plan_for(
            key, request, device,
            lambda r, d: ops.runtime().kernel(r, torch.device("cuda", d)))
        if split == "partial" and plan.scalar_outputs != len(PARTIALS[name]):
            raise RuntimeError(
                f"the compiler's partial part of {name} writes "
                f"{plan.scalar_outputs} values per row, expected "
                f"{len(PARTIALS[name])} ({', '.join(PARTIALS[name])})")
    return plan


def _aligned_rows(tensor: torch.Tensor, n: int, alignment: int):
    """Contiguous [M, n] rows at an address the kernel takes."""
    rows = ops._as_rows(tensor, n)
    if not rows.is_contiguous():
        rows = rows.contiguous()
    if rows.data_ptr() % alignment:
        rows = rows.clone()
    return rows


def _launch(plan: fastpath.Plan, rows, scalars, per_row_out=None):
    n = rows[0].shape[-1]
    rows = [_aligned_rows(t, n, plan.alignment) for t in rows]
    outputs = fastpath.run(plan, rows, (), scalars, ops.poison_outputs,
                           per_row_out=per_row_out)
    if outputs is None:
        raise RuntimeError("the split kernel refused its own arguments")
    return outputs


def partial(name: str, rows: list[torch.Tensor], scalars: list[torch.Tensor],
            out: list[torch.Tensor]) -> None:
    """Writes the stage values of each row of this shard into `out` (one
    f32 [M] tensor per entry of PARTIALS[name])."""
    if rows[0].is_cuda:
        plan = _part_plan(name, rows[0], "partial", 1)
        _launch(plan, rows, scalars, per_row_out=out)
        return
    for tensor, value in zip(out, _partial_reference(name, rows, scalars)):
        tensor.copy_(value)


def combine(name: str, rows: list[torch.Tensor], scalars: list[torch.Tensor],
            partials: list[torch.Tensor], shards: int) -> list[torch.Tensor]:
    """This shard's outputs (row outputs, then per-row outputs) from the
    partials of all `shards` shards, shard-major (shard 0's entries
    first)."""
    if rows[0].is_cuda:
        plan = _part_plan(name, rows[0], "combine", shards)
        return _launch(plan, rows, list(scalars) + list(partials))
    return _combine_reference(name, rows, scalars, partials, shards)


def _shift(maximum: torch.Tensor) -> torch.Tensor:
    return torch.where(maximum == -torch.inf, torch.zeros_like(maximum),
                       maximum)


def _partial_reference(name, rows, scalars):
    x = rows[0].double()
    maximum = x.amax(-1)
    e = torch.exp(x - _shift(maximum)[:, None])
    values = [maximum, e.sum(-1)]
    if name == "cross_entropy":
        columns = torch.arange(x.shape[-1], device=x.device)
        hit = columns[None, :] == scalars[0][:, None]
        values.append(torch.where(hit, x, torch.zeros_like(x)).sum(-1))
    elif name == "softmax_logits_bwd":
        values.append((e * rows[1].double()).sum(-1))
    return [value.float() for value in values]


def _combine_values(kinds, tuples):
    """createCombineAll in float64: max first, then each addexp sum
    rescaled to the combined maximum, in shard order."""
    result = list(tuples[0])
    for k, kind in enumerate(kinds):
        if kind == "max":
            for other in tuples[1:]:
                result[k] = torch.maximum(result[k], other[k])
        elif kind == "add":
            for other in tuples[1:]:
                result[k] = result[k] + other[k]
    for k, kind in enumerate(kinds):
        if kind == "addexp":
            partner = max(i for i in range(k) if kinds[i] == "max")
            shift = _shift(result[partner])
            result[k] = sum(t[k] * torch.exp(t[partner] - shift)
                            for t in tuples)
    return result


def _combine_reference(name, rows, scalars, partials, shards):
    kinds = PARTIALS[name]
    entries = len(kinds)
    tuples = [[partials[s * entries + k].double() for k in range(entries)]
              for s in range(shards)]
    maximum, total, *rest = _combine_values(kinds, tuples)
    x = rows[0].double()
    p = torch.exp(x - maximum[:, None]) / total[:, None]
    if name == "softmax":
        return [p.to(rows[0].dtype)]
    if name == "log_softmax":
        return [(x - maximum[:, None] - torch.log(total)[:, None])
                .to(rows[0].dtype)]
    if name == "softmax_logits_bwd":
        dy = rows[1].double()
        return [(p * (dy - (rest[0] / total)[:, None])).to(rows[0].dtype)]
    target = scalars[0]
    ignored = target == -100
    columns = torch.arange(x.shape[-1], device=x.device)
    grad = p - (columns[None, :] == target[:, None]).double()
    grad[ignored] = 0
    loss = torch.log(total) + maximum - rest[0]
    loss[ignored] = 0
    return [grad.to(rows[0].dtype), loss.float()]


# --------------------------------------------------------------------------
# The collective.
# --------------------------------------------------------------------------

def _group(group) -> tuple[int, int]:
    """(rank, size) of this process in `group`, or DistributedError."""
    if not dist.is_available() or not dist.is_initialized():
        raise DistributedError(
            "credit.distributed: torch.distributed is not initialised; call "
            "torch.distributed.init_process_group first")
    rank = dist.get_rank(group)
    if rank < 0:
        raise DistributedError("credit.distributed: this process is not a "
                               "member of the group")
    size = dist.get_world_size(group)
    if size > MAX_SHARDS:
        raise DistributedError(f"credit.distributed: groups of at most "
                               f"{MAX_SHARDS} ranks are supported, got {size}")
    return rank, size


#: Headers already on a device, by call signature: a call copies its
#: header from here on the device (no host-to-device copy per call, so a
#: call with validate=False can be captured in a CUDA graph).
_headers: dict[tuple, torch.Tensor] = {}
_MAX_HEADERS = 1024


def _header(name: str, x: torch.Tensor, m: int, n: int,
            start: int) -> torch.Tensor:
    """This call's header, as f32 words on x's device."""
    key = (name, x.dtype, m, n, start, x.device)
    header = _headers.get(key)
    if header is None:
        if len(_headers) >= _MAX_HEADERS:
            _headers.clear()
        fields = [_MAGIC, _NAMES.index(name), _DTYPE_CODES[x.dtype], m, n,
                  start & 0x7FFFFFFF, start >> 31, len(PARTIALS[name])]
        header = torch.tensor(fields, dtype=torch.int32).view(
            torch.float32).to(x.device)
        _headers[key] = header
    return header


def _check_headers(headers: torch.Tensor, rank: int, name: str,
                   tiled: bool) -> None:
    """Raises the same DistributedError on every rank when the gathered
    headers disagree."""
    rows = headers.tolist()
    problems = []
    if any(row[0] != _MAGIC for row in rows):
        problems.append("ranks " + ", ".join(
            str(r) for r, row in enumerate(rows) if row[0] != _MAGIC) +
            " did not send a credit.distributed payload")
    else:
        calls = [_NAMES[row[1]] if 0 <= row[1] < len(_NAMES) else "?"
                 for row in rows]
        if len(set(calls)) > 1:
            problems.append("the ranks called different functions: " +
                            ", ".join(f"rank {r} {c}"
                                      for r, c in enumerate(calls)))
        dtypes = [str(_CODE_DTYPES.get(row[2], "?")).replace("torch.", "")
                  for row in rows]
        if len(set(dtypes)) > 1:
            problems.append("the shards have different dtypes: " +
                            ", ".join(f"rank {r} {d}"
                                      for r, d in enumerate(dtypes)))
        ms = [row[3] for row in rows]
        if len(set(ms)) > 1:
            problems.append("the shards have different row counts: " +
                            ", ".join(f"rank {r} {m}"
                                      for r, m in enumerate(ms)))
        if tiled and not problems:
            covered = 0
            for r, row in enumerate(rows):
                start = row[5] | (row[6] << 31)
                if start != covered:
                    problems.append(
                        f"the shards do not tile the vocabulary: rank {r} "
                        f"starts at column {start}, but ranks 0-{r - 1} hold "
                        f"{covered} columns (shard lengths "
                        + ", ".join(str(x[4]) for x in rows) +
                        "); uneven shards need each rank's vocab_start")
                    break
                covered += row[4]
    if problems:
        raise DistributedError(f"credit.distributed.{name} (rank {rank}): " +
                               "; ".join(problems))


def _sharded(name: str, rows: list[torch.Tensor], scalars: list[torch.Tensor],
             group, start: int | None, validate: bool) -> list[torch.Tensor]:
    """The outputs of workload `name` for this rank's shard of each row."""
    rank, size = _group(group)
    x = rows[0]
    n = x.shape[-1]
    m = x.numel() // n
    if m >= 1 << 31:
        raise ArgumentError(f"credit.distributed.{name}: {m} rows are more "
                            "than the header's 2^31 - 1")
    entries = len(PARTIALS[name])
    rows = [ops._as_rows(t, n) for t in rows]
    scalars = [t.reshape(-1).contiguous() for t in scalars]

    payload = torch.empty(_HEADER + _WIDTH * m, dtype=torch.float32,
                          device=x.device)
    payload[:_HEADER].copy_(_header(name, x, m, n, start or 0))
    per_row = [payload[_HEADER + k * m:_HEADER + (k + 1) * m]
               for k in range(entries)]
    partial(name, rows, scalars, per_row)

    gathered = torch.empty((size, payload.numel()), dtype=torch.float32,
                           device=x.device)
    if dist.get_backend(group) == "nccl":
        dist.all_gather_into_tensor(gathered, payload, group=group)
    else:
        dist.all_gather(list(gathered.unbind(0)), payload, group=group)
    if validate:
        _check_headers(gathered[:, :_HEADER].cpu().view(torch.int32), rank,
                       name, start is not None)
    partials = [gathered[s, _HEADER + k * m:_HEADER + (k + 1) * m]
                for s in range(size) for k in range(entries)]
    return combine(name, rows, scalars, partials, size)


# --------------------------------------------------------------------------
# Argument checks and autograd.
# --------------------------------------------------------------------------

def _check_shard(what: str, x) -> None:
    if not isinstance(x, torch.Tensor):
        raise ArgumentError(f"{what} must be a torch.Tensor, got "
                            f"{type(x).__name__}")
    if x.dtype not in _DTYPE_CODES:
        raise ArgumentError(f"{what} has dtype {x.dtype}; expected "
                            "torch.float32, torch.bfloat16 or torch.float16")
    if x.dim() < 1 or x.shape[-1] < 1:
        raise ArgumentError(f"{what} must have a non-empty last dimension, "
                            f"got shape {tuple(x.shape)}")
    if x.is_cuda:
        ops.require_hopper(*torch.cuda.get_device_capability(x.device),
                           torch.cuda.get_device_name(x.device))
    elif x.device.type != "cpu":
        raise ArgumentError(f"{what} is on {x.device}; expected a CUDA or "
                            "CPU tensor")


def _local_target(target: torch.Tensor, start: int, n: int) -> torch.Tensor:
    """Targets as columns of this shard: -100 stays (ignored rows), a
    target another shard holds becomes -1 (no column matches)."""
    local = target - start
    inside = (local >= 0) & (local < n)
    outside = torch.where(target == -100, -100, -1)
    return torch.where(inside, local, outside)


class _CrossEntropy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, logits, target, group, start, validate):
        n = logits.shape[-1]
        local = _local_target(target.reshape(-1), start, n)
        dlogits, loss = _sharded("cross_entropy", [logits], [local], group,
                                 start, validate)
        ctx.save_for_backward(dlogits)
        ctx.shape = logits.shape
        return loss.view(logits.shape[:-1])

    @staticmethod
    def backward(ctx, dloss):
        (dlogits,) = ctx.saved_tensors
        grad = ops.scale_rows(dlogits, dloss.reshape(-1))
        return grad.view(ctx.shape), None, None, None, None


class _Softmax(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, group, validate):
        (y,) = _sharded("softmax", [x], [], group, None, validate)
        ctx.save_for_backward(x)
        ctx.group, ctx.validate = group, validate
        return y.view(x.shape)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensors
        (dx,) = _sharded("softmax_logits_bwd", [x, dy.contiguous()], [],
                         ctx.group, None, ctx.validate)
        return dx.view(x.shape), None, None


class _LogSoftmax(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, group, validate):
        (y,) = _sharded("log_softmax", [x], [], group, None, validate)
        y = y.view(x.shape)
        ctx.save_for_backward(y)
        ctx.group = group
        return y

    @staticmethod
    def backward(ctx, dy):
        # d/dx of log_softmax: dy - softmax(x) * sum(dy) over the whole row:
        # one all-reduce of the shards' row sums.
        (y,) = ctx.saved_tensors
        total = dy.float().sum(-1, keepdim=True)
        dist.all_reduce(total, group=ctx.group)
        return (dy.float() - torch.exp(y.float()) * total).to(dy.dtype), \
            None, None


def cross_entropy(logits_shard: torch.Tensor, target: torch.Tensor,
                  group=None, *, vocab_start: int | None = None,
                  ignore_index: int = -100, reduction: str = "mean",
                  validate: bool = True) -> torch.Tensor:
    """F.cross_entropy over logits whose vocabulary is sharded across
    `group` (default: the whole world): `logits_shard` is this rank's
    [..., V_r] slice, columns vocab_start .. vocab_start + V_r of the
    vocabulary (default rank * V_r: equal shards); `target` holds global
    class indices (-100: ignored), the same on every rank. The loss (the
    same on every rank) carries the shard's gradient, computed in the same
    pass, for autograd."""
    _check_shard("logits_shard", logits_shard)
    ops.check_loss_options(ignore_index, reduction)
    if not isinstance(target, torch.Tensor) or target.dtype != torch.int64:
        raise ArgumentError("target must be a torch.int64 tensor")
    if tuple(target.shape) != tuple(logits_shard.shape[:-1]):
        raise ArgumentError(f"target has shape {tuple(target.shape)}, "
                            f"expected {tuple(logits_shard.shape[:-1])}")
    if target.device != logits_shard.device:
        raise ArgumentError(f"target is on {target.device}, logits_shard on "
                            f"{logits_shard.device}")
    rank, _ = _group(group)
    start = rank * logits_shard.shape[-1] if vocab_start is None \
        else int(vocab_start)
    if start < 0:
        raise ArgumentError(f"vocab_start must be >= 0, got {start}")
    loss = _CrossEntropy.apply(logits_shard, target, group, start, validate)
    return ops.reduce_loss(loss, target, reduction)


def softmax(x_shard: torch.Tensor, group=None, *,
            validate: bool = True) -> torch.Tensor:
    """This rank's shard of torch.softmax over rows sharded across
    `group` (the last dimension)."""
    _check_shard("x_shard", x_shard)
    _group(group)
    return _Softmax.apply(x_shard, group, validate)


def log_softmax(x_shard: torch.Tensor, group=None, *,
                validate: bool = True) -> torch.Tensor:
    """This rank's shard of torch.log_softmax over rows sharded across
    `group` (the last dimension)."""
    _check_shard("x_shard", x_shard)
    _group(group)
    return _LogSoftmax.apply(x_shard, group, validate)
