"""Fused linear cross-entropy: the loss of `hidden @ weight.T` against
`target` without the [tokens, vocab] logits ever existing whole.

For each chunk of tokens the logits come from cuBLAS (torch.matmul); CREDIT's
cross_entropy kernel turns them, in place, into the logits' gradient (and
writes the chunk's per-token loss), and two more matmuls take that
gradient to the hidden states' and the weight's. The gradients are computed
in the forward pass (as Liger-Kernel does) and scaled in the backward, so
the only large temporaries are one chunk of logits and the weight's
gradient. The weight's gradient accumulates over the chunks in the weight's
dtype, like Liger's.
"""

from __future__ import annotations

import torch

from . import ops

#: The most bytes one chunk of logits takes.
CHUNK_BYTES = 256 << 20


def _chunk_rows(tokens: int, vocab: int, element_size: int) -> int:
    return max(1, min(tokens, CHUNK_BYTES // max(1, vocab * element_size)))


def _loss_and_gradient(logits: torch.Tensor, target: torch.Tensor):
    """Per-row loss of the [rows, vocab] `logits`, which become the
    gradient of the summed loss with respect to them."""
    ops._check_rows_inputs(["logits"], [logits],
                           scalars=[("target", target, ("i64",))])
    plan = ops._plan("cross_entropy", logits, None, 64)
    outputs = ops.fastpath.run(plan, [logits], [], [target], False,
                               rows_out=[logits])
    if outputs is None:
        raise ops.ArgumentError("linear_cross_entropy: a chunk's logits "
                                "or targets are not contiguous and aligned")
    return outputs[1]


class _LinearCrossEntropy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, hidden, weight, bias, target, reduction, chunk):
        tokens, vocab = hidden.shape[0], weight.shape[0]
        rows = chunk or _chunk_rows(tokens, vocab, hidden.element_size())
        need_hidden = hidden.requires_grad
        need_weight = weight.requires_grad
        need_bias = bias is not None and bias.requires_grad
        grad_hidden = torch.empty_like(hidden) if need_hidden else None
        grad_weight = torch.zeros_like(weight) if need_weight else None
        grad_bias = torch.zeros_like(bias) if need_bias else None
        loss = torch.empty(tokens, dtype=torch.float32, device=hidden.device)
        for start in range(0, tokens, rows):
            end = min(tokens, start + rows)
            h = hidden[start:end]
            logits = h @ weight.t()
            if bias is not None:
                logits += bias
            loss[start:end] = _loss_and_gradient(logits,
                                                 target[start:end])
            if need_hidden:
                torch.mm(logits, weight, out=grad_hidden[start:end])
            if need_weight:
                grad_weight.addmm_(logits.t(), h)
            if need_bias:
                grad_bias += logits.sum(0)
            # Before the next chunk's logits exist, not after.
            del logits
        count = (target != -100).sum()
        if reduction == "mean":
            total = loss.sum() / count
            scale = 1.0 / count.clamp(min=1).to(torch.float32)
        elif reduction == "sum":
            total = loss.sum()
            scale = None
        else:
            total = loss
            scale = None
        ctx.reduction = reduction
        ctx.save_for_backward(grad_hidden, grad_weight, grad_bias,
                              scale if scale is not None else loss.new_ones(()))
        return total

    @staticmethod
    def backward(ctx, grad_output):
        grad_hidden, grad_weight, grad_bias, scale = ctx.saved_tensors
        if getattr(ctx, "scaled", False):
            raise RuntimeError("linear_cross_entropy: its gradients are "
                               "scaled in place, once; backward through it "
                               "twice (retain_graph) is not supported")
        ctx.scaled = True
        if ctx.reduction == "none":
            raise RuntimeError("linear_cross_entropy(reduction='none') has "
                               "no backward: the per-token gradients are "
                               "not kept")
        # In place, the factor kept in f32 (0-d), so that no temporary as
        # large as the weight's gradient appears.
        factor = (grad_output * scale).to(torch.float32)
        for grad in (grad_hidden, grad_weight, grad_bias):
            if grad is not None:
                grad.mul_(factor)
        return grad_hidden, grad_weight, grad_bias, None, None, None


def linear_cross_entropy(hidden: torch.Tensor, weight: torch.Tensor,
                         target: torch.Tensor, bias: torch.Tensor | None = None,
                         ignore_index: int = -100, reduction: str = "mean",
                         chunk: int | None = None) -> torch.Tensor:
    """F.cross_entropy(hidden @ weight.T + bias, target, ignore_index=-100,
    reduction=...) for hidden [tokens, H] (or [..., H]), weight [V, H] and
    target [tokens], computed chunk by chunk (`chunk` tokens at a time;
    default: 256 MB of logits)."""
    if ignore_index != -100:
        raise ops.ArgumentError("linear_cross_entropy: only "
                                "ignore_index=-100 is supported")
    if reduction not in ("mean", "sum", "none"):
        raise ops.ArgumentError(f"linear_cross_entropy: unknown reduction "
                                f"{reduction!r}")
    for name, tensor in (("hidden", hidden), ("weight", weight),
                         ("target", target)):
        if not isinstance(tensor, torch.Tensor):
            raise ops.ArgumentError(f"{name} must be a torch.Tensor")
    if weight.dim() != 2 or hidden.shape[-1] != weight.shape[1]:
        raise ops.ArgumentError(f"weight has shape {list(weight.shape)}; "
                                f"expected [vocab, {hidden.shape[-1]}]")
    if weight.dtype != hidden.dtype or (
            bias is not None and bias.dtype != hidden.dtype):
        raise ops.ArgumentError("hidden, weight and bias must share a dtype")
    if target.dtype != torch.int64:
        raise ops.ArgumentError(f"target has dtype {target.dtype}, expected "
                                "torch.int64")
    hidden = hidden.reshape(-1, hidden.shape[-1])
    target = target.reshape(-1)
    if target.shape[0] != hidden.shape[0]:
        raise ops.ArgumentError(f"target has {target.shape[0]} tokens, "
                                f"hidden {hidden.shape[0]}")
    if chunk is not None and chunk < 1:
        raise ops.ArgumentError("chunk must be positive")
    return _LinearCrossEntropy.apply(hidden.contiguous(), weight.contiguous(),
                                     bias, target.contiguous(), reduction,
                                     chunk)
