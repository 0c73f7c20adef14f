"""Drop-in use in Hugging Face transformers models (as Liger-Kernel users
know it): `credit.patch(model)` makes a model's RMSNorm and LayerNorm
modules and its cross-entropy loss run CREDIT's kernels, and undoes it.

    patched = credit.patch(model)          # or: with credit.patch(model): ...
    loss = model(input_ids, labels=labels).loss
    patched.undo()

- RMSNorm: every module of a class named `*RMSNorm` with a `weight` [N]
  and an epsilon (`variance_epsilon` or `eps`) computes
  `credit.rms_norm(x, weight, eps)`, except the classes of
  `OFFSET_RMSNORMS` (Gemma's), which scale by `1 + weight`.
- LayerNorm: `torch.nn.LayerNorm` modules over the last dimension with an
  affine weight compute `credit.layer_norm`.
- Cross-entropy: transformers' causal-LM loss (`ForCausalLMLoss`, through
  `transformers.loss.loss_utils.fixed_cross_entropy`) computes
  `credit.cross_entropy`, which produces the logits' gradient in the same
  pass. Calls with an ignore index other than -100 keep the original.

Only instance attributes (the modules' `forward`) and one module-level
function are replaced, and `undo` puts back exactly what was there. A call
the kernels do not take (a dtype CREDIT does not store, a CPU tensor) runs
the original forward.
"""

from __future__ import annotations

import types

import torch

from . import ops

#: RMSNorm classes that scale by (1 + weight): not the same function.
OFFSET_RMSNORMS = ("GemmaRMSNorm", "Gemma2RMSNorm", "Gemma3RMSNorm")

_STORED = (torch.float32, torch.bfloat16, torch.float16)


def _takes(x: torch.Tensor) -> bool:
    return x.is_cuda and x.dtype in _STORED and x.dim() >= 1


def _rmsnorm_forward(original, eps: float):
    def forward(self, hidden_states, *args, **kwargs):
        weight = self.weight
        if args or kwargs or not _takes(hidden_states) or \
                weight.dtype != hidden_states.dtype:
            return original(hidden_states, *args, **kwargs)
        return ops.rms_norm(hidden_states, weight, eps)
    return forward


def _layernorm_forward(original):
    def forward(self, x):
        if not _takes(x) or self.weight.dtype != x.dtype or (
                self.bias is not None and self.bias.dtype != x.dtype):
            return original(x)
        return ops.layer_norm(x, self.normalized_shape, self.weight,
                              self.bias, self.eps)
    return forward


def _fixed_cross_entropy(original):
    def fixed_cross_entropy(source, target, num_items_in_batch=None,
                            ignore_index: int = -100, **kwargs):
        if ignore_index != -100 or not _takes(source) or \
                target.dtype != torch.int64:
            return original(source, target, num_items_in_batch,
                            ignore_index, **kwargs)
        reduction = "sum" if num_items_in_batch is not None else "mean"
        loss = ops.cross_entropy(source, target, reduction=reduction)
        if reduction == "sum":
            if torch.is_tensor(num_items_in_batch):
                num_items_in_batch = num_items_in_batch.to(loss.device)
            loss = loss / num_items_in_batch
        return loss
    fixed_cross_entropy.credit_original = original
    return fixed_cross_entropy


class Patch:
    """What `patch` replaced; `undo()` restores it. Also a context
    manager."""

    def __init__(self):
        self.modules: list[torch.nn.Module] = []
        self.functions: list[tuple[object, str, object]] = []

    @property
    def rms_norms(self) -> int:
        return sum(not isinstance(m, torch.nn.LayerNorm) for m in self.modules)

    @property
    def layer_norms(self) -> int:
        return sum(isinstance(m, torch.nn.LayerNorm) for m in self.modules)

    def undo(self) -> None:
        for module in self.modules:
            # The class's forward shows through again.
            if "forward" in module.__dict__:
                del module.__dict__["forward"]
        for owner, name, original in reversed(self.functions):
            setattr(owner, name, original)
        self.modules.clear()
        self.functions.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.undo()


def _epsilon(module: torch.nn.Module):
    for name in ("variance_epsilon", "eps", "epsilon"):
        value = getattr(module, name, None)
        if isinstance(value, (int, float)):
            return float(value)
    return None


def patch(model: torch.nn.Module, *, rms_norm: bool = True,
          layer_norm: bool = True, cross_entropy: bool = True) -> Patch:
    """Makes `model`'s norms (and, with `cross_entropy`, transformers'
    causal-LM loss, for every model) run CREDIT's kernels; returns the
    Patch that undoes it."""
    if not isinstance(model, torch.nn.Module):
        raise ops.ArgumentError(f"patch() takes a torch.nn.Module, got "
                                f"{type(model).__name__}")
    done = Patch()
    for module in model.modules():
        if "forward" in module.__dict__:
            continue  # patched already, or someone else's override
        name = type(module).__name__
        weight = getattr(module, "weight", None)
        if rms_norm and name.endswith("RMSNorm") and \
                name not in OFFSET_RMSNORMS and \
                isinstance(weight, torch.Tensor) and weight.dim() == 1:
            eps = _epsilon(module)
            if eps is None:
                continue
            original = module.forward
            module.forward = types.MethodType(
                _rmsnorm_forward(original, eps), module)
            done.modules.append(module)
        elif layer_norm and isinstance(module, torch.nn.LayerNorm) and \
                len(module.normalized_shape) == 1 and \
                module.weight is not None:
            original = module.forward
            module.forward = types.MethodType(_layernorm_forward(original),
                                              module)
            done.modules.append(module)
    if cross_entropy:
        try:
            from transformers.loss import loss_utils
        except ImportError:
            loss_utils = None
        original = getattr(loss_utils, "fixed_cross_entropy", None)
        if original is not None and \
                not hasattr(original, "credit_original"):
            loss_utils.fixed_cross_entropy = _fixed_cross_entropy(original)
            done.functions.append((loss_utils, "fixed_cross_entropy",
                                   original))
    return done
