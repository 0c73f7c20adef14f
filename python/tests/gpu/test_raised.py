"""Kernels of linalg raised by credit-raise-linalg compute what the linalg
computed: each case of test/Transforms/raise-linalg.mlir, compiled with
credit-to-ptx into $CREDIT_RAISED_ARTIFACTS (scripts/device_userpath.sh
says how), against PyTorch in float64, with poisoned outputs."""

import os
import pathlib

import pytest
import torch

import credit
from credit.launcher import LoadedKernelSet
from credit.manifest import check_kernel_set, load_artifacts

DIRECTORY = os.environ.get("CREDIT_RAISED_ARTIFACTS")
pytestmark = pytest.mark.skipif(
    not DIRECTORY, reason="no raised kernels ($CREDIT_RAISED_ARTIFACTS)")

F64 = torch.float64


_DTYPES = {torch.float32: "f32", torch.bfloat16: "bf16", torch.float16: "f16"}


def _kernels(workload: str, n: int, dtype) -> LoadedKernelSet:
    manifests = [k for k in load_artifacts(pathlib.Path(DIRECTORY))
                 if k.workload == workload and k.n == n and
                 k.input_dtypes[0] == _DTYPES[dtype]]
    return LoadedKernelSet(check_kernel_set(manifests, workload),
                           torch.cuda.current_device())


def _run(workload, inputs, broadcasts, scalars, outputs, scalar_outputs):
    """Launches the raised kernel on contiguous tensors; outputs poisoned."""
    kernels = _kernels(workload, inputs[0].shape[1], inputs[0].dtype)
    m = inputs[0].shape[0]
    outs = [torch.full(shape, float("nan") if dtype.is_floating_point
                       else -128, dtype=dtype, device="cuda")
            for shape, dtype in outputs + scalar_outputs]
    args = []
    for t in inputs:
        args += [t.data_ptr(), t.stride(0)]
    args += [t.data_ptr() for t in broadcasts + scalars]
    for t in outs[:len(outputs)]:
        args += [t.data_ptr(), t.stride(0)]
    args += [t.data_ptr() for t in outs[len(outputs):]]
    kernels.launch(args, m, torch.cuda.current_stream().cuda_stream)
    torch.cuda.synchronize()
    return outs


def rel(a, b):
    a, b = a.double(), b.double()
    assert not torch.isnan(a).any(), "an output was not written"
    return ((a - b).norm() / b.norm().clamp(min=1e-30)).item()


def softmax64(x):
    return torch.softmax(x.to(F64), -1)


@pytest.mark.parametrize("workload, shape, dtype", [
    ("torch_softmax_0", (4, 1000), torch.float32),
    ("named_softmax_0", (8, 512), torch.float32),
    ("softmax_0", (300, 4096), torch.float32),
    ("softmax", (600, 32000), torch.bfloat16),
    ("softmax", (128, 256), torch.float32),
])
def test_softmax(workload, shape, dtype):
    x = torch.randn(*shape, device="cuda", dtype=dtype)
    if workload == "softmax_0":
        x[3, 17] = float("nan")  # skipped by the max, poisons the sum
        x[5] = float("-inf")
    (y,) = _run(workload, [x], [], [], [(shape, dtype)], [])
    reference = softmax64(x)
    finite = ~torch.isnan(reference).any(-1)
    assert torch.isnan(y[~finite]).all()
    assert rel(y[finite], reference[finite]) < (1e-5 if dtype ==
                                                torch.float32 else 1e-2)


def test_llama_rmsnorm():
    m, n = 2 * 77, 4096
    h = torch.randn(m, n, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(n, device="cuda", dtype=torch.bfloat16)
    (y,) = _run("llama_rmsnorm_0", [h], [w], [], [((m, n), torch.bfloat16)],
                [])
    hf = h.to(F64)
    normed = (hf * torch.rsqrt(hf.square().mean(-1, keepdim=True) + 1e-6))
    reference = w.to(F64) * normed.to(torch.bfloat16).to(F64)
    assert rel(y, reference) < 1e-2


def test_layernorm():
    x = torch.randn(512, 512, device="cuda")
    g, b = torch.randn(512, device="cuda"), torch.randn(512, device="cuda")
    y, mean, rstd = _run("layernorm_0", [x], [g, b], [],
                         [((512, 512), torch.float32)],
                         [((512,), torch.float32)] * 2)
    x64 = x.to(F64)
    ref = torch.nn.functional.layer_norm(x64, (512,), g.to(F64), b.to(F64),
                                         1e-5)
    assert rel(y, ref) < 1e-5
    assert rel(mean, x64.mean(-1)) < 1e-5
    assert rel(rstd, torch.rsqrt(x64.var(-1, unbiased=False) + 1e-5)) < 1e-5


def test_cross_entropy():
    m, n = 37, 32000
    x = torch.randn(m, n, device="cuda")
    t = torch.randint(0, n, (m,), device="cuda")
    grad, loss = _run("cross_entropy_0", [x], [], [t], [((m, n), torch.float32)],
                      [((m,), torch.float32)])
    x64 = x.to(F64)
    ref_loss = torch.nn.functional.cross_entropy(x64, t, reduction="none")
    ref_grad = softmax64(x) - torch.nn.functional.one_hot(t, n).to(F64)
    assert rel(loss, ref_loss) < 1e-5
    assert rel(grad, ref_grad) < 1e-5


def test_rowwise_quant():
    m, n = 200, 4096
    x = torch.randn(m, n, device="cuda")
    q, scale = _run("rowwise_quant_0", [x], [], [], [((m, n), torch.int8)],
                    [((m,), torch.float32)])
    x64 = x.to(F64)
    amax = x64.abs().amax(-1, keepdim=True)
    ref = torch.clamp(torch.round(x64 * (127.0 / amax)), -127, 127)
    assert (q.to(F64) - ref).abs().max() <= 1  # ties may round either way
    assert rel(scale, amax.squeeze(-1) / 127) < 1e-6


def test_softmax_bwd():
    y = torch.randn(8, 2048, device="cuda", dtype=torch.bfloat16)
    dy = torch.randn(8, 2048, device="cuda", dtype=torch.bfloat16)
    (dx,) = _run("softmax_bwd_0", [y, dy], [], [], [((8, 2048), torch.bfloat16)],
                 [])
    y64, dy64 = y.to(F64), dy.to(F64)
    ref = y64 * (dy64 - (y64 * dy64).sum(-1, keepdim=True))
    assert rel(dx, ref) < 1e-2


def test_exp_too():
    x = torch.randn(64, 1024, device="cuda")
    e, p = _run("exp_too_0", [x], [], [], [((64, 1024), torch.float32)] * 2, [])
    x64 = x.to(F64)
    assert rel(e, torch.exp(x64)) < 1e-5
    assert rel(p, softmax64(x)) < 1e-5
