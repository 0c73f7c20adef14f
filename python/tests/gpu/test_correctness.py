"""Every workload on the GPU against a float64 reference.

Inputs are fresh random tensors each run, outputs are poisoned (NaN, or -128
for int8) before each launch, and each result is compared with a float64
reference of the same inputs: relative error (in the 2-norm, over elements
whose reference is finite) below 1e-5 for f32 and 1e-2 for bf16/f16, int8
equal except at rounding ties, and NaN exactly where the reference has NaN.
"""

import pytest
import torch

import credit
import credit.ops
from credit import fastpath, reference, suites

TORCH_DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16,
                "f16": torch.float16}
TOLERANCE = {"f32": 1e-5, "bf16": 1e-2, "f16": 1e-2}
SPLIT_CASES = suites.split_cases()
CASES = [case for case in suites.gpu_cases() if case not in SPLIT_CASES]


def rows(case, generator, positive=False):
    """[M, N] random rows in the case's dtype, with the case's row stride."""
    shape = (case.m, case.n + case.pad)
    data = torch.randn(shape, generator=generator, device="cuda",
                       dtype=torch.float32)
    if positive:
        data = data.abs() + 0.1
    data = data.to(TORCH_DTYPES[case.dtype])
    return data[:, :case.n]


def vector(case, generator):
    data = torch.randn(case.n, generator=generator, device="cuda")
    return data.to(TORCH_DTYPES[case.dtype])


