"""Argument checks for the PyTorch functions, independent of torch.

The torch layer describes each tensor argument as a TensorSpec; these
functions raise ArgumentError with a message that names the argument.
"""

from __future__ import annotations

import dataclasses

from .workloads import STORAGE_DTYPES


class ArgumentError(ValueError):
    """A tensor argument the kernels cannot take."""


@dataclasses.dataclass(frozen=True)
class TensorSpec:
    name: str
    shape: tuple[int, ...]
    dtype: str  # "f32", "bf16", "f16", "i64", ... or the torch name if other
    device: str  # "cuda" or "cpu" ...
    strides: tuple[int, ...]
    device_index: int | None = None


def check_device(specs: list[TensorSpec]) -> None:
    """All tensors on one CUDA device."""
    for spec in specs:
        if spec.device != "cuda":
            raise ArgumentError(f"{spec.name} is on {spec.device}; CREDIT "
                                "kernels need CUDA tensors")
    devices = {spec.device_index for spec in specs}
    if len(devices) > 1:
        raise ArgumentError("tensors are on different CUDA devices: " +
                            ", ".join(f"{s.name} on cuda:{s.device_index}"
                                      for s in specs))


def check_rows(spec: TensorSpec, n: int | None = None) -> tuple[int, int]:
    """A row tensor [..., N] in a storage dtype; returns (M, N)."""
    if spec.dtype not in STORAGE_DTYPES:
        raise ArgumentError(f"{spec.name} has dtype {spec.dtype}; expected "
                            "float32, bfloat16 or float16")
    if len(spec.shape) < 1:
        raise ArgumentError(f"{spec.name} must have at least one dimension")
    if spec.shape[-1] < 1:
        raise ArgumentError(f"{spec.name} has rows of length 0")
    if n is not None and spec.shape[-1] != n:
        raise ArgumentError(f"{spec.name} has rows of length "
                            f"{spec.shape[-1]}, expected {n}")
    m = 1
    for size in spec.shape[:-1]:
        m *= size
    return m, spec.shape[-1]


def check_same_rows(first: TensorSpec, other: TensorSpec) -> None:
    if other.shape != first.shape:
        raise ArgumentError(f"{other.name} has shape {list(other.shape)}, "
                            f"expected {list(first.shape)} like {first.name}")
    if other.dtype != first.dtype:
        raise ArgumentError(f"{other.name} has dtype {other.dtype}, expected "
                            f"{first.dtype} like {first.name}")


def check_vector(spec: TensorSpec, n: int, dtype: str) -> None:
    """A broadcast input [N] in the rows' dtype."""
    if tuple(spec.shape) != (n,):
        raise ArgumentError(f"{spec.name} has shape {list(spec.shape)}, "
                            f"expected [{n}]")
    if spec.dtype != dtype:
        raise ArgumentError(f"{spec.name} has dtype {spec.dtype}, expected "
                            f"{dtype} like the rows")


def check_per_row(spec: TensorSpec, m: int, dtypes: tuple[str, ...]) -> None:
    """A per-row scalar input: M elements ([M] or [M, 1] or the rows'
    leading shape)."""
    count = 1
    for size in spec.shape:
        count *= size
    if count != m:
        raise ArgumentError(f"{spec.name} has {count} elements, expected one "
                            f"per row ({m})")
    if spec.dtype not in dtypes:
        raise ArgumentError(f"{spec.name} has dtype {spec.dtype}, expected "
                            f"{' or '.join(dtypes)}")


def check_last_dim(dim: int, ndim: int, what: str) -> None:
    if dim not in (-1, ndim - 1):
        raise ArgumentError(f"{what}: only the last dimension is supported "
                            f"(dim=-1), got dim={dim}")
