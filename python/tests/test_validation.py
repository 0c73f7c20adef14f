"""Argument checks of the PyTorch functions, without torch."""

import pytest

from credit import validation
from credit.validation import ArgumentError, TensorSpec


def spec(name="x", shape=(4, 64), dtype="bf16", device="cuda", index=0):
    strides = tuple(int(s) for s in [shape[-1], 1][-len(shape):]) if shape else ()
    return TensorSpec(name, shape, dtype, device, strides, index)


def test_rows():
    assert validation.check_rows(spec(shape=(2, 3, 64))) == (6, 64)
    with pytest.raises(ArgumentError, match="x has dtype i64; expected"):
        validation.check_rows(spec(dtype="i64"))
    with pytest.raises(ArgumentError, match="at least one dimension"):
        validation.check_rows(spec(shape=()))
    with pytest.raises(ArgumentError, match="rows of length 0"):
        validation.check_rows(spec(shape=(4, 0)))


def test_devices():
    validation.check_device([spec(), spec("w", (64,))])
    with pytest.raises(ArgumentError, match="x is on cpu; CREDIT kernels need CUDA tensors"):
        validation.check_device([spec(device="cpu")])
    with pytest.raises(ArgumentError, match="different CUDA devices"):
        validation.check_device([spec(), spec("y", index=1)])


def test_shapes_and_dtypes():
    with pytest.raises(ArgumentError, match=r"dy has shape \[4, 32\], expected \[4, 64\]"):
        validation.check_same_rows(spec(), spec("dy", (4, 32)))
    with pytest.raises(ArgumentError, match="dy has dtype f32, expected bf16"):
        validation.check_same_rows(spec(), spec("dy", dtype="f32"))
    with pytest.raises(ArgumentError, match=r"weight has shape \[32\], expected \[64\]"):
        validation.check_vector(spec("weight", (32,)), 64, "bf16")
    with pytest.raises(ArgumentError, match="weight has dtype f16"):
        validation.check_vector(spec("weight", (64,), "f16"), 64, "bf16")
    validation.check_per_row(spec("g", (4, 1), "f32"), 4, ("f32",))
    with pytest.raises(ArgumentError, match="g has 3 elements, expected one per row"):
        validation.check_per_row(spec("g", (3,), "f32"), 4, ("f32",))
    with pytest.raises(ArgumentError, match="target has dtype i32, expected i64"):
        validation.check_per_row(spec("target", (4,), "i32"), 4, ("i64",))


def test_last_dim_only():
    validation.check_last_dim(-1, 2, "softmax")
    validation.check_last_dim(1, 2, "softmax")
    with pytest.raises(ArgumentError, match="only the last dimension"):
        validation.check_last_dim(0, 2, "softmax")
