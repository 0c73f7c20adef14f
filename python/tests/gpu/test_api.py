"""The PyTorch functions: errors for bad use, torch.library checks,
torch.compile, and autograd against PyTorch's own gradients."""

import pytest
import torch
import torch.nn.functional as F

import credit
import credit.ops


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, device="cuda", dtype=dtype)


def test_bad_arguments():
    with pytest.raises(credit.ArgumentError, match="x is on cpu"):
        credit.softmax(torch.randn(4, 64))
    with pytest.raises(credit.ArgumentError, match="x has dtype torch.float64"):
        credit.softmax(randn(4, 64, dtype=torch.float64))
    with pytest.raises(credit.ArgumentError, match="only the last dimension"):
        credit.softmax(randn(4, 64), dim=0)
    with pytest.raises(credit.ArgumentError, match=r"weight has shape \[32\]"):
        credit.rms_norm(randn(4, 64), randn(32))
    with pytest.raises(credit.ArgumentError, match="weight has dtype f32, expected bf16"):
        credit.rms_norm(randn(4, 64, dtype=torch.bfloat16), randn(64))
    with pytest.raises(credit.ArgumentError, match="target has dtype torch.int32"):
        credit.cross_entropy(randn(4, 64), torch.zeros(4, dtype=torch.int32,
                                                        device="cuda"))
    with pytest.raises(credit.ArgumentError, match="normalized_shape"):
        credit.layer_norm(randn(4, 64), (32,))
    with pytest.raises(credit.ArgumentError, match="cluster size must be"):
        credit.cluster_size(3)


def test_missing_kernel_without_compiler(tmp_path, monkeypatch):
    runtime = credit.ops.Runtime()
    runtime.libraries = [credit.Library(tmp_path)]
    runtime.compiler.credit_opt = None
    monkeypatch.setattr(credit.ops, "_runtime", runtime)
    with pytest.raises(credit.ManifestError, match="credit-opt not found"):
        credit.softmax(randn(3, 1234))


def test_non_contiguous_and_batched_inputs():
    x = randn(2, 3, 8192 + 8)[..., :8192]
    assert torch.allclose(credit.softmax(x), torch.softmax(x, -1), atol=1e-6)
    x = randn(8192, 6).t()  # inner stride 6: copied to unit stride
    assert torch.allclose(credit.softmax(x), torch.softmax(x, -1), atol=1e-6)


@pytest.mark.parametrize("op, args", [
    ("softmax", lambda: (randn(4, 8192),)),
    ("rmsnorm", lambda: (randn(4, 8192), randn(8192), 1e-6)),
    ("layernorm", lambda: (randn(4, 8192), randn(8192), randn(8192), 1e-5)),
    ("rowwise_quant", lambda: (randn(4, 8192),)),
])
def test_opcheck(op, args):
    torch.library.opcheck(getattr(torch.ops.credit, op).default, args(),
                          test_utils=("test_schema", "test_faketensor",
                                      "test_autograd_registration"))


def test_torch_compile():
    @torch.compile(fullgraph=True, dynamic=False)
    def model(x, w):
        return credit.rms_norm(x, w, 1e-6) * 2

    x, w = randn(8, 8192, dtype=torch.bfloat16), randn(8192, dtype=torch.bfloat16)
    expected = F.rms_norm(x.float(), (8192,), w.float(), 1e-6) * 2
    assert torch.allclose(model(x, w).float(), expected, atol=2e-2, rtol=2e-2)


def _grads(fn, *inputs, seed=0):
    """fn's output and the gradients of its inputs for an upstream gradient
    drawn from `seed` (the same for both sides of a comparison)."""
    inputs = [t.detach().clone().requires_grad_(True) for t in inputs]
    out = fn(*inputs)
    generator = torch.Generator(device="cuda").manual_seed(seed)
    grad = torch.randn(out.shape, generator=generator, device="cuda",
                       dtype=out.dtype)
    out.backward(grad)
    return out, [t.grad for t in inputs]


@pytest.mark.parametrize("name, ours, theirs, shapes", [
    ("softmax", lambda x: credit.softmax(x), lambda x: torch.softmax(x, -1),
     [(6, 8192)]),
    ("rms_norm", lambda x, w: credit.rms_norm(x, w, 1e-6),
     lambda x, w: F.rms_norm(x, (8192,), w, 1e-6), [(6, 8192), (8192,)]),
    ("layer_norm", lambda x, w, b: credit.layer_norm(x, (8192,), w, b),
     lambda x, w, b: F.layer_norm(x, (8192,), w, b, 1e-5),
     [(6, 8192), (8192,), (8192,)]),
])
def test_autograd_matches_pytorch(name, ours, theirs, shapes):
    inputs = [randn(*shape) for shape in shapes]
    out, grads = _grads(ours, *inputs)
    ref_out, ref_grads = _grads(theirs, *inputs)
    assert torch.allclose(out, ref_out, atol=1e-4, rtol=1e-4), name
    for grad, ref in zip(grads, ref_grads):
        assert torch.allclose(grad, ref, atol=1e-3, rtol=1e-3), name


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_matches_pytorch(reduction):
    logits = randn(16, 8192)
    target = torch.randint(0, 8192, (16,), device="cuda")
    target[3] = -100
    ours, (grad,) = _grads(
        lambda x: credit.cross_entropy(x, target, reduction=reduction).sum(),
        logits)
    ref, (ref_grad,) = _grads(
        lambda x: F.cross_entropy(x, target, reduction=reduction).sum(),
        logits)
    assert torch.allclose(ours, ref, atol=1e-4, rtol=1e-5)
    assert torch.allclose(grad, ref_grad, atol=1e-6, rtol=1e-4)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16,
                                   torch.float16])
def test_scale_rows(dtype):
    """The row_scale kernel (cross_entropy's backward): each row times its
    scale, in float32, rounded once."""
    x = (torch.randn(37, 8192, device="cuda") * 3).to(dtype)
    scale = torch.randn(37, device="cuda")
    y = credit.ops.scale_rows(x, scale)
    ref = (x.float() * scale[:, None]).to(dtype)
    assert y.dtype == dtype and y.shape == x.shape
    assert torch.equal(y, ref)
    # A scale broadcast from one value (a mean's upstream gradient).
    y = credit.ops.scale_rows(x, torch.tensor(0.25, device="cuda").expand(37))
    assert torch.equal(y, (x.double() * 0.25).to(dtype))