def specials(case, tensor):
    """Row 0 gets a -inf, row 1 a NaN, row 2 is all -inf, row 4 is -inf
    but for its last third."""
    if case.values != "special":
        return tensor
    tensor = tensor.clone()
    tensor[0, case.n // 3] = float("-inf")
    if case.m > 1:
        tensor[1, case.n // 2] = float("nan")
    if case.m > 2:
        tensor[2, :] = float("-inf")
    if case.m > 4:
        tensor[4, :2 * case.n // 3] = float("-inf")
    return tensor


def compare(name, out, ref, dtype):
    out = out.double()
    ref = ref.double().to(out.device)
    assert out.shape == ref.shape, f"{name}: shape {out.shape} vs {ref.shape}"
    ref_nan = torch.isnan(ref)
    out_nan = torch.isnan(out)
    assert torch.equal(out_nan, ref_nan), (
        f"{name}: NaN at {int((out_nan & ~ref_nan).sum())} places the "
        f"reference has none, missing at {int((ref_nan & ~out_nan).sum())}")
    ref_inf = torch.isinf(ref)
    assert torch.equal(torch.isinf(out) & ~ref_nan, ref_inf), \
        f"{name}: infinities differ from the reference"
    assert torch.equal(out[ref_inf], ref[ref_inf]), f"{name}: wrong infinity"
    finite = torch.isfinite(ref)
    error = _relative_error(out[finite], ref[finite])
    # 16-bit storage: within the rounding of the storage type itself (f16
    # softmax probabilities of rows of 2M elements are subnormal).
    limit = TOLERANCE[dtype]
    if dtype != "f32":
        rounded = ref[finite].to(TORCH_DTYPES[dtype]).double()
        limit = max(limit, 2 * _relative_error(rounded, ref[finite]))
    assert error < limit, f"{name}: relative error {error:.3g}"


def _relative_error(out, ref) -> float:
    diff = (out - ref).norm()
    scale = ref.norm()
    return float(diff / scale) if scale > 0 else float(diff)


def run_case(case, generator):
    """Runs the case through the public API; returns [(name, out, ref)]."""
    w = case.workload
    eps = credit.WORKLOADS[w].eps
    x = specials(case, rows(case, generator))
    x64 = x.double()
    if w == "softmax":
        return [("y", credit.softmax(x), reference.softmax(x64)[0])]
    if w == "log_softmax":
        return [("y", credit.log_softmax(x), reference.log_softmax(x64)[0])]
    if w == "l2_normalize":
        return [("y", credit.normalize(x), reference.l2_normalize(x64)[0])]
    if w == "layernorm":
        gamma, beta = vector(case, generator), vector(case, generator)
        outs = credit.layer_norm_with_stats(x, gamma, beta, eps)
        refs = reference.layernorm(x64, gamma.double(), beta.double(), eps)
        return list(zip(["y", "mean", "rstd"], outs, refs))
    if w == "rmsnorm":
        weight = vector(case, generator)
        outs = credit.rms_norm_with_rstd(x, weight, eps)
        refs = reference.rmsnorm(x64, weight.double(), eps)
        return list(zip(["y", "rstd"], outs, refs))
    if w == "rmsnorm_bwd":
        dy, weight = rows(case, generator), vector(case, generator)
        rstd = torch.rsqrt((x64 * x64).mean(-1) + 1e-6).float()
        outs = credit.rmsnorm_bwd(x, dy, weight, rstd)
        refs = reference.rmsnorm_bwd(x64, dy.double(), weight.double(),
                                     rstd.double())
        return list(zip(["dx", "dw"], outs, refs))
    if w == "cross_entropy":
        target = torch.randint(0, case.n, (case.m,), generator=generator,
                               device="cuda")
        if case.m > 2:
            # The first and last columns (the last CTA's slice may be short).
            target[0], target[1] = 0, case.n - 1
        if case.m > 3:
            target[3] = -100
        loss, grad = credit.ops._cross_entropy(x, target)
        ref_loss, ref_grad = reference.cross_entropy(x64, target)
        return [("loss", loss, ref_loss), ("dlogits", grad, ref_grad)]
    if w == "layernorm_bwd":
        dy, gamma = rows(case, generator), vector(case, generator)
        return [("dx", credit.layernorm_bwd(x, dy, gamma, eps),
                 reference.layernorm_bwd(x64, dy.double(), gamma.double(),
                                         eps)[0])]
    if w == "weighted_var_bwd":
        weight = rows(case, generator, positive=True)
        dy = rows(case, generator)
        return [("dx", credit.weighted_var_bwd(x, weight, dy),
                 reference.weighted_var_bwd(x64, weight.double(),
                                            dy.double())[0])]
    if w == "pearson_bwd":
        y = rows(case, generator)
        g = torch.randn(case.m, generator=generator, device="cuda")
        outs = credit.pearson_bwd(x, y, g)
        refs = reference.pearson_bwd(x64, y.double(), g.double())
        return list(zip(["dx", "dy"], outs, refs))
    if w == "softmax_logits_bwd":
        dy = rows(case, generator)
        return [("dx", credit.softmax_backward(x, dy),
                 reference.softmax_logits_bwd(x64, dy.double())[0])]
    if w == "lars_momentum":
        grad, m = rows(case, generator), rows(case, generator)
        outs = credit.lars_momentum(x, grad, m)
        refs = reference.lars_momentum(x64, grad.double(), m.double())
        return list(zip(["w_new", "u"], outs, refs))
    if w == "rowwise_quant":
        q, scale = credit.rowwise_quant(x)
        ref_q, ref_scale, scaled = reference.rowwise_quant(x64)
        # int8: equal, except at rounding ties and where the reference is
        # not a number (NaN has no int8 value).
        defined = torch.isfinite(scaled)
        tie = ((scaled.abs() - scaled.abs().floor()) - 0.5).abs() < 1e-3
        wrong = (q.double() != ref_q) & defined & ~tie
        assert int(wrong.sum()) == 0, f"q: {int(wrong.sum())} wrong values"
        assert int((q.double() - ref_q)[defined].abs().max()) <= 1
        return [("scale", scale, ref_scale)]
    raise AssertionError(f"no test for {w}")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_workload(case):
    check_case(case)


@pytest.mark.parametrize("case", SPLIT_CASES, ids=[c.id for c in SPLIT_CASES])
def test_split_rows(case):
    """Rows split over several clusters that meet in global memory."""
    check_case(case)


def check_case(case):
    generator = torch.Generator(device="cuda")
    generator.seed()
    forcing = credit.ops.force_tiling(case.tiling) if case.tiling else \
        credit.cluster_size(case.cluster)
    with forcing:
        results = run_case(case, generator)
    torch.cuda.synchronize()
    for name, out, ref in results:
        compare(f"{case.id}: {name}", out, ref,
                "f32" if out.dtype == torch.float32 and name in
                ("mean", "rstd", "loss", "scale", "dw") and case.dtype != "f32"
                else case.dtype)


SPLIT_SOFTMAX = suites.split_tiling("bf16", 100000, 2, 4)


def test_split_rows_relaunch_and_graph():
    """A split-row kernel leaves its arrival counters zero: launches of
    different row counts in a row, and CUDA graph replays, all match the
    reference."""
    generator = torch.Generator(device="cuda")
    generator.seed()

    def fresh(m):
        return torch.randn(m, 100000, generator=generator, device="cuda",
                           dtype=torch.float32).to(torch.bfloat16)

    with credit.ops.force_tiling(SPLIT_SOFTMAX):
        for m in (8, 3, 8, 1, 37, 5):
            x = fresh(m)
            compare(f"m={m}", credit.softmax(x),
                    reference.softmax(x.double())[0], "bf16")
        static = fresh(6)
        credit.softmax(static)  # compiled and loaded before the capture
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            out = credit.softmax(static)
        for _ in range(3):
            static.copy_(fresh(6))
            graph.replay()
            torch.cuda.synchronize()
            compare("graph", out, reference.softmax(static.double())[0],
                    "bf16")


def test_dependent_launches_in_a_chain(monkeypatch):
    """Kernels launched with programmatic stream serialization start before
    the kernel before them ends and wait for its writes: a chain of
    softmaxes, each reading the last one's output right after it on the
    stream (no poisoning kernel in between), matches the reference, eager
    and replayed as a CUDA graph; rows split over clusters (which let the
    next kernel launch only after their rows) and not."""
    monkeypatch.setattr(credit.ops, "poison_outputs", False)
    generator = torch.Generator(device="cuda")
    generator.seed()

    def chain(x, links=4):
        for _ in range(links):
            x = credit.softmax(x)
        return x

    def expected(x, links=4):
        x = x.double()
        for _ in range(links):
            x = reference.softmax(x)[0]
        return x

    for forcing, n, dtype in ((credit.cluster_size(0), 8192, torch.float32),
                              (credit.ops.force_tiling(SPLIT_SOFTMAX), 100000,
                               torch.bfloat16)):
        name = "f32" if dtype == torch.float32 else "bf16"
        with forcing:
            x = torch.randn(37, n, generator=generator, device="cuda").to(dtype)
            out = chain(x)
            torch.cuda.synchronize()
            # Each link rounds to the storage type: compare with the
            # float64 chain of the rounded inputs of the last link.
            compare(f"{name} eager", out, expected(x), name)
            kernel = fastpath.plans[credit.ops._call_key(
                "softmax", x, None, 64)].kernels[0]
            assert kernel.dependent, "the kernel launches without waiting"
            static = x.clone()
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                captured = chain(static)
            for _ in range(3):
                static.copy_(torch.randn(37, n, generator=generator,
                                         device="cuda").to(dtype))
                graph.replay()
                torch.cuda.synchronize()
                compare(f"{name} graph", captured, expected(static), name)
